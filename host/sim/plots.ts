// Plots of a simulation result, rendered headless to SVG: Vega-Lite spec -> Vega runtime -> a View
// with no renderer -> toSVG(). No browser and no canvas are involved, so the SVG text depends only
// on the data and the library versions (byte-identical for the same result).
//
// Plots: one line chart per series kind (queue, rate, throughput, credit, other; one panel per
// unit), a Gantt strip of paused intervals (pause series, a sample > 0 = paused during the
// interval it ends, as in seed 000 Fig. 1), ETS measured vs configured share per (port, TC), and delivered throughput per flow.
// Series longer than MAX_POINTS are thinned for the plot only (the CSV keeps every sample) by
// keeping the minimum and the maximum of each bucket, so spikes and dips stay visible.
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { SimResult, SimSeries } from './result.js';
import { maxOf } from '../extent.js';

export const MAX_POINTS = 2000;
const WIDTH = 720;
const HEIGHT = 220;

/** A time unit for the x axis chosen from the simulated duration: ns, µs, ms or s. */
export interface TimeUnit { label: string; ps: number }

export function timeUnitFor(durationPs: number): TimeUnit {
  if (durationPs < 1e6) return { label: 'ns', ps: 1e3 };
  if (durationPs < 1e9) return { label: 'µs', ps: 1e6 };
  if (durationPs < 1e12) return { label: 'ms', ps: 1e9 };
  return { label: 's', ps: 1e12 };
}

/** A display scale for a unit: bit/s become Gb/s or Mb/s, bytes become KB or MB (decimal). */
export function displayScale(unit: string, maxAbs: number): { label: string; div: number } {
  const u = unit.trim();
  if (/^(bit\/s|bps|b\/s)$/i.test(u)) {
    if (maxAbs >= 1e9) return { label: 'Gb/s', div: 1e9 };
    if (maxAbs >= 1e6) return { label: 'Mb/s', div: 1e6 };
    return { label: 'bit/s', div: 1 };
  }
  if (/^(B|bytes?)$/.test(u)) {
    if (maxAbs >= 1e6) return { label: 'MB', div: 1e6 };
    if (maxAbs >= 1e4) return { label: 'KB', div: 1e3 };
    return { label: 'B', div: 1 };
  }
  if (/^ps$/.test(u) && maxAbs >= 1e6) return { label: 'µs', div: 1e6 };
  return { label: u, div: 1 };
}

/** Indices of the samples kept for plotting: all when short, else the min and max of each bucket. */
export function thinIndices(values: readonly number[], maxPoints = MAX_POINTS): number[] {
  const n = values.length;
  if (n <= maxPoints) return Array.from({ length: n }, (_, i) => i);
  // First and last sample, plus the min and max of each bucket: at most max(maxPoints, 4) indices.
  const buckets = Math.max(1, Math.floor((maxPoints - 2) / 2));
  const keep: number[] = [0];
  const push = (i: number) => { if (i > keep[keep.length - 1]) keep.push(i); };
  for (let b = 0; b < buckets; b++) {
    const lo = Math.floor((b * n) / buckets);
    const hi = Math.floor(((b + 1) * n) / buckets);
    let iMin = lo;
    let iMax = lo;
    for (let i = lo + 1; i < hi; i++) {
      if (values[i] < values[iMin]) iMin = i;
      if (values[i] > values[iMax]) iMax = i;
    }
    push(Math.min(iMin, iMax));
    push(Math.max(iMin, iMax));
  }
  push(n - 1);
  return keep;
}

/** The legend label: the name, prefixed by the entity unless the name already mentions it. */
export function seriesLabel(s: SimSeries): string {
  return s.entity && !s.name.includes(s.entity) ? `${s.entity} ${s.name}` : s.name;
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const KIND_TITLES: Record<SimSeries['kind'], string> = {
  queue: 'Queue occupancy',
  rate: 'Rate-limiter rates',
  pause: 'Paused intervals',
  throughput: 'Throughput',
  credit: 'Credits',
  other: 'Other series',
};

/** Line chart of every series of one kind; one panel per unit, shared time axis [0, duration]. */
export function lineSpec(series: SimSeries[], kind: SimSeries['kind'], durationPs: number): TopLevelSpec {
  const tu = timeUnitFor(durationPs);
  const units = [...new Set(series.map((s) => s.unit))];
  const panels = units.map((unit) => {
    const inUnit = series.filter((s) => s.unit === unit);
    let maxAbs = 0;
    for (const s of inUnit) maxAbs = maxOf(s.values.map(Math.abs), maxAbs);
    const sc = displayScale(unit, maxAbs);
    const rows: { t: number; v: number; s: string }[] = [];
    for (const s of inUnit) {
      const label = seriesLabel(s);
      for (const i of thinIndices(s.values)) rows.push({ t: s.t_ps[i] / tu.ps, v: s.values[i] / sc.div, s: label });
    }
    return {
      width: WIDTH,
      height: HEIGHT,
      data: { values: rows },
      // Throughput samples are averages over the interval ending at t (result.ts), so they draw as
      // steps ending at t; queues, rates and counters are instantaneous and draw as straight lines.
      mark: { type: 'line' as const, interpolate: kind === 'throughput' ? ('step-before' as const) : ('linear' as const), strokeWidth: 1.25 },
      encoding: {
        x: { field: 't', type: 'quantitative' as const, title: `time (${tu.label})`, scale: { domain: [0, durationPs / tu.ps] } },
        y: { field: 'v', type: 'quantitative' as const, title: sc.label },
        color: { field: 's', type: 'nominal' as const, title: 'series', sort: null, legend: { labelLimit: 360 } },
      },
    };
  });
  const title = KIND_TITLES[kind];
  if (panels.length === 1) return { title, ...panels[0] } as TopLevelSpec;
  return { title, vconcat: panels, resolve: { scale: { color: 'independent' } } } as TopLevelSpec;
}

/**
 * Paused intervals of a pause series, merged: sample i covers the interval ending at t_ps[i] and
 * starting at the previous sample (or t_ps[0] - samplePs), and counts as paused when its value > 0.
 */
export function pauseIntervals(s: SimSeries, samplePs: number): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  let end = -1;
  for (let i = 0; i < s.t_ps.length; i++) {
    const from = i > 0 ? s.t_ps[i - 1] : Math.max(0, s.t_ps[0] - samplePs);
    if (s.values[i] > 0) {
      if (start < 0) start = from;
      end = s.t_ps[i];
    } else if (start >= 0) {
      out.push([start, end]);
      start = -1;
    }
  }
  if (start >= 0) out.push([start, end]);
  return out;
}

/** Row label of a pause series in the Gantt strip: `port p3` for a per-priority series. */
export function pauseLabel(s: SimSeries): string {
  return s.priority === undefined ? seriesLabel(s) : `${s.entity} p${s.priority}`;
}

/** Fixed colour per priority 0..7 (Tableau 10), so a priority looks the same in every report. */
const PRIORITY_COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f'];

/**
 * Gantt strip: one row per (port, priority) pause series, a bar where that priority of that port
 * was paused during part of a sampling interval, coloured by priority.
 */
export function pauseSpec(series: SimSeries[], durationPs: number, samplePs: number): TopLevelSpec {
  const tu = timeUnitFor(durationPs);
  const labels = series.map(pauseLabel);
  const prioName = (s: SimSeries) => (s.priority === undefined ? 'port' : `priority ${s.priority}`);
  const rows = series.flatMap((s) =>
    pauseIntervals(s, samplePs).map(([a, b]) => ({ s: pauseLabel(s), p: prioName(s), t0: a / tu.ps, t1: b / tu.ps })),
  );
  const domain = [...new Set(series.map(prioName))];
  const range = domain.map((n) => (n === 'port' ? '#d62728' : PRIORITY_COLOURS[Number(n.slice(9))]));
  return {
    title: KIND_TITLES.pause,
    width: WIDTH,
    height: { step: 18 },
    data: { values: rows },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 't0', type: 'quantitative', title: `time (${tu.label})`, scale: { domain: [0, durationPs / tu.ps] } },
      x2: { field: 't1' },
      y: { field: 's', type: 'nominal', title: null, sort: labels, scale: { domain: labels }, axis: { labelLimit: 360 } },
      color: { field: 'p', type: 'nominal', title: null, sort: domain, scale: { domain, range } },
    },
  } as TopLevelSpec;
}

export function etsSpec(perTc: SimResult['summary']['ets']['per_tc']): TopLevelSpec {
  const rows = perTc.flatMap((r) => [
    { tc: `${r.port} TC${r.tc}`, which: 'configured', pct: r.configured_pct },
    { tc: `${r.port} TC${r.tc}`, which: 'measured', pct: r.measured_pct },
  ]);
  return {
    title: 'ETS share per traffic class: configured vs measured',
    width: { step: 36 },
    height: HEIGHT,
    data: { values: rows },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 'tc', type: 'nominal', title: null, sort: null, axis: { labelAngle: -40 } },
      xOffset: { field: 'which', type: 'nominal', sort: ['configured', 'measured'] },
      y: { field: 'pct', type: 'quantitative', title: 'share of the link (%)' },
      color: { field: 'which', type: 'nominal', title: null, sort: ['configured', 'measured'] },
    },
  } as TopLevelSpec;
}

export function flowsSpec(flows: SimResult['summary']['flows']): TopLevelSpec {
  const maxBps = maxOf(flows.map((f) => f.throughput_bps), 0);
  const sc = displayScale('bit/s', maxBps);
  const rows = flows.map((f) => ({
    flow: `#${f.id} ${f.src}->${f.dst} p${f.priority}`,
    v: f.throughput_bps / sc.div,
    role: f.victim ? 'victim' : 'flow',
  }));
  return {
    title: 'Delivered throughput per flow',
    width: WIDTH,
    height: { step: 16 },
    data: { values: rows },
    mark: { type: 'bar' },
    encoding: {
      y: { field: 'flow', type: 'nominal', title: null, sort: null, axis: { labelLimit: 360 } },
      x: { field: 'v', type: 'quantitative', title: sc.label },
      color: { field: 'role', type: 'nominal', title: null, sort: ['flow', 'victim'], scale: { domain: ['flow', 'victim'], range: ['#4c78a8', '#e45756'] } },
    },
  } as TopLevelSpec;
}

export const SERIES_KINDS: SimSeries['kind'][] = ['queue', 'rate', 'pause', 'throughput', 'credit', 'other'];

/** Every plot the result has data for, as file name -> SVG text, in a fixed order. */
export async function renderPlots(result: SimResult): Promise<Map<string, string>> {
  const duration = result.summary.scenario.duration_ps;
  const out = new Map<string, string>();
  for (const kind of SERIES_KINDS) {
    const ss = result.series.filter((s) => s.kind === kind);
    if (ss.length === 0) continue;
    const spec = kind === 'pause' ? pauseSpec(ss, duration, result.summary.scenario.sample_ps) : lineSpec(ss, kind, duration);
    out.set(`${kind}.svg`, await renderSvg(spec));
  }
  if (result.summary.ets.per_tc.length > 0) out.set('ets.svg', await renderSvg(etsSpec(result.summary.ets.per_tc)));
  if (result.summary.flows.length > 0) out.set('flows.svg', await renderSvg(flowsSpec(result.summary.flows)));
  return out;
}
