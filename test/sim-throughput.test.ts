// Throughput that no link could carry is a wrong number (issue 10). A flow's throughput counts the
// payload delivered within its window (start to stop or the run's end; start to completion for a
// finished sized flow), not the queue draining after it stops. Checked on every example.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../host/scenario/scenario.js';
import { runScenario } from '../host/sim/run.js';
import type { SimFlowResult, SimSummary } from '../host/sim/result.js';

const examples = readdirSync('examples').filter((e) => existsSync(join('examples', e, 'scenario.yaml'))).sort();
const summaries = new Map<string, { s: SimSummary; rate: Map<string, number>; clockSlack: number }>();
function example(name: string) {
  let r = summaries.get(name);
  if (!r) {
    const scn = loadScenario(join('examples', name, 'scenario.yaml'));
    // Access link rate of every host (hosts have one port).
    const rate = new Map(scn.nodes.filter((n) => n.isHost).map((n) => [n.name, scn.ports[n.ports[0]].bps]));
    // A port's clock may run up to clock_ppm fast (docs/sim.md "Timing"): it then carries that much over nominal.
    r = { s: runScenario(scn).summary, rate, clockSlack: 1 + scn.timing.clockPpb / 1e9 };
    summaries.set(name, r);
  }
  return r;
}

function groupBy<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
  return m;
}

/** Union length of [start, start + window) intervals, ps. */
function unionPs(flows: SimFlowResult[]): number {
  const iv = flows.map((f) => [f.start_ps, f.start_ps + f.window_ps!] as const).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [a, b] = [-1, -1];
  for (const [x, y] of iv) {
    if (x > b) { total += b - a; [a, b] = [x, y]; } else b = Math.max(b, y);
  }
  return total + (b - a);
}

describe('throughput never exceeds what the path carries', () => {
  it('converged-link: IPC delivers 0.2 x 9.87 = 1.97 Gb/s over its 3 ms (+-3 %), not the drain after it', () => {
    const { s } = example('converged-link');
    const ipc = s.flows.find((f) => f.src === 'ipc')!;
    expect(ipc.throughput_bps / 1e9).toBeGreaterThan(1.97 * 0.97);
    expect(ipc.throughput_bps / 1e9).toBeLessThan(1.97 * 1.03);
    expect(ipc.window_ps).toBe(3e9);
    expect((ipc.throughput_bps * ipc.window_ps!) / 8e12).toBeLessThan(ipc.bytes_delivered); // the drain is left out
    expect(s.throughput!.goodput_bps / 1e9).toBeCloseTo(9.87, 1);
  });

  for (const name of examples) {
    it(`${name}: flows sharing an access link fit its rate; links are used at most 100 % (+ their clock's offset)`, () => {
      const { s, rate, clockSlack } = example(name);
      for (const f of s.flows) {
        // Per flow: at most its slower access link, and only bytes it really delivered.
        expect(f.throughput_bps).toBeLessThanOrEqual(Math.min(rate.get(f.src)!, rate.get(f.dst)!));
        expect(Math.floor((f.throughput_bps * f.window_ps!) / 8e12)).toBeLessThanOrEqual(f.bytes_delivered);
      }
      for (const key of ['src', 'dst'] as const) {
        const groups = groupBy(s.flows, (f) => f[key]);
        for (const [host, fs] of groups) {
          const cap = rate.get(host)!;
          // Bits the flows count within their windows fit the link over the union of the windows ...
          const bits = fs.reduce((a, f) => a + (f.throughput_bps * f.window_ps!) / 1e12, 0);
          expect(bits).toBeLessThanOrEqual((cap * unionPs(fs)) / 1e12 * 1.000001);
          // ... and flows measured over the same window add up to at most the link rate.
          for (const same of groupBy(fs, (f) => `${f.start_ps}+${f.window_ps}`).values()) {
            expect(same.reduce((a, f) => a + f.throughput_bps, 0)).toBeLessThanOrEqual(cap);
          }
        }
      }
      for (const l of s.throughput!.links) expect(l.utilisation_pct).toBeLessThanOrEqual(100 * clockSlack);
      const dstCap = [...new Set(s.flows.map((f) => f.dst))].reduce((a, h) => a + rate.get(h)!, 0);
      expect(s.throughput!.goodput_bps).toBeLessThanOrEqual(dstCap);
    }, 120_000);
  }
});
