// Extremes and appends over arrays of any length. `Math.max(...xs)`, `Math.min(...xs)` and
// `out.push(...xs)` pass every element as a call argument, and V8 throws "Maximum call stack size
// exceeded" at about 10^5 arguments, so data-sized arrays (series samples, files, flows) go
// through these loops instead.

/** The largest value of `xs` and `floor` (floor when xs is empty). */
export function maxOf(xs: Iterable<number>, floor = -Infinity): number {
  let m = floor;
  for (const x of xs) if (x > m) m = x;
  return m;
}

/** The smallest value of `xs` and `ceiling` (ceiling when xs is empty). */
export function minOf(xs: Iterable<number>, ceiling = Infinity): number {
  let m = ceiling;
  for (const x of xs) if (x < m) m = x;
  return m;
}

/** Appends every element of `xs` to `out` (in order) and returns `out`. */
export function appendAll<T>(out: T[], xs: Iterable<T>): T[] {
  for (const x of xs) out.push(x);
  return out;
}
