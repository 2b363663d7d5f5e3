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
import { InputError } from '../errors/errors.js';
import { quantityOfAnyKind } from '../units/grammar.js';
import { SWEEP_OUTPUT, writeTreeAtomic } from '../io/output.js';
import { toolVersions } from '../core/versions.js';
import type { TopLevelSpec } from 'vega-lite';
import { renderSvg, timeUnitFor } from './plots.js';
import { humanMetric } from './completion.js';
import { DEPRECATED_FIELDS } from '../sim/result.js';
import { canonicalJson, csvField, deterministicSummary } from './report.js';
import { DEPRECATED_METRICS, METRIC_NAMES, type PointMetrics, type SweepOutcome, type SweepParam, type SweepRow } from '../sweep/sweep.js';

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
  const { div, label } = metricScale(metric, rows.map((r) => r.metrics[metric]));
  const yTitle = label ? `${metric} (${label})` : metric;
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

/** Display scale of a metric: rates in Gb/s, times in the unit their largest value suggests, bytes in MB or kB. */
export function metricScale(metric: string, values: readonly (number | null)[]): { div: number; label: string } {
  const top = values.reduce<number>((m, v) => (v === null ? m : Math.max(m, Math.abs(v))), 0);
  if (metric.endsWith('_bps')) return { div: 1e9, label: 'Gb/s' };
  if (metric.endsWith('_ps')) {
    const tu = timeUnitFor(top * 10);
    return { div: tu.ps, label: tu.label };
  }
  if (metric.endsWith('_bytes')) return top >= 1e6 ? { div: 1e6, label: 'MB' } : top >= 1e3 ? { div: 1e3, label: 'kB' } : { div: 1, label: 'B' };
  return { div: 1, label: '' };
}

const esc = (v: string | number): string => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A point's name in charts and tables: its swept values, `flow_control.3=pfc, qcn.enable=false`. */
function pointLabel(params: readonly SweepParam[], r: SweepRow): string {
  return params.map((p) => `${p.path}=${r.params[p.path]}`).join(', ');
}

/**
 * Completion per point, one row per point: FCT median, p99 and max as grouped bars, and beside them
 * the frame bytes resent, so the price of each point's completion reads off one row.
 */
export function sweepFctSpec(params: readonly SweepParam[], rows: readonly SweepRow[]): TopLevelSpec {
  const which = [['fct_median_ps', 'median'], ['fct_p99_ps', 'p99'], ['max_fct_ps', 'max']] as const;
  const { div, label } = metricScale('fct_ps', rows.flatMap((r) => which.map(([k]) => r.metrics[k])));
  const bytes = metricScale('resent_bytes', rows.map((r) => r.metrics.retransmitted_bytes));
  const order = rows.map((r) => pointLabel(params, r));
  const fct = rows.flatMap((r) => which.flatMap(([k, name]) => {
    const v = r.metrics[k];
    return v === null ? [] : [{ point: pointLabel(params, r), which: name, fct: v / div }];
  }));
  const resent = rows.map((r) => ({ point: pointLabel(params, r), resent: r.metrics.retransmitted_bytes / bytes.div }));
  const y = { field: 'point', type: 'nominal', title: null, sort: order, axis: { labelLimit: 400 } };
  // Both panels the same height, so each point's bars sit on one row across them.
  const height = 16 + rows.length * 46;
  return {
    title: { text: 'Flow completion per point', subtitle: 'FCT median, p99 and max over the messages (shorter is better); bytes resent by go-back-N' },
    hconcat: [
      {
        width: 420, height, data: { values: fct }, mark: { type: 'bar' },
        encoding: {
          y, yOffset: { field: 'which', type: 'nominal', sort: ['median', 'p99', 'max'] },
          x: { field: 'fct', type: 'quantitative', title: `FCT (${label})` },
          color: { field: 'which', type: 'nominal', title: null, sort: ['median', 'p99', 'max'], legend: { orient: 'top' } },
        },
      },
      {
        width: 220, height, data: { values: resent }, mark: { type: 'bar', color: '#e45756' },
        encoding: { y: { ...y, axis: null }, x: { field: 'resent', type: 'quantitative', title: `resent (${bytes.label})` } },
      },
    ],
  } as TopLevelSpec;
}

/**
 * One sentence with the best and the worst point: by the longest FCT when the points' flows are
 * messages (the tail is what a job waits for), else by goodput; with what each dropped and resent.
 */
export function sweepLead(params: readonly SweepParam[], rows: readonly SweepRow[]): string {
  const fct = rows.filter((r) => r.metrics.max_fct_ps !== null);
  const key = fct.length ? (r: SweepRow) => r.metrics.max_fct_ps! : (r: SweepRow) => -r.metrics.goodput_bps;
  const ranked = [...(fct.length ? fct : rows)].sort((a, b) => key(a) - key(b) || a.index - b.index);
  if (ranked.length < 2) return '';
  const say = (r: SweepRow) => `point ${r.index} (${pointLabel(params, r)}): ${fct.length ? `FCT max ${humanMetric('max_fct_ps', r.metrics.max_fct_ps)}, median ${humanMetric('fct_median_ps', r.metrics.fct_median_ps)}` : `goodput ${humanMetric('goodput_bps', r.metrics.goodput_bps)}`}, ${humanMetric('n', r.metrics.drops_lossless + r.metrics.drops_lossy)} frames dropped, ${humanMetric('retransmitted_bytes', r.metrics.retransmitted_bytes)} resent, ${humanMetric('n', r.metrics.xoff_episodes)} pause episodes`;
  const unfinished = fct.length && fct.length < rows.length ? ` ${rows.length - fct.length} point(s) left messages unfinished.` : '';
  return `<p class="lead"><b>Best</b> ${esc(say(ranked[0]))}.<br><b>Worst</b> ${esc(say(ranked[ranked.length - 1]))}.${esc(unfinished)}</p>`;
}

/** The columns of the sweep page's table: what each point cost and what it delivered. */
export const SWEEP_TABLE: [keyof PointMetrics, string][] = [
  ['fct_median_ps', 'FCT median'], ['fct_p99_ps', 'FCT p99'], ['max_fct_ps', 'FCT max'], ['active_goodput_bps', 'goodput (active window)'],
  ['drops_lossless', 'drops lossless'], ['drops_lossy', 'drops lossy'], ['retransmitted_bytes', 'resent'], ['xoff_episodes', 'pause episodes'], ['xoff_frames', 'XOFF frames'],
];

/** One self-contained page: the completion chart (when points have messages), the table of points, the metric plots. */
export function sweepHtml(params: readonly SweepParam[], rows: readonly SweepRow[], plots: Map<string, string>, name: string): string {
  const cols = SWEEP_TABLE.map(([m]) => m);
  const head = ['#', ...params.map((p) => p.path), ...SWEEP_TABLE.map(([, label]) => label)].map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${[String(r.index), ...params.map((p) => String(r.params[p.path])), ...cols.map((c) => humanMetric(c, r.metrics[c]))]
    .map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('\n');
  const figure = (f: string) => `<figure id="${esc(f)}">\n${plots.get(f)}\n</figure>`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>dcbkit sweep: ${esc(name)}</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th{background:#f3f3f3}td{white-space:nowrap}figure{margin:1em 0}svg{max-width:100%;height:auto}.none{color:#777}
.lead{font-size:1.05em;border-left:4px solid #4c78a8;background:#f5f8fb;padding:.6em 1em;margin:1em 0}</style></head>
<body>
<h1>dcbkit sweep: ${esc(name)}</h1>
${sweepLead(params, rows)}
${plots.has('sweep-fct.svg') ? figure('sweep-fct.svg') + '\n' : ''}<h2>Points</h2>
<table id="points"><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table>
<p class="none">FCT: completion time of the messages (nearest-rank percentiles; – when a point left messages unfinished or had none). Goodput: payload delivered in order over the traffic's active window. Resent: frame bytes sent again by go-back-N. Pause episodes: XOFF sent from the not-paused state; XOFF frames include the refreshes. Every metric of every point: sweep.csv.</p>
<h2>Plots</h2>
${[...plots.keys()].filter((f) => f !== 'sweep-fct.svg').map(figure).join('\n') || '<p class="none">no plots</p>'}
</body></html>
`;
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
  const plots = new Map<string, string>();
  if (outcome.rows.some((r) => r.metrics.fct_median_ps !== null)) plots.set('sweep-fct.svg', await renderSvg(sweepFctSpec(params, outcome.rows)));
  for (const m of plotMetrics) plots.set(`sweep-${m}.svg`, await renderSvg(sweepPlotSpec(params, outcome.rows, m, xUnit)));
  for (const [f, svg] of plots) files.set(f, svg);
  files.set('report.html', sweepHtml(params, outcome.rows, plots, outcome.summaries[0]?.scenario.name ?? 'sweep'));
  const width = String(Math.max(0, outcome.rows.length - 1)).length;
  outcome.summaries.forEach((s, i) => {
    files.set(`points/${String(i).padStart(width, '0')}.summary.json`, canonicalJson(deterministicSummary(s)));
  });
  const hops = outcome.summaries.reduce((a, s) => a + s.sim.packet_hops, 0);
  const pointsWall = outcome.summaries.reduce((a, s) => a + s.sim.wall_s, 0);
  files.set('run.json', canonicalJson({
    // Marks the directory as dcbkit sweep's, so the next sweep may replace it (host/io/output.ts).
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
    // Renamed this release: old -> new; the old names stay one release in sweep.csv, sweep.json and the point summaries.
    deprecated: { note: 'old names, kept for one release: read the new ones', metrics: DEPRECATED_METRICS, summary_fields: DEPRECATED_FIELDS },
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
