// Independent TypeScript statement of DESIGN.md §2's generator, for checking the core's draws:
// xorshift32 (13, 17, 5), per-entity seeding, and jitter(base) = (base * (55706 + r % 19661)) >> 16.
import { generateVectors } from '../host/commands/vectors.js';

export class Xorshift32 {
  constructor(public state: number) {}

  /** Entity `id` under `seed`: (seed ^ imul(id + 1, 0x9E3779B9)) >>> 0, with 0 mapped to 0x6D2B79F5. */
  static forEntity(seed: number, id: number): Xorshift32 {
    const s = (seed ^ Math.imul(id + 1, 0x9e3779b9)) >>> 0;
    return new Xorshift32(s === 0 ? 0x6d2b79f5 : s);
  }

  next(): number {
    let x = this.state;
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    this.state = x;
    return x;
  }

  jitter(base: bigint): bigint {
    return (base * BigInt(55706 + (this.next() % 19661))) >> 16n;
  }
}

export type Line = Record<string, unknown> & { type: string };

/** Vectors through the library entry point (validation included), typed loosely for assertions. */
export function vectors(kernel: 'qcn-rp' | 'qcn-cp', stimulus: unknown): Line[] {
  return generateVectors(kernel, stimulus) as Line[];
}
