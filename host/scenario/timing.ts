// Fabric timing of a scenario (docs/sim.md, "Timing"): the range of every port's transmit clock
// offset and each switch's forwarding latency and jitter, with defaults from the standard and from
// a published switch figure; `timing: ideal` gives exact nominal timing (no offsets, no latency).
import { z } from 'zod';
import { timePs } from './units.js';

/**
 * IEEE 802.3 lets a PHY's transmit signalling rate deviate from nominal by up to +-100 ppm: e.g.
 * 10GBASE-SR/LR (clause 52, 10.3125 GBd +- 100 ppm), 25GBASE-SR (clause 112) and 100GBASE-CR4 /
 * 100GBASE-SR4 (clauses 92 and 95, 25.78125 GBd +- 100 ppm per lane).
 */
export const CLOCK_PPM_DEFAULT = 100;
/**
 * Port-to-port latency of a data-centre switch ASIC: 300 ns, the figure NVIDIA (Mellanox) publishes
 * for the Spectrum SN2000 series at 100GbE (SN2700 product brief), Spectrum-2 the same.
 */
export const SWITCH_LATENCY_DEFAULT_PS = 300_000;
/** No vendor publishes the spread of that latency: jitter is 0 unless a scenario gives it. */
export const SWITCH_JITTER_DEFAULT_PS = 0;
/** Largest accepted clock range, ppm (ten times what 802.3 allows; larger is not an Ethernet clock). */
export const CLOCK_PPM_MAX = 1000;
/** Largest accepted latency or jitter: it is held in 32 bits of ps (2.1 ms). */
export const SWITCH_LATENCY_MAX_PS = 0x7fff_ffff;

const latency = timePs.refine((v) => v <= SWITCH_LATENCY_MAX_PS, 'a switch latency is at most 2ms');

/** Per switch: its forwarding latency and jitter (`switches[].latency`, `switches[].latency_jitter`). */
export const switchTimingShape = {
  /** Time from a frame's last bit in to its forwarding decision (pipeline latency); default timing.switch_latency. */
  latency: latency.optional(),
  /** Each frame adds a uniform draw in [0, latency_jitter) from its receiving port's stream; default timing.switch_latency_jitter. */
  latency_jitter: latency.optional(),
};

/** `timing`: `ideal`, `real` (the defaults), or the parameters. */
export const timingSchema = z.union([
  z.enum(['ideal', 'real']),
  z.strictObject({
    /** Each port's transmit clock offset is uniform in [-clock_ppm, +clock_ppm] ppm (default 100). */
    clock_ppm: z.number().min(0, 'clock_ppm is 0 to 1000').max(CLOCK_PPM_MAX, 'clock_ppm is 0 to 1000').optional(),
    /** Every switch's latency unless it gives its own (default 300ns). */
    switch_latency: latency.optional(),
    /** Every switch's latency jitter unless it gives its own (default 0). */
    switch_latency_jitter: latency.optional(),
  }),
], { error: 'timing is ideal, real, or {clock_ppm, switch_latency, switch_latency_jitter}' }).default('real');

export type TimingInput = z.output<typeof timingSchema>;

/** The scenario's timing, normalised: the clock range in parts per 10^9 and the switches' defaults. */
export interface NormTiming { ideal: boolean; clockPpb: number; latency_ps: number; latency_jitter_ps: number }

export function normTiming(t: TimingInput): NormTiming {
  if (t === 'ideal') return { ideal: true, clockPpb: 0, latency_ps: 0, latency_jitter_ps: 0 };
  const o = t === 'real' ? {} : t;
  return {
    ideal: false,
    clockPpb: Math.round((o.clock_ppm ?? CLOCK_PPM_DEFAULT) * 1000),
    latency_ps: o.switch_latency ?? SWITCH_LATENCY_DEFAULT_PS,
    latency_jitter_ps: o.switch_latency_jitter ?? SWITCH_JITTER_DEFAULT_PS,
  };
}

/** A switch's own latency and jitter, else the scenario's. */
export function switchTiming(t: NormTiming, w: { latency?: number; latency_jitter?: number }): { latency_ps: number; latency_jitter_ps: number } {
  return { latency_ps: w.latency ?? t.latency_ps, latency_jitter_ps: w.latency_jitter ?? t.latency_jitter_ps };
}
