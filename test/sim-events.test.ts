// The simulator's event queue (assembly/sim/events.ts: three heaps and a FIFO of in-order arrivals): each handled event is the earliest pending one by (time, key)
// whatever the mix of pushes during handling (the root replaced in place) and plain pops.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Core } from '../host/core/loader.js';

describe('event queue', () => {
  it('property: each handled event is the earliest pending by (time, key), ties and same-time pushes included', () => {
    for (const flavour of ['release', 'debug'] as const) {
      const core = new Core(flavour);
      const cap = 4096;
      const base = core.fn<(b: number) => number>('simReserve')(cap * 16 + 64);
      const rng = base + cap * 16;
      const selfTest = core.fn<(b: number, c: number, n: number, r: number) => number>('evSelfTest');
      fc.assert(fc.property(fc.integer({ min: 1, max: 0xffffffff }), fc.integer({ min: 1, max: 20000 }), (seed, n) => {
        core.i32[rng >>> 2] = seed | 0;
        expect(selfTest(base, cap, n, rng)).toBe(0);
      }), { numRuns: 40 });
    }
  });
});
