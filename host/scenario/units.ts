// Quantities written with units in scenario files, converted to the integer units of docs/design.md §2:
// time -> picoseconds, size -> bytes, speed -> bit/s, cable length -> metres. A bare number is
// already in the base unit (ps, bytes, bit/s, m).
import { z } from 'zod';
import { CABLE_RULE, parseLength, parseRate } from '../units.js';

const TIME_PS: Record<string, number> = { ps: 1, ns: 1e3, us: 1e6, 'µs': 1e6, ms: 1e9, s: 1e12 };
const SIZE_B: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };

function quantity(table: Record<string, number>, what: string, example: string) {
  return z.union([z.number(), z.string()]).transform((v, ctx) => {
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || v < 0) ctx.addIssue({ code: 'custom', message: `${what} must be a non-negative number` });
      return Math.round(v);
    }
    const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Zµ]*)\s*$/.exec(v);
    const scale = m ? table[m[2]] : undefined;
    if (!m || scale === undefined) {
      ctx.addIssue({ code: 'custom', message: `${what} must look like ${example} (units: ${Object.keys(table).filter(Boolean).join(', ')})` });
      return z.NEVER;
    }
    return Math.round(Number(m[1]) * scale);
  });
}

/** Time such as `10us`, `2ms`, `500ns`; a bare number is ps. */
export const timePs = quantity(TIME_PS, 'a time', '10us');
/** Size such as `12MB`, `9216`, `64KiB`; a bare number is bytes. */
export const sizeBytes = quantity(SIZE_B, 'a size', '12MB');
/** Link speed such as `100G` or `25Gbps` (host/units.ts parseRate); a bare number is bit/s, a bare number written as text Gb/s. */
export const speedBps = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const bps = typeof v === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(v) ? Number(v) * 1e9 : parseRate(v);
  if (bps === undefined) {
    ctx.addIssue({ code: 'custom', message: 'a speed must look like 100G or 25Gbps' });
    return z.NEVER;
  }
  return Math.round(bps);
});
/** Cable length such as `300m` or `2km` (host/units.ts parseLength); a bare number is metres. */
export const metres = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const m = parseLength(v);
  if (m === undefined) {
    ctx.addIssue({ code: 'custom', message: `a cable length ${CABLE_RULE}` });
    return z.NEVER;
  }
  return m;
});

/** Picoseconds per byte at `bps` (exact for the Ethernet speeds: 800 at 10G, 80 at 100G); 0 if not integral. */
export function psPerByte(bps: number): number {
  const v = 8e12 / bps;
  return Number.isInteger(v) ? v : 0;
}
