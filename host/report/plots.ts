// Plots of a simulation result, rendered headless to SVG: Vega-Lite spec -> Vega runtime -> a View
// with no renderer -> toSVG(). No browser and no canvas are involved, so the SVG text depends only
// on the data and the library versions (byte-identical for the same result).
//
// Plots: one line chart per series kind (queue per (port, TC), throughput, credit, other; one panel
// per unit), the rate limiters' current and target rate in one panel per flow, a strip of paused
// fractions (pause series: each sampling interval is a bar as opaque as the share of it that the
// priority was paused, as in Reinemo et al. 2010, Fig. 1; no chart when nothing paused), ETS measured vs
// configured share per (port, TC), and delivered throughput per flow. Flows are named `lan -> h3`.
// Series longer than MAX_POINTS are thinned for the plot only (the CSV keeps every sample) by
// keeping the minimum and the maximum of each bucket, so spikes and dips stay visible.
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { SimResult, SimSeries } from '../sim/result.js';
import { maxOf } from '../util/extent.js';
import { humanTime } from './completion.js';
import { collectGarbage } from '../util/gc.js';

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
export function thinIndices(values: ArrayLike<number>, maxPoints = MAX_POINTS): number[] {
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

/**
 * Display names of flow series entities (`flow 0` -> `lan -> h3`); the priority, then the id, are
 * added only where two flows would otherwise share a name.
 */
export function flowNames(flows: SimResult['summary']['flows']): Map<string, string> {
  const count = (key: (f: (typeof flows)[number]) => string) => {
    const n = new Map<string, number>();
    for (const f of flows) n.set(key(f), (n.get(key(f)) ?? 0) + 1);
    return (f: (typeof flows)[number]) => n.get(key(f))!;
  };
  const pair = (f: (typeof flows)[number]) => `${f.src} -> ${f.dst}`;
  const withPrio = (f: (typeof flows)[number]) => `${pair(f)} p${f.priority}`;
  const pairs = count(pair);
  const prios = count(withPrio);
  return new Map(flows.map((f) => [`flow ${f.id}`, pairs(f) === 1 ? pair(f) : prios(f) === 1 ? withPrio(f) : `${withPrio(f)} #${f.id}`]));
}

/** A series' legend label with flow entities shown by name (throughput: the flow's name alone). */
function labelWith(s: SimSeries, names: Map<string, string>): string {
  const flow = names.get(s.entity);
  if (flow === undefined) return seriesLabel(s);
  return s.kind === 'throughput' ? flow : `${flow} ${s.name.replace(` ${s.entity}`, '')}`;
}

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
    collectGarbage(); // the dataflow just dropped: the next plot's peak does not add to it (host/util/gc.ts)
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

/** Series one line panel holds: Tableau 20's distinct hues. */
const PANEL_SERIES = 20;

/** Line chart of every series of one kind; one panel per unit (and per 20 series), shared time axis [0, duration]. */
export function lineSpec(series: SimSeries[], kind: SimSeries['kind'], durationPs: number, names: Map<string, string> = new Map()): TopLevelSpec {
  const tu = timeUnitFor(durationPs);
  const units = [...new Set(series.map((s) => s.unit))];
  // One panel per unit, and per group of at most PANEL_SERIES series: past 20 lines no palette keeps
  // its colours apart, so more series go to further panels on the same scale.
  const groups = units.flatMap((unit) => {
    const all = series.filter((s) => s.unit === unit);
    let maxAbs = 0;
    for (const s of all) for (const v of s.values) if (Math.abs(v) > maxAbs) maxAbs = Math.abs(v); // no copy of a long series
    const out: { unit: string; inUnit: SimSeries[]; maxAbs: number }[] = [];
    for (let i = 0; i < all.length; i += PANEL_SERIES) out.push({ unit, inUnit: all.slice(i, i + PANEL_SERIES), maxAbs });
    return out;
  });
  const panels = groups.map(({ unit, inUnit, maxAbs }) => {
    const sc = displayScale(unit, maxAbs);
    const rows: { t: number; v: number; s: string }[] = [];
    for (const s of inUnit) {
      const label = labelWith(s, names);
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
        color: { field: 's', type: 'nominal' as const, title: 'series', sort: null, legend: { labelLimit: 360 }, scale: { scheme: inUnit.length > 10 ? 'tableau20' : 'tableau10' } },
      },
    };
  });
  const title = KIND_TITLES[kind];
  if (panels.length === 1) return { title, ...panels[0] } as TopLevelSpec;
  return { title, vconcat: panels, resolve: { scale: { color: 'independent' } } } as TopLevelSpec;
}

/**
 * Rate limiters: one panel per flow (facet rows), its current and its target rate as two lines,
 * so fast recovery halving towards TR and TR climbing read per flow (Reinemo et al. 2010, Figure 3).
 */
export function rateSpec(series: SimSeries[], durationPs: number, names: Map<string, string>): TopLevelSpec {
  const tu = timeUnitFor(durationPs);
  let maxAbs = 0;
  for (const s of series) maxAbs = maxOf(s.values, maxAbs);
  const sc = displayScale(series[0].unit, maxAbs);
  const order = [...new Set(series.map((s) => names.get(s.entity) ?? s.entity))];
  const rows: { t: number; v: number; flow: string; which: string }[] = [];
  for (const s of series) {
    const flow = names.get(s.entity) ?? s.entity;
    const which = s.name.startsWith('target') ? 'target rate' : 'current rate';
    for (const i of thinIndices(s.values)) rows.push({ t: s.t_ps[i] / tu.ps, v: s.values[i] / sc.div, flow, which });
  }
  return {
    title: KIND_TITLES.rate,
    data: { values: rows },
    facet: { row: { field: 'flow', type: 'nominal', title: null, sort: order, header: { labelAngle: 0, labelAlign: 'left', labelLimit: 200 } } },
    spec: {
      width: WIDTH,
      height: 90,
      mark: { type: 'line', strokeWidth: 1.25 },
      encoding: {
        x: { field: 't', type: 'quantitative', title: `time (${tu.label})`, scale: { domain: [0, durationPs / tu.ps] } },
        y: { field: 'v', type: 'quantitative', title: sc.label },
        color: { field: 'which', type: 'nominal', title: null, sort: ['current rate', 'target rate'] },
        strokeDash: { field: 'which', type: 'nominal', title: null, sort: ['current rate', 'target rate'] },
      },
    },
  } as TopLevelSpec;
}

/**
 * Paused share per sampling interval as bars [t0, t1] with the percentage: sample i covers the
 * interval ending at t_ps[i]. Neighbours with the same share merge (a priority held for 5 ms is one
 * bar); past MAX_POINTS bars, equal time buckets carry the time-weighted mean share instead.
 */
export function pauseBars(s: SimSeries, samplePs: number, maxBars = MAX_POINTS): { t0: number; t1: number; pct: number }[] {
  const bars: { t0: number; t1: number; pct: number }[] = [];
  for (let i = 0; i < s.t_ps.length; i++) {
    const t0 = i > 0 ? s.t_ps[i - 1] : Math.max(0, s.t_ps[0] - samplePs);
    const last = bars[bars.length - 1];
    if (s.values[i] <= 0) continue;
    if (last && last.t1 === t0 && last.pct === s.values[i]) last.t1 = s.t_ps[i];
    else bars.push({ t0, t1: s.t_ps[i], pct: s.values[i] });
  }
  if (bars.length <= maxBars) return bars;
  const end = s.t_ps[s.t_ps.length - 1];
  const width = end / maxBars;
  const paused = new Array<number>(maxBars).fill(0);
  for (const b of bars) {
    // Spread each bar's paused time over the buckets it overlaps.
    for (let k = Math.floor(b.t0 / width); k < maxBars && k * width < b.t1; k++) {
      const overlap = Math.min(b.t1, (k + 1) * width) - Math.max(b.t0, k * width);
      if (overlap > 0) paused[k] += (overlap * b.pct) / 100;
    }
  }
  return paused.flatMap((p, k) => (p > 0 ? [{ t0: k * width, t1: (k + 1) * width, pct: Math.round((1e5 * p) / width) / 1e3 }] : []));
}

/** Row label of a pause series in the Gantt strip: `port p3` for a per-priority series. */
export function pauseLabel(s: SimSeries): string {
  return s.priority === undefined ? seriesLabel(s) : `${s.entity} p${s.priority}`;
}

/** Fixed colour per priority 0..7 (Tableau 10), so a priority looks the same in every report. */
const PRIORITY_COLOURS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f'];

/**
 * Pause strip: one row per (port, priority) pause series, a bar per sampling interval (merged
 * while equal) coloured by priority and as opaque as the share of the interval it was paused.
 */
export function pauseSpec(series: SimSeries[], durationPs: number, samplePs: number): TopLevelSpec {
  const tu = timeUnitFor(durationPs);
  const labels = series.map(pauseLabel);
  const prioName = (s: SimSeries) => (s.priority === undefined ? 'port' : `priority ${s.priority}`);
  const rows = series.flatMap((s) =>
    pauseBars(s, samplePs).map((b) => ({ s: pauseLabel(s), p: prioName(s), t0: b.t0 / tu.ps, t1: b.t1 / tu.ps, pct: b.pct })),
  );
  const domain = [...new Set(series.map(prioName))];
  const range = domain.map((n) => (n === 'port' ? '#d62728' : PRIORITY_COLOURS[Number(n.slice(9))]));
  return {
    title: { text: KIND_TITLES.pause, subtitle: 'a bar per sampling interval, as opaque as the share of it the priority was paused (faint: a few %, solid: all of it)' },
    width: WIDTH,
    height: { step: 18 },
    data: { values: rows },
    mark: { type: 'bar' },
    encoding: {
      x: { field: 't0', type: 'quantitative', title: `time (${tu.label})`, scale: { domain: [0, durationPs / tu.ps] } },
      x2: { field: 't1' },
      y: { field: 's', type: 'nominal', title: null, sort: labels, scale: { domain: labels }, axis: { labelLimit: 360 } },
      color: { field: 'p', type: 'nominal', title: null, sort: domain, scale: { domain, range } },
      // The opacity says how much of its interval a bar was paused; a grey opacity legend beside
      // coloured bars read as another series, so the title says it instead.
      opacity: { field: 'pct', type: 'quantitative', legend: null, scale: { domain: [0, 100], range: [0.08, 1] } },
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
  const names = flowNames(flows);
  const rows = flows.map((f) => ({
    flow: names.get(`flow ${f.id}`)!,
    v: f.throughput_bps / sc.div,
    role: f.victim ? 'victim' : 'flow',
  }));
  return {
    title: 'Goodput per flow over its window (start to completion, stop or the end of the run)',
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

/**
 * Flow completion: each finished sized flow's slowdown (its FCT over the FCT it would have alone on
 * its path), labelled with the FCT; flows that retransmitted (roce go-back-N) in another colour.
 */
export function fctSpec(flows: SimResult['summary']['flows']): TopLevelSpec {
  const names = flowNames(flows);
  const rows = flows.filter((f) => f.fct_ps !== null && f.slowdown != null).sort((a, b) => b.slowdown! - a.slowdown! || a.id - b.id).map((f) => ({
    flow: names.get(`flow ${f.id}`)!,
    slowdown: f.slowdown,
    fct: humanTime(f.fct_ps!),
    recovery: (f.retransmitted_bytes ?? 0) > 0 ? 'retransmitted' : 'no retransmission',
  }));
  return {
    title: 'Flow completion per message, slowest first: slowdown (FCT / FCT alone on its path), FCT at the bar',
    width: WIDTH,
    height: { step: 16 },
    data: { values: rows },
    layer: [
      {
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'flow', type: 'nominal', title: null, sort: null, axis: { labelLimit: 360 } },
          x: { field: 'slowdown', type: 'quantitative', title: 'slowdown (1 = alone on its path)', scale: { zero: true } },
          color: {
            field: 'recovery', type: 'nominal', title: null,
            scale: { domain: ['no retransmission', 'retransmitted'], range: ['#4c78a8', '#e45756'] },
            legend: { orient: 'top' },
          },
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 3, fontSize: 10 },
        encoding: {
          y: { field: 'flow', type: 'nominal', sort: null },
          x: { field: 'slowdown', type: 'quantitative' },
          text: { field: 'fct' },
        },
      },
    ],
  } as TopLevelSpec;
}

export const SERIES_KINDS: SimSeries['kind'][] = ['queue', 'rate', 'pause', 'throughput', 'credit', 'other'];

/** Every plot the result has data for, as file name -> SVG text, in a fixed order. */
/**
 * A time-axis chart with a dashed vertical rule at `tPs` and its label on top: one layer over each
 * panel, sharing the panel's x scale (the deadlock the simulator detected, docs/deadlock.md).
 */
export function markTime(spec: TopLevelSpec, tPs: number, label: string, durationPs: number): TopLevelSpec {
  const x = tPs / timeUnitFor(durationPs).ps;
  const layered = (panel: Record<string, unknown>) => {
    const { width, height, title, ...chart } = panel;
    return {
      ...(title === undefined ? {} : { title }), width, height,
      layer: [
        chart,
        { data: { values: [{ t: x }] }, mark: { type: 'rule', color: '#d62728', strokeDash: [5, 3], strokeWidth: 1.5 }, encoding: { x: { field: 't', type: 'quantitative' } } },
        { data: { values: [{ t: x, l: label }] }, mark: { type: 'text', align: 'left', dx: 4, dy: 6, baseline: 'top', color: '#d62728', fontSize: 10 }, encoding: { x: { field: 't', type: 'quantitative' }, y: { value: 0 }, text: { field: 'l' } } },
      ],
    };
  };
  const s = spec as unknown as Record<string, unknown>;
  if (Array.isArray(s.vconcat)) return { ...s, vconcat: (s.vconcat as Record<string, unknown>[]).map(layered) } as unknown as TopLevelSpec;
  return layered(s) as unknown as TopLevelSpec;
}

/**
 * Where the time axes end: the traffic's active window (the last delivery, the last sample at which
 * any queue, pause or throughput series was non-zero, a deadlock or watchdog event) plus a margin of
 * 5 % (at least one sample); the whole run when that is most of it anyway. A 20 ms run whose
 * incast is over at 2.3 ms gets axes to about 2.4 ms instead of a flat line for 18 ms.
 */
export function plotWindow(result: SimResult): { endPs: number } {
  const s = result.summary;
  const d = s.scenario.duration_ps;
  let last = s.throughput?.active_to_ps ?? d;
  for (const x of result.series) {
    if (x.kind !== 'queue' && x.kind !== 'pause' && x.kind !== 'throughput') continue;
    for (let i = x.values.length - 1; i >= 0 && x.t_ps[i] > last; i--) {
      if (x.values[i] !== 0) { last = x.t_ps[i]; break; }
    }
  }
  if (s.deadlock) last = Math.max(last, s.deadlock.detected_at_ps);
  for (const w of s.watchdog) last = Math.max(last, w.t_ps);
  const end = Math.min(d, last + Math.max(s.scenario.sample_ps, Math.ceil(last / 20)));
  return { endPs: end <= 0 || end >= 0.8 * d ? d : end };
}

/** The series cut at `endPs` (the first sample past it kept, so a line reaches the axis end). */
function clipTo(series: SimSeries[], endPs: number): SimSeries[] {
  return series.map((x) => {
    let n = x.t_ps.length;
    while (n > 1 && x.t_ps[n - 2] >= endPs) n--;
    return n === x.t_ps.length ? x : { ...x, t_ps: x.t_ps.slice(0, n), values: x.values.slice(0, n) };
  });
}

/**
 * The distribution of completion over the messages: the share of messages done by each FCT, and by
 * each slowdown, as two step curves side by side.
 */
export function fctCdfSpec(flows: SimResult['summary']['flows']): TopLevelSpec {
  const done = flows.filter((f) => f.fct_ps !== null);
  const n = flows.filter((f) => (f.ideal_fct_ps !== undefined ? f.ideal_fct_ps !== null : f.fct_ps !== null)).length || done.length;
  const fcts = done.map((f) => f.fct_ps!).sort((a, b) => a - b);
  const unit = timeUnitFor(fcts.length ? fcts[fcts.length - 1] * 10 : 1e9);
  const slow = done.flatMap((f) => (typeof f.slowdown === 'number' ? [f.slowdown] : [])).sort((a, b) => a - b);
  const cdf = (xs: number[]) => [{ x: 0, share: 0 }, ...xs.map((x, i) => ({ x, share: (100 * (i + 1)) / n }))];
  const panel = (values: { x: number; share: number }[], title: string) => ({
    width: 340, height: 200, data: { values },
    mark: { type: 'line', interpolate: 'step-after', point: true, strokeWidth: 1.5 },
    encoding: {
      x: { field: 'x', type: 'quantitative', title },
      y: { field: 'share', type: 'quantitative', title: 'messages completed (%)', scale: { domain: [0, 100] } },
    },
  });
  return {
    title: { text: 'Flow completion: CDF over the messages', subtitle: `${done.length} of ${n} messages completed; a curve that stops below 100 % left messages unfinished` },
    hconcat: [
      panel(cdf(fcts.map((t) => t / unit.ps)), `FCT (${unit.label})`),
      panel(cdf(slow), 'slowdown (FCT / FCT alone on its path)'),
    ],
  } as TopLevelSpec;
}

export async function renderPlots(result: SimResult): Promise<Map<string, string>> {
  const axisEnd = plotWindow(result).endPs;
  const out = new Map<string, string>();
  const names = flowNames(result.summary.flows);
  for (const kind of SERIES_KINDS) {
    let ss = result.series.filter((s) => s.kind === kind);
    // Queues: the per-(port, TC) series when the run has them (the port totals stay in the CSV).
    if (kind === 'queue' && ss.some((s) => s.tc !== undefined)) ss = ss.filter((s) => s.tc !== undefined);
    // A pause chart where nothing paused would be an empty frame: the report says so in words.
    if (kind === 'pause' && !ss.some((s) => s.values.some((v) => v > 0))) continue;
    if (ss.length === 0) continue;
    ss = clipTo(ss, axisEnd);
    let spec = kind === 'pause' ? pauseSpec(ss, axisEnd, result.summary.scenario.sample_ps)
      : kind === 'rate' ? rateSpec(ss, axisEnd, names)
        : lineSpec(ss, kind, axisEnd, names);
    const dl = result.summary.deadlock;
    if (dl && kind !== 'rate') spec = markTime(spec, dl.detected_at_ps, `deadlock detected, priority ${dl.priority}`, axisEnd);
    out.set(`${kind}.svg`, await renderSvg(spec));
  }
  if (result.summary.ets.per_tc.length > 0) out.set('ets.svg', await renderSvg(etsSpec(result.summary.ets.per_tc)));
  if (result.summary.flows.length > 0) out.set('flows.svg', await renderSvg(flowsSpec(result.summary.flows)));
  if (result.summary.flows.some((f) => f.fct_ps !== null && f.slowdown != null)) {
    out.set('fct.svg', await renderSvg(fctSpec(result.summary.flows)));
    out.set('fct-cdf.svg', await renderSvg(fctCdfSpec(result.summary.flows)));
  }
  return out;
}
