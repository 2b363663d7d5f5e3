// Warnings about a valid DCB config: legal settings that a network engineer most likely did not mean.
// 802.1Qbb/802.1Q clause 36 and CEE ETS 1.01 §7: PFC pauses a priority, transmission selection works
// per traffic class (or priority group), so a lossy priority sharing a TC/PG with a PFC priority is
// stopped by every pause of its neighbour. `dcbkit validate` prints these as `warning: path: rule`.
import type { Problem } from '../errors/errors.js';
import type { DcbConfig } from './schema.js';

/** Well-known protocols that are deployed lossless (FCoE/FIP, RoCE v1 and v2). */
const LOSSLESS_APPS: { selector: number[]; protocol: number; name: string }[] = [
  { selector: [1], protocol: 0x8906, name: 'FCoE (ethertype 0x8906)' },
  { selector: [1], protocol: 0x8914, name: 'FIP (ethertype 0x8914)' },
  { selector: [1], protocol: 0x8915, name: 'RoCE v1 (ethertype 0x8915)' },
  { selector: [3, 4], protocol: 4791, name: 'RoCE v2 (UDP 4791)' },
];

function list(ps: number[]): string {
  return ps.join(', ');
}

/** Groups priorities by a key (TC or PGID) and warns about groups mixing PFC and non-PFC priorities. */
function mixedGroups(groupOf: number[], pfc: number[], path: string, what: string, skip: (g: number) => boolean): Problem[] {
  const out: Problem[] = [];
  const groups = [...new Set(groupOf)].sort((a, b) => a - b);
  for (const g of groups) {
    if (skip(g)) continue;
    const members = [...Array(8).keys()].filter((p) => groupOf[p] === g);
    const withPfc = members.filter((p) => pfc.includes(p));
    const without = members.filter((p) => !pfc.includes(p));
    if (withPfc.length && without.length) {
      out.push({
        path,
        rule: `${what} ${g} mixes PFC priorities (${list(withPfc)}) with non-PFC priorities (${list(without)}): a pause of ${list(withPfc)} also stops ${list(without)}`,
      });
    }
  }
  return out;
}

/**
 * Warnings for a normalised config. `given` says which scheduler views the user wrote, so each
 * warning points at a key that exists in the input (a derived ets is not warned about twice).
 */
export function configWarnings(c: DcbConfig, given: { ets: boolean; pg: boolean }): Problem[] {
  const out: Problem[] = [];
  const pfc = c.pfc.enable;
  if (given.ets || !given.pg) {
    out.push(...mixedGroups(c.ets.prio_tc, pfc, 'ets.prio_tc', 'TC', () => false));
    c.ets.bw.forEach((b, t) => {
      if (b > 0 && !c.ets.prio_tc.includes(t)) {
        out.push({ path: `ets.bw[${t}]`, rule: `TC ${t} has ${b} % but no priority maps to it; that share goes to the other ETS TCs` });
      }
    });
  }
  if (c.pg) {
    // PGID 15 is not a shared queue: its priorities are scheduled each by its own strict priority.
    out.push(...mixedGroups(c.pg.prio_pgid, pfc, 'pg.prio_pgid', 'PGID', (g) => g === 15));
    c.pg.pg_bw.forEach((b, g) => {
      if (b > 0 && !c.pg!.prio_pgid.includes(g)) {
        out.push({ path: `pg.pg_bw[${g}]`, rule: `PGID ${g} has ${b} % but no priority maps to it; that share goes to the other PGs` });
      }
    });
  }
  const lossless = (p: number) => c.pause.enable || pfc.includes(p) || c.credit.priorities.includes(p);
  c.app.forEach((e, i) => {
    const known = LOSSLESS_APPS.find((a) => a.selector.includes(e.selector) && a.protocol === e.protocol);
    if (known && !lossless(e.priority)) {
      out.push({ path: `app[${i}]`, rule: `${known.name} is mapped to priority ${e.priority}, which has no PFC or credit flow control; it is normally run lossless` });
    }
    const other = c.app.findIndex((f, j) => j < i && f.selector === e.selector && f.protocol === e.protocol && f.priority !== e.priority);
    if (other >= 0) {
      out.push({ path: `app[${i}]`, rule: `${e.selector_name} ${e.protocol} is also mapped to priority ${c.app[other].priority} by app[${other}]; devices differ in which one they use` });
    }
  });
  return out;
}
