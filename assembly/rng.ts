// docs/design.md §2 — per-entity xorshift32 (shifts 13, 17, 5) and the ±15 % uniform jitter used by
// the QCN sampler (802.1Qau CP) and the reaction point's byte counter and timer reloads.
//
// State: one u32 word per entity, stored wherever the entity's record puts it (the caller passes
// the address). Invariant: the word is never 0 (xorshift32's fixed point); seeding maps 0 to
// 0x6D2B79F5 so that a zero can never be produced later either.

/** Initial state for entity `id` under `seed`: s = (seed ^ imul(id + 1, 0x9E3779B9)) >>> 0, 0 -> 0x6D2B79F5. */
@inline
export function rngSeed(seed: u32, id: u32): u32 {
  const s = seed ^ <u32>((id + 1) * 0x9E3779B9);
  return s == 0 ? 0x6D2B79F5 : s;
}

/** Advances the xorshift32 state stored at `statePtr` and returns the new value. */
@inline
export function rngNext(statePtr: usize): u32 {
  let x = load<u32>(statePtr);
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  store<u32>(statePtr, x);
  return x;
}

/**
 * Uniform jitter in [0.85, 1.15): (base * (55706 + r % 19661)) >> 16, r the next draw.
 * 55706 / 65536 = 0.85000, (55706 + 19660) / 65536 = 1.14999. The product is formed in 64 bits
 * so that byte counts and picosecond intervals of any size are exact.
 */
@inline
export function jitter(base: i64, statePtr: usize): i64 {
  const r = rngNext(statePtr);
  return (base * <i64>(55706 + r % 19661)) >> 16;
}
