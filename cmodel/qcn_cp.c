/*
 * IEEE 802.1Qau (802.1Q clause 30-33) congestion point, profile qau-pc after Pan's QCN pseudo-code,
 * and the DCQCN congestion point's RED-style ECN marking (Zhu et al., SIGCOMM 2015); the C mirror of
 * assembly/qcn_cp.ts (docs/qcn.md has the model).
 *   qau-pc: q += len; ttm -= len; when ttm < 0: Fb = (Qeq - q) - w (q - qOld) clamped to [-Fbmax, 0],
 *   qf = floor(-Fb * 63 / Fbmax) (or the msb quantiser), CNM if qf > 0, qOld = q,
 *   ttm = jitter(SAMPLE[qf >> 3]).
 *   dcqcn: p = 0 (q <= Kmin), Pmax (q - Kmin) / (Kmax - Kmin) (ramp, one draw), 1 (q > Kmax).
 * State: QCN_CP_* and DCQCN_CP_* records. Invariants: q >= 0; -Fbmax <= fb <= 0; 0 <= qf <= 63; rng != 0.
 */
#include "dcbkit.h"

static const int32_t SAMPLE_TABLE[8] = {150000, 75000, 50000, 37500, 30000, 25000, 21500, 18500};
#define CP_INITIAL_TTM 150000
#define P_ONE 65536

int32_t dcb_qcn_cp_sample_base(int32_t qf) { return SAMPLE_TABLE[qf >> 3]; }

static int32_t bit_length(uint32_t v) { int32_t n = 0; while (v) { n++; v >>= 1; } return n; }

/* The caller wrote Qeq, w and the quantiser. */
void dcb_qcn_cp_configure(uint8_t *rec, uint32_t seed, uint32_t id) {
  int32_t fb_max = dcb_ld32(rec + QCN_CP_Q_EQ) * (2 * dcb_ld32(rec + QCN_CP_W) + 1);
  dcb_st32(rec + QCN_CP_FB_MAX, fb_max);
  int32_t shift = bit_length((uint32_t)fb_max) - 6;
  dcb_st32(rec + QCN_CP_MSB_SHIFT, shift > 0 ? shift : 0);
  dcb_st32(rec + QCN_CP_Q, 0);
  dcb_st32(rec + QCN_CP_Q_OLD, 0);
  dcb_st32(rec + QCN_CP_TTM, CP_INITIAL_TTM);
  dcb_stu32(rec + QCN_CP_RNG, dcb_rng_seed(seed, id));
  memset(rec + QCN_CP_FB, 0, QCN_CP_SIZE - QCN_CP_FB);
}

/* Fb in 64 bits (large queue swings cannot overflow before the clamp); writes fb and qf. */
int32_t dcb_qcn_cp_quantise(uint8_t *rec, int32_t q) {
  int64_t q_eq = dcb_ld32(rec + QCN_CP_Q_EQ), fb_max = dcb_ld32(rec + QCN_CP_FB_MAX);
  int64_t fb = (q_eq - q) - (int64_t)dcb_ld32(rec + QCN_CP_W) * ((int64_t)q - dcb_ld32(rec + QCN_CP_Q_OLD));
  if (fb > 0) fb = 0;
  if (fb < -fb_max) fb = -fb_max;
  int32_t qf;
  if (dcb_ld32(rec + QCN_CP_QUANT) == QUANT_LINEAR) qf = (int32_t)((-fb * 63) / fb_max);
  else { qf = (int32_t)(-fb >> dcb_ld32(rec + QCN_CP_MSB_SHIFT)); if (qf > 63) qf = 63; }
  dcb_st32(rec + QCN_CP_FB, (int32_t)fb);
  dcb_st32(rec + QCN_CP_QF, qf);
  return qf;
}

int32_t dcb_qcn_cp_enqueue(uint8_t *rec, int32_t len) {
  if (dcb_qcn_cp_countdown(rec, len) >= 0) return 0;
  return dcb_qcn_cp_sample(rec);
}

int32_t dcb_qcn_cp_countdown(uint8_t *rec, int32_t len) {
  dcb_st32(rec + QCN_CP_Q, dcb_ld32(rec + QCN_CP_Q) + len);
  return dcb_qcn_cp_tick(rec, len);
}

int32_t dcb_qcn_cp_tick(uint8_t *rec, int32_t len) {
  int32_t ttm = dcb_ld32(rec + QCN_CP_TTM) - len;
  dcb_st32(rec + QCN_CP_TTM, ttm);
  return ttm;
}

int32_t dcb_qcn_cp_sample(uint8_t *rec) {
  int32_t q = dcb_ld32(rec + QCN_CP_Q);
  int32_t qf = dcb_qcn_cp_quantise(rec, q);
  int32_t q_old = dcb_ld32(rec + QCN_CP_Q_OLD);
  int32_t fire = qf > 0;
  if (fire) {
    dcb_st32(rec + QCN_CP_Q_OFF, q - dcb_ld32(rec + QCN_CP_Q_EQ));
    dcb_st32(rec + QCN_CP_Q_DELTA, q - q_old);
    dcb_inc64(rec + QCN_CP_CNMS, 1);
  }
  dcb_inc64(rec + QCN_CP_SAMPLES, 1);
  dcb_st32(rec + QCN_CP_Q_OLD, q);
  dcb_st32(rec + QCN_CP_TTM, (int32_t)dcb_jitter(SAMPLE_TABLE[qf >> 3], rec + QCN_CP_RNG));
  return fire;
}

int32_t dcb_qcn_cp_enqueue_one(uint8_t *rec, int32_t len) {
  dcb_qcn_cp_quantise(rec, dcb_ld32(rec + QCN_CP_Q) + len);
  return dcb_qcn_cp_enqueue(rec, len);
}

void dcb_qcn_cp_dequeue(uint8_t *rec, int32_t len) { dcb_st32(rec + QCN_CP_Q, dcb_ld32(rec + QCN_CP_Q) - len); }

/* The caller wrote Kmin, Kmax (bytes) and Pmax (Q16). */
void dcb_dcqcn_cp_configure(uint8_t *rec, uint32_t seed, uint32_t id) {
  dcb_st32(rec + DCQCN_CP_Q, 0);
  dcb_stu32(rec + DCQCN_CP_RNG, dcb_rng_seed(seed, id));
  dcb_st32(rec + DCQCN_CP_P, 0);
  dcb_st64(rec + DCQCN_CP_MARKS, 0);
}

/* 1 when CE-marked; a draw r marks iff (r >> 16) < p, probability p / 65536 exactly. */
int32_t dcb_dcqcn_cp_enqueue(uint8_t *rec, int32_t len) {
  int32_t q = dcb_ld32(rec + DCQCN_CP_Q) + len;
  dcb_st32(rec + DCQCN_CP_Q, q);
  int32_t kmin = dcb_ld32(rec + DCQCN_CP_KMIN), kmax = dcb_ld32(rec + DCQCN_CP_KMAX), mark = 0, p = 0;
  if (q > kmax) { p = P_ONE; mark = 1; }
  else if (q > kmin) {
    p = (int32_t)(((int64_t)dcb_ld32(rec + DCQCN_CP_PMAX) * (int64_t)(q - kmin)) / (int64_t)(kmax - kmin));
    mark = (int32_t)(dcb_rng_next(rec + DCQCN_CP_RNG) >> 16) < p;
  }
  dcb_st32(rec + DCQCN_CP_P, p);
  if (mark) dcb_inc64(rec + DCQCN_CP_MARKS, 1);
  return mark;
}

void dcb_dcqcn_cp_dequeue(uint8_t *rec, int32_t len) { dcb_st32(rec + DCQCN_CP_Q, dcb_ld32(rec + DCQCN_CP_Q) - len); }
