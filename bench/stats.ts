// Small statistics helpers for the benchmark report: percentiles and relative margin of error
// over pooled samples (tinybench reports per task; we pool the samples of interleaved rounds).

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function median(xs: number[]): number {
  return percentile([...xs].sort((a, b) => a - b), 0.5);
}

/** Summary of per-operation times (ns): p50, p99, mean and the 95 % relative margin of error in %. */
export interface Summary {
  ns_per_op: number;
  p99_ns: number;
  mean_ns: number;
  rme_pct: number;
  samples: number;
}

export function summarize(nsPerOp: number[]): Summary {
  const s = [...nsPerOp].sort((a, b) => a - b);
  const n = s.length;
  const mean = s.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(s.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0;
  const rme = n > 1 ? ((1.96 * sd) / Math.sqrt(n) / mean) * 100 : 0;
  const r = (x: number, d = 3) => Number(x.toFixed(d));
  return { ns_per_op: r(percentile(s, 0.5)), p99_ns: r(percentile(s, 0.99)), mean_ns: r(mean), rme_pct: r(rme, 2), samples: n };
}
