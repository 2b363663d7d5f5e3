// The output of a sweep (`dcbkit sweep --out DIR`), written all-or-nothing:
//
//   sweep.csv     one row per grid point in grid order: index, one column per swept path, then the
//                 metrics of host/sweep/sweep.ts PointMetrics (empty cell = not applicable)
//   sweep.json    {params: [{path, values}], metrics: [...names], points: [{index, params, metrics}]}
//   sweep-<metric>.svg   the metric against the first swept parameter, one line per combination
//                 of the others; a point where a lossless priority dropped frames is a cross
//   points/<index>.summary.json   every point's full summary (wall-clock fields removed)
//   run.json      wall time, jobs, achieved concurrency, versions: the only file that differs
//                 between identical sweeps
import { InputError } from '../errors.js';
import { quantityOfAnyKind } from '../unit-grammar.js';
import { SWEEP_OUTPUT, writeTreeAtomic } from '../io.js';
import { toolVersions } from '../versions.js';
import type { TopLevelSpec } from 'vega-lite';
import { renderSvg } from './plots.js';
import { canonicalJson, csvField, deterministicSummary } from './report.js';
import { METRIC_NAMES, type PointMetrics, type SweepOutcome, type SweepParam, type SweepRow } from '../sweep/sweep.js';

export function sweepJson(params: readonly SweepParam[], rows: readonly SweepRow[]): object {
  return {
    params: params.map((p) => ({ path: p.path, values: p.values })),
    metrics: METRIC_NAMES,
    points: rows.map((r) => ({ index: r.index, params: r.params, metrics: r.metrics })),
  };
}

export function sweepCsv(params: readonly SweepParam[], rows: readonly SweepRow[]): string {
  const lines = [['index', ...params.map((p) => p.path), ...METRIC_NAMES].map(csvField).join(',')];
  for (const r of rows) {
    const cells = [r.index, ...params.map((p) => String(r.params[p.path])), ...METRIC_NAMES.map((m) => r.metrics[m] ?? '')];
    lines.push(cells.map((c) => csvField(c)).join(','));
  }
  return lines.join('\n') + '\n';
}

/**
 * Axis of a quantitative x: whole-number parameters (seeds, counts) get whole-number ticks, never
 * 1.1, 1.2, ...: `tickMinStep: 1` and an integer format.
 */
export function integerAxis(xs: readonly number[]): { tickMinStep: number; format: string } | undefined {
  return xs.length > 0 && xs.every(Number.isInteger) ? { tickMinStep: 1, format: 'd' } : undefined;
}

/** How the first swept parameter is drawn: its values divided by `per`, the axis naming the unit. */
export interface XUnit { label: string; per: number }

/** Parses `--x-unit LABEL=SIZE` (e.g. `BDP=25000`): x values are plotted in units of SIZE. */
export function parseXUnit(text: string): XUnit {
  const m = /^\s*([^=\s][^=]*?)\s*=\s*([0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)\s*$/.exec(text);
  const per = m ? Number(m[2]) : NaN;
  if (!m || !(per > 0)) throw new InputError({ path: '--x-unit', rule: `"${text}" is not of the form LABEL=SIZE with SIZE > 0 (e.g. BDP=25000)` });
  return { label: m[1], per };
}

const LOSS_CLASSES = ['no frame lost', 'lossless frames dropped'];

/**
 * The metric against the first swept parameter; the other parameters pick the line (grouped bars when
 * the parameter's values are categories, not numbers). When any
 * point dropped frames of a lossless priority, points are drawn by that: a circle where nothing
 * was lost, a cross where something was, so a curve's lossless part reads off the plot.
 */
export function sweepPlotSpec(params: readonly SweepParam[], rows: readonly SweepRow[], metric: keyof PointMetrics, xUnit?: XUnit): TopLevelSpec {
  const x = params[0];
  // Values with a unit ("12500B", "10us") are drawn on a number axis in their base unit.
  const xNumber = (v: unknown) => (typeof v === 'number' || typeof v === 'string' ? quantityOfAnyKind(v) : undefined);
  const numericX = x.values.every((v) => xNumber(v) !== undefined);
  if (xUnit && !numericX) throw new InputError({ path: '--x-unit', rule: `the first swept parameter ${x.path} has values that are not numbers` });
  const others = params.slice(1);
  // Rates read better in Gb/s; every other metric is plotted as stored.
  const div = metric.endsWith('_bps') ? 1e9 : 1;
  const yTitle = div === 1e9 ? `${metric} (Gb/s)` : metric;
  const data = rows
    .filter((r) => r.metrics[metric] !== null)
    .map((r) => ({
      x: numericX ? xNumber(r.params[x.path])! / (xUnit?.per ?? 1) : r.params[x.path],
      y: (r.metrics[metric] as number) / div,
      line: others.length ? others.map((p) => `${p.path}=${r.params[p.path]}`).join(', ') : metric,
      loss: LOSS_CLASSES[r.metrics.drops_lossless > 0 ? 1 : 0],
    }));
  const order = [...new Set(data.map((d) => d.line))];
  const xTitle = xUnit ? `${x.path} (${xUnit.label}, 1 ${xUnit.label} = ${xUnit.per})` : x.path;
  const color = { field: 'line', type: 'nominal', title: null, sort: order, legend: { labelLimit: 360 } };
  const encoding = {
    x: numericX
      ? { field: 'x', type: 'quantitative', title: xTitle, axis: integerAxis(data.map((d) => d.x as number)) }
      : { field: 'x', type: 'ordinal', title: x.path, sort: x.values.map(String), axis: { labelAngle: 0 } },
    y: { field: 'y', type: 'quantitative', title: yTitle },
    color,
  };
  const base = { title: `${metric} vs ${x.path}`, width: 560, height: 260, data: { values: data } };
  const lossy = data.some((d) => d.loss !== LOSS_CLASSES[0]);
  const lossShape = { field: 'loss', type: 'nominal', title: null, scale: { domain: LOSS_CLASSES, range: ['circle', 'cross'] }, legend: { labelLimit: 360 } };
  if (!numericX) {
    // Categories (booleans, names) have no order to draw a line through: grouped bars, one per line.
    const bars = { ...encoding, xOffset: { field: 'line', type: 'nominal', sort: order } };
    if (!lossy) return { ...base, mark: { type: 'bar' }, encoding: bars } as TopLevelSpec;
    return {
      ...base,
      encoding: bars,
      layer: [{ mark: { type: 'bar' } }, { mark: { type: 'point', filled: false, size: 70, strokeWidth: 1.5, color: 'black' }, encoding: { shape: lossShape } }],
    } as TopLevelSpec;
  }
  if (!lossy) return { ...base, mark: { type: 'line', point: true }, encoding } as TopLevelSpec;
  return {
    ...base,
    encoding,
    layer: [
      { mark: { type: 'line' } },
      {
        mark: { type: 'point', filled: false, size: 70, strokeWidth: 1.5 },
        encoding: { shape: lossShape },
      },
    ],
  } as TopLevelSpec;
}

export async function sweepFiles(
  params: readonly SweepParam[],
  outcome: SweepOutcome,
  plotMetrics: readonly (keyof PointMetrics)[],
  xUnit?: XUnit,
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  files.set('sweep.csv', sweepCsv(params, outcome.rows));
  files.set('sweep.json', canonicalJson(sweepJson(params, outcome.rows)));
  for (const m of plotMetrics) files.set(`sweep-${m}.svg`, await renderSvg(sweepPlotSpec(params, outcome.rows, m, xUnit)));
  const width = String(Math.max(0, outcome.rows.length - 1)).length;
  outcome.summaries.forEach((s, i) => {
    files.set(`points/${String(i).padStart(width, '0')}.summary.json`, canonicalJson(deterministicSummary(s)));
  });
  const hops = outcome.summaries.reduce((a, s) => a + s.sim.packet_hops, 0);
  const pointsWall = outcome.summaries.reduce((a, s) => a + s.sim.wall_s, 0);
  files.set('run.json', canonicalJson({
    // Marks the directory as dcbkit sweep's, so the next sweep may replace it (host/io.ts).
    generator: SWEEP_OUTPUT.generator,
    wall_s: outcome.wall_s,
    jobs: outcome.jobs,
    // Sum of the points' own simulation times, and that sum over the sweep's wall time: the
    // parallelism actually achieved (at most jobs; lower when cores are busy or points are short).
    points_wall_s: pointsWall,
    concurrency: outcome.wall_s > 0 ? pointsWall / outcome.wall_s : null,
    points: outcome.rows.length,
    packet_hops: hops,
    packet_hops_per_s: outcome.wall_s > 0 ? hops / outcome.wall_s : null,
    versions: toolVersions(),
  }));
  return files;
}

export async function writeSweep(
  outDir: string,
  params: readonly SweepParam[],
  outcome: SweepOutcome,
  plotMetrics: readonly (keyof PointMetrics)[],
  xUnit?: XUnit,
): Promise<string[]> {
  const files = await sweepFiles(params, outcome, plotMetrics, xUnit);
  writeTreeAtomic(outDir, files, SWEEP_OUTPUT);
  return [...files.keys()].sort();
}
