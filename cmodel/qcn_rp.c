/*
 * IEEE 802.1Qau (802.1Q clause 32.13-32.14) reaction point, profile qau-pc after Pan's QCN
 * pseudo-code (rate cut on CNM; byte-counter and timer stages; fast recovery, active and hyperactive
 * increase; extra fast recovery), and the DCQCN reaction point and notification point (Zhu et al.,
 * "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015, §4) with the ConnectX options
 * (first-CNP rate, minimum decrease, target-rate clamp rules); the C mirror of assembly/qcn_rp.ts
 * (docs/qcn.md has the model). DCQCN's alpha and g are fixed point with ALPHA_BITS fraction bits
 * (10..24; 20 by default, 10 = the NIC's Q10); every product and division rounds down.
 * Every event first fires the timers due at or before its time, each at its own deadline (rate timer
 * before the alpha timer at the same instant); the next deadline counts from the one that fired.
 * State: the QCN_RP_* record (both profiles), DCQCN_NP_*. Invariants while active:
 * MIN_RATE <= CR <= C; 0 <= alpha <= 2^ALPHA_BITS; all divisions floor.
 */
#include "dcbkit.h"

/* alpha (1 - g) in the record's fixed point, rounded down (alpha, 2^bits - g <= 2^24: a 64-bit product). */
static int32_t alpha_decayed(const uint8_t *rec, int32_t alpha) {
  int32_t bits = dcb_ld32(rec + QCN_RP_ALPHA_BITS);
  int64_t g = dcb_ld32(rec + QCN_RP_G);
  return (int32_t)(((((int64_t)1 << bits) - g) * (int64_t)alpha) >> bits);
}

/* The caller wrote the parameter fields; this makes an idle rate limiter seeded from (seed, id). */
void dcb_qcn_rp_configure(uint8_t *rec, uint32_t seed, uint32_t id) {
  int64_t line = dcb_ld64(rec + QCN_RP_LINE_BPS);
  dcb_st64(rec + QCN_RP_CR, line);
  dcb_st64(rec + QCN_RP_TR, line);
  dcb_st64(rec + QCN_RP_DEADLINE, 0);
  dcb_st32(rec + QCN_RP_BC_LEFT, 0);
  dcb_st32(rec + QCN_RP_SI, 0);
  dcb_st32(rec + QCN_RP_TI, 0);
  dcb_st32(rec + QCN_RP_ACTIVE, 0);
  dcb_stu32(rec + QCN_RP_RNG, dcb_rng_seed(seed, id));
  dcb_st32(rec + QCN_RP_ALPHA, dcb_ld32(rec + QCN_RP_ALPHA_INIT));
  dcb_st64(rec + QCN_RP_ALPHA_DEADLINE, 0);
  dcb_st64(rec + QCN_RP_CUTS, 0);
  dcb_st64(rec + QCN_RP_BC_EVENTS, 0);
  dcb_st64(rec + QCN_RP_TIMER_EVENTS, 0);
}

/* Next counter interval: halved once the stage reaches TH, jittered (each if its flag is set). */
static int64_t reload_interval(uint8_t *rec, int64_t base, int32_t stage) {
  int32_t flags = dcb_ld32(rec + QCN_RP_FLAGS);
  int64_t v = base;
  if ((flags & QCN_RP_F_HALVING) != 0 && stage >= dcb_ld32(rec + QCN_RP_TH)) v = base / 2;
  if ((flags & QCN_RP_F_JITTER) != 0) v = dcb_jitter(v, rec + QCN_RP_RNG);
  return v;
}

/* One recovery step: FR (Ri = 0), AI (either stage past TH) or HAI (both), then CR = (CR + TR) / 2. */
static void increase(uint8_t *rec) {
  int32_t si = dcb_ld32(rec + QCN_RP_SI), ti = dcb_ld32(rec + QCN_RP_TI), th = dcb_ld32(rec + QCN_RP_TH);
  int64_t ri = 0;
  if (si > th && ti > th) ri = dcb_ld64(rec + QCN_RP_HAI_BPS) * (int64_t)((si < ti ? si : ti) - th);
  else if (si > th || ti > th) ri = dcb_ld64(rec + QCN_RP_AI_BPS);
  int64_t cr = dcb_ld64(rec + QCN_RP_CR), tr = dcb_ld64(rec + QCN_RP_TR);
  if ((dcb_ld32(rec + QCN_RP_FLAGS) & QCN_RP_F_EXTRA_FR) != 0 && (si == 1 || ti == 1) && tr > 10 * cr) tr = tr / 8;
  else tr += ri;
  cr = (cr + tr) / 2;
  int64_t c = dcb_ld64(rec + QCN_RP_LINE_BPS);
  if (cr > c) cr = c;
  dcb_st64(rec + QCN_RP_TR, tr);
  dcb_st64(rec + QCN_RP_CR, cr);
}

static void engage(uint8_t *rec) {
  dcb_st32(rec + QCN_RP_ACTIVE, 1);
  int64_t c = dcb_ld64(rec + QCN_RP_LINE_BPS);
  dcb_st64(rec + QCN_RP_CR, c);
  dcb_st64(rec + QCN_RP_TR, c);
  dcb_st32(rec + QCN_RP_SI, 0);
  dcb_st32(rec + QCN_RP_TI, 0);
  dcb_st32(rec + QCN_RP_BC_LEFT, dcb_ld32(rec + QCN_RP_BC_BYTES));
  dcb_st32(rec + QCN_RP_ALPHA, dcb_ld32(rec + QCN_RP_ALPHA_INIT));
}

/* Fires the earliest timer due at or before now, at its own deadline; returns DCB_FIRED_*. */
int32_t dcb_qcn_rp_fire_due(uint8_t *rec, int64_t now) {
  if (dcb_ld32(rec + QCN_RP_ACTIVE) == 0) return DCB_FIRED_NONE;
  int64_t deadline = dcb_ld64(rec + QCN_RP_DEADLINE);
  if (dcb_ld32(rec + QCN_RP_PROFILE) == RP_DCQCN) {
    int64_t alpha_deadline = dcb_ld64(rec + QCN_RP_ALPHA_DEADLINE);
    if (alpha_deadline <= now && alpha_deadline < deadline) {
      dcb_st32(rec + QCN_RP_ALPHA, alpha_decayed(rec, dcb_ld32(rec + QCN_RP_ALPHA)));
      dcb_st64(rec + QCN_RP_ALPHA_DEADLINE, alpha_deadline + dcb_ld64(rec + QCN_RP_ALPHA_PS));
      return DCB_FIRED_ALPHA_TIMER;
    }
  }
  if (deadline > now) return DCB_FIRED_NONE;
  int32_t ti = dcb_ld32(rec + QCN_RP_TI) + 1;
  dcb_st32(rec + QCN_RP_TI, ti);
  increase(rec);
  dcb_st64(rec + QCN_RP_DEADLINE, deadline + reload_interval(rec, dcb_ld64(rec + QCN_RP_TIMER_PS), ti));
  dcb_inc64(rec + QCN_RP_TIMER_EVENTS, 1);
  return DCB_FIRED_RATE_TIMER;
}

void dcb_qcn_rp_advance(uint8_t *rec, int64_t now) {
  while (dcb_qcn_rp_fire_due(rec, now) != DCB_FIRED_NONE) {}
}

/* CNM with qf (1..63; 0 ignored): CR = max((CR * max(2^gd - qf, minDecNum)) >> gd, MIN_RATE). */
void dcb_qcn_rp_on_cnm(uint8_t *rec, int64_t now, int32_t qf) {
  dcb_qcn_rp_advance(rec, now);
  if (qf == 0) return;
  if (dcb_ld32(rec + QCN_RP_ACTIVE) == 0) engage(rec);
  int64_t cr = dcb_ld64(rec + QCN_RP_CR);
  if (dcb_ld32(rec + QCN_RP_SI) != 0) {
    dcb_st64(rec + QCN_RP_TR, cr);
    dcb_st32(rec + QCN_RP_BC_LEFT, dcb_ld32(rec + QCN_RP_BC_BYTES));
  }
  dcb_st32(rec + QCN_RP_SI, 0);
  dcb_st32(rec + QCN_RP_TI, 0);
  int32_t gd = dcb_ld32(rec + QCN_RP_GD_SHIFT);
  int32_t factor = (1 << gd) - qf, min_dec = dcb_ld32(rec + QCN_RP_MIN_DEC_NUM);
  if (factor < min_dec) factor = min_dec;
  cr = (cr * (int64_t)factor) >> gd;
  int64_t min_rate = dcb_ld64(rec + QCN_RP_MIN_BPS);
  dcb_st64(rec + QCN_RP_CR, cr > min_rate ? cr : min_rate);
  dcb_st64(rec + QCN_RP_DEADLINE, now + dcb_ld64(rec + QCN_RP_TIMER_PS));
  dcb_inc64(rec + QCN_RP_CUTS, 1);
}

/* A frame of len bytes left the limiter with backlog bytes queued behind it. */
void dcb_qcn_rp_on_frame_sent(uint8_t *rec, int64_t now, int32_t len, int32_t backlog) {
  dcb_qcn_rp_advance(rec, now);
  if (dcb_ld32(rec + QCN_RP_ACTIVE) == 0) return;
  if (dcb_ld64(rec + QCN_RP_CR) >= dcb_ld64(rec + QCN_RP_LINE_BPS) && backlog == 0) {
    dcb_st32(rec + QCN_RP_ACTIVE, 0);
    return;
  }
  int32_t bc_left = dcb_ld32(rec + QCN_RP_BC_LEFT) - len;
  dcb_st32(rec + QCN_RP_BC_LEFT, bc_left);
  if (bc_left >= 0) return;
  int32_t si = dcb_ld32(rec + QCN_RP_SI) + 1;
  dcb_st32(rec + QCN_RP_SI, si);
  dcb_st32(rec + QCN_RP_BC_LEFT, (int32_t)reload_interval(rec, dcb_ld32(rec + QCN_RP_BC_BYTES), si));
  increase(rec);
  dcb_inc64(rec + QCN_RP_BC_EVENTS, 1);
}

/* DCQCN CNP: TR = CR; CR = max(CR - (CR alpha) >> gd_shift, MIN_RATE) with gd_shift = alpha_bits + 1
   (a cut by alpha / 2, the alpha from before this CNP); alpha = alpha (1 - g) + g. ConnectX options:
   the CNP that engages an idle limiter sets CR = TR = FIRST_CNP_BPS when non-zero; a cut leaves at
   least MIN_DEC_PCT % of CR; with F_TR_HOLD, TR = CR only after a byte-counter increase (or, with
   F_TR_AFTER_TIMER, any increase) since the last cut. Stages, counters and both timers restart. */
void dcb_dcqcn_rp_on_cnp(uint8_t *rec, int64_t now) {
  dcb_qcn_rp_advance(rec, now);
  int engaging = dcb_ld32(rec + QCN_RP_ACTIVE) == 0;
  if (engaging) engage(rec);
  int64_t cr = dcb_ld64(rec + QCN_RP_CR);
  int32_t alpha = dcb_ld32(rec + QCN_RP_ALPHA);
  int64_t first_rate = dcb_ld64(rec + QCN_RP_FIRST_CNP_BPS);
  if (engaging && first_rate > 0) {
    int64_t c = dcb_ld64(rec + QCN_RP_LINE_BPS);
    int64_t r = first_rate < c ? first_rate : c;
    dcb_st64(rec + QCN_RP_TR, r);
    dcb_st64(rec + QCN_RP_CR, r);
  } else {
    int32_t flags = dcb_ld32(rec + QCN_RP_FLAGS);
    int increased = dcb_ld32(rec + QCN_RP_SI) != 0 || ((flags & QCN_RP_F_TR_AFTER_TIMER) != 0 && dcb_ld32(rec + QCN_RP_TI) != 0);
    if ((flags & QCN_RP_F_TR_HOLD) == 0 || increased) dcb_st64(rec + QCN_RP_TR, cr);
    /* floor(CR alpha / 2^s) without a 2^67 product: CR = hi 2^s + lo gives hi alpha + (lo alpha) >> s */
    int32_t s = dcb_ld32(rec + QCN_RP_GD_SHIFT);
    int64_t a = alpha;
    int64_t next = cr - ((cr >> s) * a + (((cr & (((int64_t)1 << s) - 1)) * a) >> s));
    int32_t min_dec_pct = dcb_ld32(rec + QCN_RP_MIN_DEC_PCT);
    if (min_dec_pct > 0) {
      int64_t floor_rate = (cr / 100) * (int64_t)min_dec_pct + ((cr % 100) * (int64_t)min_dec_pct) / 100;
      if (next < floor_rate) next = floor_rate;
    }
    int64_t min_rate = dcb_ld64(rec + QCN_RP_MIN_BPS);
    dcb_st64(rec + QCN_RP_CR, next > min_rate ? next : min_rate);
  }
  dcb_st32(rec + QCN_RP_ALPHA, alpha_decayed(rec, alpha) + dcb_ld32(rec + QCN_RP_G));
  dcb_st32(rec + QCN_RP_SI, 0);
  dcb_st32(rec + QCN_RP_TI, 0);
  dcb_st32(rec + QCN_RP_BC_LEFT, dcb_ld32(rec + QCN_RP_BC_BYTES));
  dcb_st64(rec + QCN_RP_DEADLINE, now + dcb_ld64(rec + QCN_RP_TIMER_PS));
  dcb_st64(rec + QCN_RP_ALPHA_DEADLINE, now + dcb_ld64(rec + QCN_RP_ALPHA_PS));
  dcb_inc64(rec + QCN_RP_CUTS, 1);
}

/* The caller wrote DCQCN_NP_SPACING_PS; no CNP sent yet. */
void dcb_dcqcn_np_configure(uint8_t *rec) { dcb_st64(rec + DCQCN_NP_LAST_CNP, -1); }

/* 1 when a CE-marked frame at now sends a CNP (at most one per spacing). */
int32_t dcb_dcqcn_np_on_ce(uint8_t *rec, int64_t now) {
  int64_t last = dcb_ld64(rec + DCQCN_NP_LAST_CNP);
  if (last >= 0 && now - last < dcb_ld64(rec + DCQCN_NP_SPACING_PS)) return 0;
  dcb_st64(rec + DCQCN_NP_LAST_CNP, now);
  return 1;
}
