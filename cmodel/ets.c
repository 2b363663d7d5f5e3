/*
 * IEEE 802.1Qaz-2011 clause 37.3 (802.1Q-2018 §8.6.8) Enhanced Transmission Selection over the 8 TCs
 * of one egress port; the C mirror of assembly/ets.ts (docs/ets.md has the model).
 * Strict TCs first, highest TC number first; the ETS TCs share the rest by deficit round robin with
 * quantum_i = bw_i * ceil(max_wire / min non-zero bw), so a visit's first frame always fits; 0 % TCs
 * are served only when no weighted TC can send. Blocked TCs are not eligible.
 * State: the ETS record (ETS_*). Invariants: 0 <= deficit[i] < quantum[i] + max_wire, and
 * deficit[i] < max_wire for every TC but cur; an emptied TC's deficit is 0.
 */
#include "dcbkit.h"

void dcb_ets_configure(uint8_t *ets, int32_t max_frame) {
  int32_t max_wire = max_frame + WIRE_OVERHEAD, strict = 0, weighted = 0, zero = 0, min_bw = 101;
  for (int32_t tc = 0; tc < 8; tc++) {
    int32_t tsa = ets[ETS_TSA + tc], bw = ets[ETS_BW + tc];
    if (tsa == TSA_STRICT || tsa == TSA_CBS) strict |= 1 << tc;
    else if (bw > 0) { weighted |= 1 << tc; if (bw < min_bw) min_bw = bw; }
    else zero |= 1 << tc;
  }
  int32_t q = weighted != 0 ? (max_wire + min_bw - 1) / min_bw : max_wire;
  for (int32_t tc = 0; tc < 8; tc++) {
    int32_t bit = 1 << tc, bw = ets[ETS_BW + tc];
    dcb_st32(ets + ETS_QUANTUM + 4 * DCB_IX(tc), (weighted & bit) ? bw * q : (zero & bit) ? max_wire : 0);
    dcb_st32(ets + ETS_DEFICIT + 4 * DCB_IX(tc), 0);
  }
  dcb_st32(ets + ETS_STRICT_MASK, strict);
  dcb_st32(ets + ETS_WEIGHTED_MASK, weighted);
  dcb_st32(ets + ETS_ZERO_MASK, zero);
  dcb_st32(ets + ETS_Q_UNIT, q);
  dcb_st32(ets + ETS_MAX_WIRE, max_wire);
  dcb_st32(ets + ETS_CUR, 7);
}

int32_t dcb_ets_classify(const uint8_t *ets, int32_t prio) { return ets[ETS_PRIO_TC + DCB_IX(prio)]; }

/* Bit scans of a non-zero word: the compiler's builtins where there are some, a loop in plain C99. */
#if defined(__GNUC__) || defined(__clang__)
static int32_t highest_bit(uint32_t x) { return 31 - __builtin_clz(x); }
static int32_t lowest_bit(uint32_t x) { return __builtin_ctz(x); }
#else
static int32_t highest_bit(uint32_t x) { int32_t n = 31; while (!(x >> n)) n--; return n; }
static int32_t lowest_bit(uint32_t x) { int32_t n = 0; while (!((x >> n) & 1u)) n++; return n; }
#endif

/* The TC that sends next, or -1. A DRR TC is charged its head frame's wire size here. */
int32_t dcb_ets_select(uint8_t *ets, int32_t backlog, int32_t blocked, const int32_t head_wire[8]) {
  int32_t eligible = backlog & ~blocked;
  int32_t strict = eligible & dcb_ld32(ets + ETS_STRICT_MASK);
  if (strict != 0) return highest_bit((uint32_t)strict);
  int32_t cand = eligible & dcb_ld32(ets + ETS_WEIGHTED_MASK);
  if (cand == 0) cand = eligible & dcb_ld32(ets + ETS_ZERO_MASK);
  if (cand == 0) return -1;
  int32_t cur = dcb_ld32(ets + ETS_CUR);
  uint8_t *cur_def = ets + ETS_DEFICIT + 4 * DCB_IX(cur);
  int32_t d = dcb_ld32(cur_def);
  if (((cand >> cur) & 1) != 0 && head_wire[DCB_IX(cur)] <= d) {
    dcb_st32(cur_def, d - head_wire[DCB_IX(cur)]);
    return cur;
  }
  /* the visit of cur ends: it keeps less than one maximum frame of deficit */
  int32_t cap = dcb_ld32(ets + ETS_MAX_WIRE) - 1;
  dcb_st32(cur_def, d < cap ? d : cap);
  /* next candidate after cur, cyclically (cand != 0, so the doubled mask has a bit above cur) */
  int32_t next = (cur + 1 + lowest_bit(((uint32_t)(cand | (cand << 8))) >> (uint32_t)(cur + 1))) & 7;
  uint8_t *next_def = ets + ETS_DEFICIT + 4 * DCB_IX(next);
  int32_t funded = dcb_ld32(next_def) + dcb_ld32(ets + ETS_QUANTUM + 4 * DCB_IX(next));
  dcb_st32(next_def, funded - head_wire[DCB_IX(next)]);
  dcb_st32(ets + ETS_CUR, next);
  return next;
}

void dcb_ets_emptied(uint8_t *ets, int32_t tc) { dcb_st32(ets + ETS_DEFICIT + 4 * DCB_IX(tc), 0); }
