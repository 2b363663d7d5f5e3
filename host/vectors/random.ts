// `dcbkit vectors KERNEL --random N --seed S [--config CONFIG]`: a valid random stimulus of N events
// from a seed, and the coverage line that says what the vectors exercise. The generators live with
// their kernels (ets-random.ts, pfc-random.ts, qcn-cp-random.ts, qcn-rp-random.ts,
// credit-random.ts); this file holds the seeded generator they share and the line format.
//
// Rand is xorshift32 (Marsaglia 2003, "Xorshift RNGs", J. Stat. Software 8(14), the 13/17/5 triple):
// 32 bits of state, the same sequence on every machine, so a seed names a stimulus exactly.

/** xorshift32; seed 0 (a fixed point of the recurrence) is replaced by a fixed non-zero state. */
export class Rand {
  private s: number;
  constructor(seed: number) { this.s = (seed >>> 0) || 0x6d2b79f5; }
  next(): number {
    let x = this.s;
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return (this.s = x);
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number { return lo + (this.next() % (hi - lo + 1)); }
  chance(p: number): boolean { return this.next() / 2 ** 32 < p; }
  pick<T>(xs: readonly T[]): T { return xs[this.next() % xs.length]; }
  /** A frame size across 64..max: the two ends often (they are where the arithmetic turns), else uniform. */
  frame(max: number): number {
    const x = this.next() % 8;
    return x === 0 ? 64 : x === 1 ? max : this.int(64, max);
  }
}

/** The most events --random makes (a set far beyond any replay's memory is a typo). */
export const RANDOM_MAX_EVENTS = 1_000_000;

/** `coverage KERNEL seed=S events=N lines=M: name count, ...` (counts in the kernel's order). */
export function coverageLine(kernel: string, seed: number, events: number, lines: number, counts: Record<string, number>): string {
  return `coverage ${kernel} seed=${seed} events=${events} lines=${lines}: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`;
}
