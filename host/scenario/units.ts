// Quantities written with units in scenario files, converted to the integer units of docs/design.md §2:
// time -> picoseconds, size -> bytes, speed -> bit/s, cable length -> metres, by the one grammar of
// every input (host/units/grammar.ts, docs/units.md). A bare number is refused, 0 alone excepted.
import { z } from 'zod';
import { CABLE_RULE, MAX_CABLE_M } from '../units/units.js';
import { quantityCheck, type QuantityKind } from '../units/grammar.js';

function quantity(kind: QuantityKind) {
  return z.union([z.number(), z.string()]).transform((v, ctx) => {
    const { value, rule } = quantityCheck(kind, v);
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: rule! });
      return z.NEVER;
    }
    return value;
  });
}

/** Time such as `10us`, `2ms`, `0.02s`. */
export const timePs = quantity('time');
/** Size such as `12MB`, `9216B`, `64KiB`. */
export const sizeBytes = quantity('size');
/** Link speed such as `100G`, `25Gbps` or `100Gbit`. */
export const speedBps = quantity('rate');
/** Cable length such as `300m` or `2km`, 0..MAX_CABLE_M, to 1 mm. */
export const metres = quantity('length').transform((m, ctx) => {
  if (m > MAX_CABLE_M) {
    ctx.addIssue({ code: 'custom', message: `a cable length ${CABLE_RULE}` });
    return z.NEVER;
  }
  return Math.round(m * 1000) / 1000;
});

/** Picoseconds per byte at `bps` (exact for the Ethernet speeds: 800 at 10G, 80 at 100G); 0 if not integral. */
export function psPerByte(bps: number): number {
  const v = 8e12 / bps;
  return Number.isInteger(v) ? v : 0;
}
