// What a first-time reader of a report misread (docs/reports.md): the pause chart's opacity legend,
// the per-priority paused time that adds up ports, a dozen series in colours too close to tell
// apart, and a boolean sweep parameter drawn as a line from false to true.
import { describe, expect, it } from 'vitest';
import { lineSpec, pauseSpec } from '../host/report/plots.js';
import { reportHtml } from '../host/report/report.js';
import type { SimSeries } from '../host/sim/result.js';
import { parseParams, type PointMetrics, type SweepRow } from '../host/sweep/sweep.js';
import { sweepPlotSpec } from '../host/report/sweep-report.js';
import { syntheticResult } from './fixtures/synthetic-result.js';

type Spec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const queueSeries = (n: number): SimSeries[] => Array.from({ length: n }, (_, i) => ({
  name: `q${i}`, kind: 'queue', unit: 'B', entity: `sw0>h${i}`, t_ps: [1e6, 2e6], values: [i, 2 * i],
}));

describe('plots and the report say what they show', () => {
  it('the pause chart has no grey opacity legend; its subtitle says what the opacity means', () => {
    const r = syntheticResult(50);
    const spec = pauseSpec(r.series.filter((s) => s.kind === 'pause'), r.summary.scenario.duration_ps, r.summary.scenario.sample_ps) as Spec;
    expect(spec.encoding.opacity.legend).toBeNull();
    expect(spec.title.subtitle).toMatch(/opaque as the share of it the priority was paused/);
  });

  it('the per-priority paused time is labelled as a sum over ports, with the ports and the longest one beside it', () => {
    const r = syntheticResult(50);
    r.summary.pfc.paused_ps_by_port = [
      { port: 'h1:p0', paused_ps_by_priority: [0, 0, 0, 100_000_000, 0, 0, 0, 0] },
      { port: 'h2:p0', paused_ps_by_priority: [0, 0, 0, 50_000_000, 0, 0, 0, 0] },
    ];
    r.summary.pfc.paused_ps_by_priority = [0, 0, 0, 150_000_000, 0, 0, 0, 0];
    const html = reportHtml(r, new Map());
    expect(html).toContain('<td>paused time, summed over ports</td>');
    expect(html).toMatch(/<td>ports paused<\/td>(<td>0<\/td>){3}<td>2<\/td>/);
    expect(html).toMatch(/<td>longest paused port<\/td>(<td>[^<]*<\/td>){3}<td>100 (µs|us)<\/td>/);
  });

  it('12 series get a 20-hue palette; more than 20 go to further panels of at most 20', () => {
    const twelve = lineSpec(queueSeries(12), 'queue', 3e6) as Spec;
    expect(twelve.encoding.color.scale.scheme).toBe('tableau20');
    expect(lineSpec(queueSeries(4), 'queue', 3e6).encoding!.color).toMatchObject({ scale: { scheme: 'tableau10' } });
    const many = lineSpec(queueSeries(45), 'queue', 3e6) as Spec;
    expect(many.vconcat).toHaveLength(3);
    const perPanel = many.vconcat.map((p: Spec) => new Set(p.data.values.map((v: { s: string }) => v.s)).size);
    expect(perPanel).toEqual([20, 20, 5]);
  });

  it('a boolean sweep parameter is drawn as grouped bars, a numeric one as a line', () => {
    const metrics = (bps: number, drops = 0) => ({ throughput_bps: bps, drops_lossless: drops }) as unknown as PointMetrics;
    const row = (index: number, params: SweepRow['params'], m: PointMetrics): SweepRow => ({ index, params, metrics: m });
    const boolParams = parseParams(['qcn.enable=false,true', 'seed=1,2']);
    const rows = [
      row(0, { 'qcn.enable': false, seed: 1 }, metrics(1e9)), row(1, { 'qcn.enable': true, seed: 1 }, metrics(2e9)),
      row(2, { 'qcn.enable': false, seed: 2 }, metrics(1.5e9)), row(3, { 'qcn.enable': true, seed: 2 }, metrics(2.5e9, 3)),
    ];
    const bars = sweepPlotSpec(boolParams, rows, 'throughput_bps') as Spec;
    expect(bars.encoding.x.type).toBe('ordinal');
    expect(bars.encoding.xOffset).toMatchObject({ field: 'line' });
    expect(bars.layer[0].mark.type).toBe('bar');
    const numeric = sweepPlotSpec(parseParams(['seed=1,2']), [row(0, { seed: 1 }, metrics(1e9)), row(1, { seed: 2 }, metrics(2e9))], 'throughput_bps') as Spec;
    expect(numeric.mark.type).toBe('line');
  });
});
