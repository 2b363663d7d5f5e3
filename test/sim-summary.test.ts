// The run summary's port figures (host/sim/summary.ts): the PFC frame counts, paused time and each
// link's active window, read in one pass over typed views of the port records, against a plain
// reference that reads every counter through the fabric's r64 and walks each flow's path with
// pathPorts, on scenarios that pause (PFC, PAUSE, a storm) and on a fat tree.
import { describe, expect, it } from 'vitest';
import { closScenario } from '../host/scenario/clos.js';
import { checkScenario, loadScenario, type Scenario } from '../host/scenario/scenario.js';
import { buildFabric, type Fabric } from '../host/sim/fabric.js';
import { pathPorts, summarise } from '../host/sim/summary.js';

function reference(fab: Fabric, scn: Scenario) {
  const { L, r64, portAt } = fab;
  let xoff = 0, xon = 0;
  const byPort: { port: string; paused_ps_by_priority: number[] }[] = [];
  const byPrio = new Array<number>(8).fill(0);
  for (const p of scn.ports) {
    const rec = portAt(p.id) + L.SP_PFC;
    for (let u = 0; u < 9; u++) { xoff += r64(rec + L.PFC_XOFF_TX + 8 * u); xon += r64(rec + L.PFC_XON_TX + 8 * u); }
    const v = Array.from({ length: 8 }, (_, pr) => fab.pausedPs(p.id, scn.duration_ps, pr));
    v.forEach((x, pr) => { byPrio[pr] += x; });
    if (v.some((x) => x > 0)) byPort.push({ port: p.name, paused_ps_by_priority: v });
  }
  const firstUse = new Map<string, number>();
  for (const f of scn.flows) {
    const start = r64(fab.flowAt(f.id) + L.SF_START);
    for (const p of pathPorts(fab, scn, f.id)) {
      for (const name of [p.name, scn.ports[p.peer].name]) firstUse.set(name, Math.min(firstUse.get(name) ?? Infinity, start));
    }
  }
  const stormXoff = r64(fab.addr.counters + L.SC_STORM_XOFF);
  return { xoff: xoff + stormXoff, xon, byPort, byPrio, firstUse, d: scn.duration_ps };
}

const cases: [string, () => Scenario][] = [
  ...['pause-vs-pfc/scenario', 'pause-vs-pfc/pause', 'pfc-storm/scenario', 'congestion-tree/scenario', 'pfc-deadlock/scenario'].map(
    (name): [string, () => Scenario] => [name, () => loadScenario(`examples/${name}.yaml`)]),
  ['clos k = 4 permutation, 200 us', () => checkScenario(closScenario({ k: 4, flows: 16, duration: '200us', pattern: 'permutation' }))],
  // Starts staggered, so a link's first use is the earliest of the flows on it either way.
  ['clos k = 4 random, staggered starts', () => {
    const doc = closScenario({ k: 4, flows: 32, duration: '200us', pattern: 'random' });
    doc.traffic.flows = doc.traffic.flows.map((f, i) => ({ ...f, start: `${3 + 7 * ((i * 5) % 32)}us` }));
    return checkScenario(doc);
  }],
];

describe('summary port figures', () => {
  it.each(cases)('%s equal a plain reference', (_name, make) => {
    const scn = make();
    const fab = buildFabric(scn, 'release', 1);
    fab.runUntil(scn.duration_ps);
    const m = { wall_s: 1, ets: undefined, windowEnd: scn.flows.map((f) => Math.min(scn.duration_ps, f.stop_ps)), deliveredAtEnd: scn.flows.map(() => undefined), deadlock: undefined };
    const s = summarise(fab, scn, m as unknown as Parameters<typeof summarise>[2]);
    const ref = reference(fab, scn);
    expect(s.pfc.xoff_frames).toBe(ref.xoff);
    expect(s.pfc.xon_sent).toBe(ref.xon);
    expect(s.pfc.paused_ps_by_port).toEqual(ref.byPort);
    expect(s.pfc.paused_ps_by_priority).toEqual(ref.byPrio);
    const links = s.throughput!.links;
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(l.active_from_ps, l.port).toBe(Math.min(ref.firstUse.get(l.port) ?? 0, ref.d));
  });

  it('sums counters past 2^32 and sees an XOFF obeyed in a high half', () => {
    const scn = loadScenario('examples/pfc-storm/scenario.yaml');
    const fab = buildFabric(scn, 'release', 1);
    fab.runUntil(scn.duration_ps);
    const { L, portAt, core } = fab;
    const word = (at: number) => at >>> 2;
    core.i32[word(portAt(1) + L.SP_PFC + L.PFC_XON_TX + 8 * 2) + 1] = 3;
    core.i32[word(portAt(2) + L.SP_PFC + L.PFC_XOFF_TX + 8 * 8) + 1] = 1;
    core.i32[word(portAt(0) + L.SP_PFC + L.PFC_XOFF_RX + 8 * 4) + 1] = 1;
    const m = { wall_s: 1, windowEnd: scn.flows.map((f) => Math.min(scn.duration_ps, f.stop_ps)), deliveredAtEnd: scn.flows.map(() => undefined) };
    const s = summarise(fab, scn, m as unknown as Parameters<typeof summarise>[2]);
    const ref = reference(fab, scn);
    expect(ref.xon).toBeGreaterThan(3 * 2 ** 32);
    expect(s.pfc.xoff_frames).toBe(ref.xoff);
    expect(s.pfc.xon_sent).toBe(ref.xon);
    expect(s.pfc.paused_ps_by_port).toEqual(ref.byPort);
  });

  it('the scenarios cover what the figures count', () => {
    const totals = cases.map(([, make]) => {
      const scn = make();
      const fab = buildFabric(scn, 'release', 1);
      fab.runUntil(scn.duration_ps);
      return reference(fab, scn);
    });
    expect(totals.some((t) => t.xoff > 0 && t.xon > 0)).toBe(true);
    expect(totals.some((t) => t.byPort.length > 0)).toBe(true);
  });
});
