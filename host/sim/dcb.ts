// The simulator's read-only view of a port's DCB config (the config format of DESIGN.md §5, key
// names pinned there). The config schema itself belongs to host/config; validateDcb checks the
// fields the engine reads so that a scenario never runs on a config it would misread.
import type { Problem } from '../errors.js';

export interface DcbView {
  mtu: number;
  prioTc: number[];
  /** Per TC: 0 strict, 2 ets (802.1Qaz TSA codes; cbs and vendor are treated as strict / ets). */
  tsa: number[];
  bw: number[];
  pfcEnable: number[];
  pauseTime: number;
  qcnPriorities: number[];
  qcnQeq?: number;
  qcnW?: number;
  creditPriorities: number[];
  creditUnit: number;
}

const TSA: Record<string, number> = { strict: 0, cbs: 0, ets: 2, vendor: 2 };
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const ints = (v: unknown): number[] | undefined => (Array.isArray(v) && v.every((x) => Number.isInteger(x)) ? (v as number[]) : undefined);

/** Problems with the DCB fields the simulator uses, as `path: rule`. */
export function validateDcb(cfg: unknown, path: string): Problem[] {
  const out: Problem[] = [];
  const c = obj(cfg);
  const ets = obj(c.ets);
  if (c.ets !== undefined) {
    const pt = ints(ets.prio_tc);
    if (ets.prio_tc !== undefined && (!pt || pt.length !== 8 || pt.some((t) => t < 0 || t > 7))) {
      out.push({ path: `${path}.ets.prio_tc`, rule: 'lists the TC (0..7) of each of the 8 priorities' });
    }
    const tsa = ets.tsa;
    if (tsa !== undefined && (!Array.isArray(tsa) || tsa.length !== 8 || tsa.some((t) => !(String(t) in TSA)))) {
      out.push({ path: `${path}.ets.tsa`, rule: 'lists 8 TSAs (strict, ets, cbs or vendor)' });
    }
    const bw = ints(ets.bw);
    if (ets.bw !== undefined && (!bw || bw.length !== 8 || bw.some((b) => b < 0 || b > 100))) {
      out.push({ path: `${path}.ets.bw`, rule: 'lists 8 bandwidth percentages 0..100' });
    } else if (bw && Array.isArray(tsa)) {
      const sum = bw.reduce((s, b, i) => s + (tsa[i] === 'ets' ? b : 0), 0);
      if (tsa.includes('ets') && sum !== 100) out.push({ path: `${path}.ets.bw`, rule: `the ETS TCs' bandwidths sum to 100 (they sum to ${sum})` });
    }
  }
  const pfc = obj(c.pfc);
  const en = ints(pfc.enable);
  if (pfc.enable !== undefined && (!en || en.some((p) => p < 0 || p > 7))) out.push({ path: `${path}.pfc.enable`, rule: 'lists priorities 0..7' });
  const mtu = obj(c.port).mtu;
  if (mtu !== undefined && (!Number.isInteger(mtu) || (mtu as number) < 64 || (mtu as number) > 16384)) {
    out.push({ path: `${path}.port.mtu`, rule: 'is a frame size in bytes, 64..16384' });
  }
  return out;
}

/** The fields the engine uses, with the defaults of DESIGN.md §5 (one TC per priority, strict, no PFC). */
export function dcbView(cfg: unknown): DcbView {
  const c = obj(cfg);
  const ets = obj(c.ets);
  const tsa = Array.isArray(ets.tsa) ? (ets.tsa as string[]).map((t) => TSA[t] ?? 0) : [2, 0, 0, 0, 0, 0, 0, 0];
  const bw = ints(ets.bw) ?? (Array.isArray(ets.tsa) ? [0, 0, 0, 0, 0, 0, 0, 0] : [100, 0, 0, 0, 0, 0, 0, 0]);
  const prioTc = ints(ets.prio_tc) ?? (Array.isArray(ets.tsa) ? [0, 1, 2, 3, 4, 5, 6, 7] : [0, 0, 0, 0, 0, 0, 0, 0]);
  const pfc = obj(c.pfc);
  const qcn = obj(c.qcn);
  const cp = obj(qcn.cp);
  const credit = obj(c.credit);
  return {
    mtu: (obj(c.port).mtu as number | undefined) ?? 9216,
    prioTc, tsa, bw,
    pfcEnable: ints(pfc.enable) ?? [],
    pauseTime: (pfc.pause_time as number | undefined) ?? 65535,
    qcnPriorities: ints(cp.priorities) ?? [],
    qcnQeq: cp.q_eq as number | undefined,
    qcnW: cp.w as number | undefined,
    creditPriorities: ints(credit.priorities) ?? [],
    creditUnit: (credit.unit as number | undefined) ?? 64,
  };
}
