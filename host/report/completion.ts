// Completion figures of message flows and the human units every report prints.
//
// Percentiles are nearest-rank (the value at rank ceil(q * n) of the n sorted values, so p99 of
// eight flows is the largest): every figure printed is one a flow actually had, never an
// interpolation between two flows. Units are SI and decimal (1 MB = 10^6 B, 1 Gb/s = 10^9 bit/s),
// as link rates are quoted; times pick ps, ns, us, ms or s by magnitude.
import type { SimFlowResult } from '../sim/result.js';

/** Nearest-rank percentile of `xs` (need not be sorted), q in (0, 1]; null for no values. */
export function percentile(xs: readonly number[], q: number): number | null {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1];
}

/** Whether a flow is a message (has a size, so it can complete); older summaries lack ideal_fct_ps. */
export function isMessage(f: SimFlowResult): boolean {
  return f.ideal_fct_ps !== undefined ? f.ideal_fct_ps !== null : f.fct_ps !== null;
}

export interface Completion {
  /** Message flows, and how many of them completed within the run. */
  messages: number;
  finished: number;
  /** Over the completed messages, ps; null when none completed. */
  fct_median_ps: number | null;
  fct_p99_ps: number | null;
  fct_max_ps: number | null;
  fct_mean_ps: number | null;
  slowdown_median: number | null;
  slowdown_p99: number | null;
}

export function completion(flows: readonly SimFlowResult[]): Completion {
  const msgs = flows.filter(isMessage);
  const fcts = msgs.flatMap((f) => (f.fct_ps === null ? [] : [f.fct_ps]));
  const slow = msgs.flatMap((f) => (typeof f.slowdown === 'number' ? [f.slowdown] : []));
  return {
    messages: msgs.length,
    finished: fcts.length,
    fct_median_ps: percentile(fcts, 0.5),
    fct_p99_ps: percentile(fcts, 0.99),
    fct_max_ps: percentile(fcts, 1),
    fct_mean_ps: fcts.length ? Math.round(fcts.reduce((a, b) => a + b, 0) / fcts.length) : null,
    slowdown_median: percentile(slow, 0.5),
    slowdown_p99: percentile(slow, 0.99),
  };
}

const sig = (x: number): string => String(Number(x.toPrecision(4)));

/** A duration in the unit its size suggests: `2.291 ms`, `840 ns`. */
export function humanTime(ps: number): string {
  const a = Math.abs(ps);
  if (a >= 1e12) return `${sig(ps / 1e12)} s`;
  if (a >= 1e9) return `${sig(ps / 1e9)} ms`;
  if (a >= 1e6) return `${sig(ps / 1e6)} µs`;
  if (a >= 1e3) return `${sig(ps / 1e3)} ns`;
  return `${sig(ps)} ps`;
}

/** Bytes in decimal units: `28.6 MB`, `512 B`. */
export function humanBytes(b: number): string {
  const a = Math.abs(b);
  if (a >= 1e9) return `${sig(b / 1e9)} GB`;
  if (a >= 1e6) return `${sig(b / 1e6)} MB`;
  if (a >= 1e3) return `${sig(b / 1e3)} kB`;
  return `${sig(b)} B`;
}

/** A rate: `97.9 Gb/s`, `640 Mb/s`. */
export function humanRate(bps: number): string {
  const a = Math.abs(bps);
  if (a >= 1e9) return `${sig(bps / 1e9)} Gb/s`;
  if (a >= 1e6) return `${sig(bps / 1e6)} Mb/s`;
  if (a >= 1e3) return `${sig(bps / 1e3)} kb/s`;
  return `${sig(bps)} bit/s`;
}

/**
 * How a metric of the given name is shown: `_ps` as a time, `_bps` as a rate, `_bytes` in bytes,
 * anything else as a number with up to four significant digits; null as a dash.
 */
export function humanMetric(name: string, v: number | null): string {
  if (v === null) return '–';
  if (name.endsWith('_ps')) return humanTime(v);
  if (name.endsWith('_bps')) return humanRate(v);
  if (name.endsWith('_bytes')) return humanBytes(v);
  return Number.isInteger(v) ? grouped(v) : sig(v);
}

/** An integer with digit grouping (`12,345,678`), written out so no locale data is involved. */
export function grouped(n: number): string {
  return Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : String(n);
}
