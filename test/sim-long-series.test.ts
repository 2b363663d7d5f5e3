// Data-sized arrays never go through argument spreads (issue 10: `run --out` on a 1500 ms run died
// with "Maximum call stack size exceeded" in plots.ts). Series of 10^7 samples and 2 x 10^5 flows
// pass through the plot specs, the sweep metrics and the extent helpers.
import { describe, expect, it } from 'vitest';
import { appendAll, maxOf, minOf } from '../host/util/extent.js';
import { flowsSpec, lineSpec, MAX_POINTS } from '../host/report/plots.js';
import { pointMetrics } from '../host/sweep/sweep.js';
import type { SimSeries } from '../host/sim/result.js';
import { syntheticResult } from './fixtures/synthetic-result.js';

const N = 10_000_000;

function longSeries(): SimSeries {
  const t_ps = new Array<number>(N);
  const values = new Array<number>(N);
  for (let i = 0; i < N; i++) { t_ps[i] = (i + 1) * 1000; values[i] = (i * 7919) % 100_003; }
  values[N - 3] = 250_000; // the spike the plot scale must see
  return { name: 'queue sw0:p1', kind: 'queue', unit: 'bytes', entity: 'sw0:p1', t_ps, values };
}

describe('long series and many flows', () => {
  it('extent helpers handle 10^7 values and find planted extremes', () => {
    const xs = Float64Array.from({ length: N }, (_, i) => (i * 7919) % 100_003);
    xs[N - 2] = 1e9; // planted extremes, away from both ends
    xs[N / 2] = -5;
    expect(maxOf(xs)).toBe(1e9);
    expect(minOf(xs)).toBe(-5);
    expect(maxOf([], 3)).toBe(3);
    expect(minOf([5, 2, 9])).toBe(2);
    const out = appendAll([1], Array.from({ length: N }, (_, i) => i));
    expect(out.length).toBe(N + 1);
    expect(out[N]).toBe(N - 1);
  });

  it('a line plot of a 10^7-sample series is built, thinned to the budget, scaled by its spike', () => {
    const spec = lineSpec([longSeries()], 'queue', N * 1000) as unknown as { data: { values: { v: number }[] }; encoding: { y: { title: string } } };
    expect(spec.data.values.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(spec.encoding.y.title).toBe('KB'); // 250 000 B -> KB
    expect(Math.max(...spec.data.values.map((r) => r.v))).toBe(250);
  });

  it('the flow plot and the sweep metrics take 2 x 10^5 flows', () => {
    const base = syntheticResult().summary;
    const f0 = base.flows[0];
    const flows = Array.from({ length: 200_000 }, (_, i) => ({ ...f0, id: i, throughput_bps: 1e6 + i }));
    const m = pointMetrics({ ...base, flows });
    expect(m.min_flow_bps).toBe(1e6);
    const spec = flowsSpec(flows) as unknown as { encoding: { x: { title: string } } };
    expect(spec.encoding.x.title).toBe('Mb/s');
  });
});
