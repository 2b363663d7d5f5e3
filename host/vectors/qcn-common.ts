// Stimulus building blocks shared by the qcn-rp and qcn-cp golden-vector kernels: integer fields
// with `must be a..b` rules, the per-entity seed (docs/design.md §2), time-ordering checks, and the
// exact conversion of the core's i64 state to JSON numbers.
import { z } from 'zod';
import { InputError } from '../errors/errors.js';

/** Largest event time accepted: 2^52 ps (about 75 minutes), so every deadline stays an exact JSON number. */
export const MAX_T_PS = 2 ** 52;

/** An integer in [min, max]; rule texts name the range, as in `events[12].qf: must be 0..63`. */
export function intIn(min: number, max: number) {
  const range = `must be ${min}..${max}`;
  return z
    .number({ error: `must be an integer, ${min}..${max}` })
    .int({ error: `must be an integer, ${min}..${max}` })
    .min(min, { error: range })
    .max(max, { error: range });
}

/** `seed` of the one entity (id 0) a vectors run simulates; defaults to 1. */
export const seedField = intIn(0, 2 ** 32 - 1).default(1);

/** The stimulus document every qcn vectors kernel reads: seed, params and the list of events. */
export function stimulusOf<P extends z.ZodType, E extends z.ZodType>(params: P, event: E) {
  return z.strictObject({ seed: seedField, params, events: z.array(event, { error: 'must be a list of events' }) });
}

/** Event time in picoseconds. */
export const tPsField = intIn(0, MAX_T_PS);

/** Adds an issue for every event whose t_ps is earlier than the one before it. */
export function checkTimeOrder(events: ReadonlyArray<{ t_ps?: number }>, ctx: z.RefinementCtx): void {
  let last = 0;
  events.forEach((e, i) => {
    if (e.t_ps === undefined) return;
    if (e.t_ps < last) {
      ctx.addIssue({ code: 'custom', path: ['events', i, 't_ps'], message: `must not be earlier than the previous event (${last})` });
    }
    last = e.t_ps;
  });
}

/** A state value as a JSON number, or an InputError naming the event that drove it out of range. */
export function exact(v: bigint, eventPath: string): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InputError({ path: eventPath, rule: `drives a state value beyond 2^53 (${v}); shorten the stimulus` });
  }
  return Number(v);
}

/**
 * `params` of a qcn kernel: an object whose `profile` picks its schema; a missing `profile` means
 * qau-pc, and a missing `params` means all defaults of qau-pc.
 */
export function profileParams<A extends z.ZodObject, B extends z.ZodObject>(qau: A, dcqcn: B) {
  return z
    .preprocess(
      (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && !('profile' in v) ? { ...v, profile: 'qau-pc' } : v),
      z.discriminatedUnion('profile', [qau, dcqcn], { error: 'must be qau-pc or dcqcn' }),
    )
    .prefault({});
}
