// The run's sampler (host/sim/sample.ts) reads its series from flat tables, one loop per kind. Held
// here to a plain reference that reads each series on its own through the fabric's readers, at
// every sampling instant of runs that queue, pause (PFC and PAUSE), throttle with QCN and deliver:
// every kind of series, each value equal to the last bit.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../host/scenario/scenario.js';
import { buildFabric, type Fabric } from '../host/sim/fabric.js';
import { round3, Sampler, seriesPlan } from '../host/sim/sample.js';
import type { Scenario } from '../host/scenario/scenario.js';

/** One reference reader per series, as the plan describes it. */
function reference(fab: Fabric, scn: Scenario): ((t: number, dt: number) => number)[] {
  const { L, r32, r64, portAt, flowAt } = fab;
  const last = new Map<number, number>();
  const tcBytes = (p: number, tc: number) => r32(portAt(p) + L.SP_TCQ + L.SQ_SIZE * tc + L.SQ_BYTES);
  return seriesPlan(scn).map(({ src }, k) => {
    const delta = (now: number) => { const d = now - (last.get(k) ?? 0); last.set(k, now); return d; };
    const rp = (fa: number, field: number) => round3((r32(fa + L.SF_RP + L.QCN_RP_ACTIVE) !== 0 ? r64(fa + L.SF_RP + field) : r64(fa + L.SF_LINE_BPS)) / 1e9);
    switch (src.what) {
      case 'queue': return () => Array.from({ length: 8 }, (_, tc) => tcBytes(src.p, tc)).reduce((a, b) => a + b, 0);
      case 'queueTc': return () => tcBytes(src.p, src.tc);
      case 'paused': return (t, dt) => round3((100 * delta(fab.pausedPs(src.p, t, src.pr))) / dt);
      case 'throughput': return (_t, dt) => round3((delta(r64(flowAt(src.f) + L.SF_DELIV)) * 8) / dt * 1000);
      case 'rate': return () => rp(flowAt(src.f), L.QCN_RP_CR);
      case 'target': return () => rp(flowAt(src.f), L.QCN_RP_TR);
    }
  });
}

/** Each run, and the kinds of series it must show non-zero values in (so the comparison compares something). */
const RUNS: [string, () => Scenario, string[]][] = [
  ['examples/pause-vs-pfc/scenario.yaml', () => loadScenario('examples/pause-vs-pfc/scenario.yaml'), ['queue', 'queueTc', 'paused', 'throughput']],
  ['examples/pause-vs-pfc/pause.yaml', () => loadScenario('examples/pause-vs-pfc/pause.yaml'), ['queue', 'queueTc', 'paused', 'throughput']],
  ['examples/qcn-hotspot/scenario.yaml', () => loadScenario('examples/qcn-hotspot/scenario.yaml'), ['queue', 'throughput', 'rate', 'target']],
  ['examples/congestion-tree/scenario.yaml', () => loadScenario('examples/congestion-tree/scenario.yaml'), ['queue', 'queueTc', 'throughput']],
];

describe('sampler', () => {
  for (const [name, make, active] of RUNS) {
    it(`equals a per-series reference at every sample: ${name}`, () => {
      const scn = make();
      const fab = buildFabric(scn);
      const sampler = new Sampler(fab, scn);
      const ref = reference(fab, scn);
      const want = ref.map(() => [] as number[]);
      let t = 0;
      while (t < scn.duration_ps) {
        const next = Math.min(scn.duration_ps, t + scn.sample_ps);
        fab.runUntil(next);
        sampler.sample(next, next - t);
        ref.forEach((read, k) => want[k].push(read(next, next - t)));
        t = next;
      }
      fab.close();
      expect(sampler.series.map((s) => Array.from(s.values))).toEqual(want);
      const nonZero = (what: string) => seriesPlan(scn).some((x, k) => x.src.what === what && want[k].some((v) => v !== 0));
      expect(active.filter((what) => !nonZero(what))).toEqual([]);
    });
  }
});
