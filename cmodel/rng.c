/*
 * Per-entity xorshift32 (Marsaglia 2003, shifts 13, 17, 5) and the uniform +-15 % jitter of the QCN
 * sampler and reaction point reloads; the C mirror of assembly/rng.ts.
 * State: one u32 word inside the entity's record. Invariant: never 0 (seeding maps 0 to 0x6D2B79F5).
 */
#include "dcbkit.h"

/* s = (seed ^ (id + 1) * 0x9E3779B9) mod 2^32, 0 -> 0x6D2B79F5 */
uint32_t dcb_rng_seed(uint32_t seed, uint32_t id) {
  uint32_t s = seed ^ (uint32_t)((id + 1u) * 0x9E3779B9u);
  return s == 0 ? 0x6D2B79F5u : s;
}

uint32_t dcb_rng_next(uint8_t *state) {
  uint32_t x = dcb_ldu32(state);
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  dcb_stu32(state, x);
  return x;
}

/* (base * (55706 + r % 19661)) >> 16 with r the next draw: [0.85, 1.15) of base, in 64 bits.
   The shift of a negative product never happens (bases are positive sizes and intervals). */
int64_t dcb_jitter(int64_t base, uint8_t *state) {
  uint32_t r = dcb_rng_next(state);
  return (base * (int64_t)(55706u + r % 19661u)) >> 16;
}
