// IEEE 802.1Qau reaction point (802.1Q clause 32.13-32.14 rate limiter), profile `qau-pc`: Pan's
// pseudo-code as pinned in docs/design.md §4.5 — rate cut on CNM, byte counter and timer stages, fast
// recovery / active increase / hyperactive increase, extra fast recovery (TR/8). Also the `dcqcn`
// RP (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015, §4):
// alpha-scaled cut on CNP, alpha decay timer, and the notification point's CNP spacing; with the
// ConnectX options (first-CNP rate, minimum decrease factor, target-rate clamp rules) as fields.
//
// Record (offsets in layout.ts, QCN_RP_*): i64 CR, TR (bit/s), deadline (ps), parameters; i32
// bcLeft, si, ti, active, rng; dcqcn: alpha and g in fixed point with ALPHA_BITS fraction bits
// (10..24; 20 by default, 10 = the NIC's Q10), alpha deadline and period.
// Invariants while active: MIN_RATE <= CR <= C; CR <= TR when TR is set on every cut (a cut lowers
// CR below the TR it keeps or sets, an increase moves CR halfway to a TR that only grows or drops
// to TR/8 > 1.25 CR); 0 <= alpha <= 2^ALPHA_BITS. All arithmetic is integer; every division and
// every fixed-point product rounds down (floor). With 10 fraction bits and g = 1/256 the floor
// drives alpha to 0 when CNPs are sparse (each decay loses a whole 1/1024 once alpha < 1/4), hence
// the 20-bit default (docs/qcn.md).
//
// Ordering (docs/design.md §4.5): every event entry point first fires the timers due at or before
// `now`, each at its own deadline, so a timer always precedes an event at the same instant; the
// next deadline counts from the deadline that fired. One rng draw per jittered reload, in event
// order. For dcqcn, a rate timer and an alpha timer due at the same instant fire rate timer first
// (the two never touch the same state, so only the order of golden-vector lines depends on it).
import {
  QCN_RP_CR, QCN_RP_TR, QCN_RP_DEADLINE, QCN_RP_LINE_BPS, QCN_RP_AI_BPS, QCN_RP_HAI_BPS, QCN_RP_MIN_BPS,
  QCN_RP_TIMER_PS, QCN_RP_BC_LEFT, QCN_RP_BC_BYTES, QCN_RP_SI, QCN_RP_TI, QCN_RP_ACTIVE, QCN_RP_RNG,
  QCN_RP_TH, QCN_RP_GD_SHIFT, QCN_RP_MIN_DEC_NUM, QCN_RP_FLAGS, QCN_RP_PROFILE, QCN_RP_ALPHA,
  QCN_RP_ALPHA_DEADLINE, QCN_RP_ALPHA_PS, QCN_RP_G, QCN_RP_ALPHA_INIT, QCN_RP_ALPHA_BITS, QCN_RP_CUTS,
  QCN_RP_MIN_DEC_PCT, QCN_RP_FIRST_CNP_BPS, QCN_RP_F_TR_HOLD, QCN_RP_F_TR_AFTER_TIMER,
  QCN_RP_BC_EVENTS, QCN_RP_TIMER_EVENTS, QCN_RP_SIZE, QCN_RP_F_EXTRA_FR, QCN_RP_F_JITTER,
  QCN_RP_F_HALVING, DCQCN_NP_LAST_CNP, DCQCN_NP_SPACING_PS, DCQCN_NP_SIZE,
  RP_QAU_PC, RP_DCQCN,
} from './layout';
export { RP_QAU_PC, RP_DCQCN };
import { rngSeed, jitter } from './rng';


/** Which timer qcnRpFireDue fired. */
export const FIRED_NONE: i32 = 0;
export const FIRED_RATE_TIMER: i32 = 1;
export const FIRED_ALPHA_TIMER: i32 = 2;

/**
 * alpha (1 - g) in the record's fixed point, rounded down: the decay every tau' and the first half
 * of the update on a CNP. i64 product: alpha and 2^bits - g are at most 2^24.
 */
@inline
function alphaDecayed(rec: usize, alpha: i32): i32 {
  const bits = load<i32>(rec + QCN_RP_ALPHA_BITS);
  const g = load<i32>(rec + QCN_RP_G);
  return <i32>((((<i64>1 << bits) - <i64>g) * <i64>alpha) >> bits);
}

/**
 * Configure protocol (as etsConfigure for ETS): the host writes the record's parameter fields
 * (QCN_RP_LINE_BPS, BC_BYTES, TIMER_PS, TH, AI_BPS, HAI_BPS, MIN_BPS, GD_SHIFT, MIN_DEC_NUM, FLAGS,
 * PROFILE, and for dcqcn ALPHA_PS, G, ALPHA_INIT, ALPHA_BITS, MIN_DEC_PCT, FIRST_CNP_BPS;
 * host/core/kernels/qcn-rp.ts), then this call makes
 * it an idle rate limiter: CR = TR = line rate, stages, counters and timers cleared, alpha at its
 * initial value, the random stream seeded from (seed, id). The qau-pc profile uses all three
 * QCN_RP_F_* flags (extra fast recovery, jittered reloads, halved counters past TH).
 */
export function qcnRpConfigure(rec: usize, seed: u32, id: u32): void {
  const line = load<i64>(rec + QCN_RP_LINE_BPS);
  store<i64>(rec + QCN_RP_CR, line);
  store<i64>(rec + QCN_RP_TR, line);
  store<i64>(rec + QCN_RP_DEADLINE, 0);
  store<i32>(rec + QCN_RP_BC_LEFT, 0);
  store<i32>(rec + QCN_RP_SI, 0);
  store<i32>(rec + QCN_RP_TI, 0);
  store<i32>(rec + QCN_RP_ACTIVE, 0);
  store<u32>(rec + QCN_RP_RNG, rngSeed(seed, id));
  store<i32>(rec + QCN_RP_ALPHA, load<i32>(rec + QCN_RP_ALPHA_INIT));
  store<i64>(rec + QCN_RP_ALPHA_DEADLINE, 0);
  store<i64>(rec + QCN_RP_CUTS, 0);
  store<i64>(rec + QCN_RP_BC_EVENTS, 0);
  store<i64>(rec + QCN_RP_TIMER_EVENTS, 0);
}

/** Next counter interval: halved once the stage reaches TH (if enabled), jittered (if enabled). */
@inline
function reloadInterval(rec: usize, base: i64, stage: i32): i64 {
  const flags = load<i32>(rec + QCN_RP_FLAGS);
  let v = base;
  if ((flags & QCN_RP_F_HALVING) != 0 && stage >= load<i32>(rec + QCN_RP_TH)) v = base / 2;
  if ((flags & QCN_RP_F_JITTER) != 0) v = jitter(v, rec + QCN_RP_RNG);
  return v;
}

/** One recovery step: FR (Ri = 0), AI (either stage past TH) or HAI (both past TH), then averaging. */
@inline
function increase(rec: usize): void {
  const si = load<i32>(rec + QCN_RP_SI);
  const ti = load<i32>(rec + QCN_RP_TI);
  const th = load<i32>(rec + QCN_RP_TH);
  let ri: i64 = 0;
  if (si > th && ti > th) ri = load<i64>(rec + QCN_RP_HAI_BPS) * <i64>((si < ti ? si : ti) - th);
  else if (si > th || ti > th) ri = load<i64>(rec + QCN_RP_AI_BPS);
  let cr = load<i64>(rec + QCN_RP_CR);
  let tr = load<i64>(rec + QCN_RP_TR);
  // Extra fast recovery: after a very deep cut, a stale TR would pull CR up too far; drop it.
  if ((load<i32>(rec + QCN_RP_FLAGS) & QCN_RP_F_EXTRA_FR) != 0 && (si == 1 || ti == 1) && tr > 10 * cr) tr = tr / 8;
  else tr += ri;
  cr = (cr + tr) / 2;
  const c = load<i64>(rec + QCN_RP_LINE_BPS);
  if (cr > c) cr = c;
  store<i64>(rec + QCN_RP_TR, tr);
  store<i64>(rec + QCN_RP_CR, cr);
}

/** Engages an idle rate limiter at line rate with fresh counters (alpha reset for dcqcn). */
@inline
function engage(rec: usize): void {
  store<i32>(rec + QCN_RP_ACTIVE, 1);
  const c = load<i64>(rec + QCN_RP_LINE_BPS);
  store<i64>(rec + QCN_RP_CR, c);
  store<i64>(rec + QCN_RP_TR, c);
  store<i32>(rec + QCN_RP_SI, 0);
  store<i32>(rec + QCN_RP_TI, 0);
  store<i32>(rec + QCN_RP_BC_LEFT, load<i32>(rec + QCN_RP_BC_BYTES));
  store<i32>(rec + QCN_RP_ALPHA, load<i32>(rec + QCN_RP_ALPHA_INIT));
}

/**
 * Fires the earliest timer due at or before `now`, at its own deadline; returns FIRED_*.
 * Rate timer: ti += 1, increase, deadline += interval(T, ti). Alpha timer (dcqcn):
 * alpha = alpha (1 - g), next decay one period later. Nothing fires while idle.
 */
@inline
export function qcnRpFireDue(rec: usize, now: i64): i32 {
  if (load<i32>(rec + QCN_RP_ACTIVE) == 0) return FIRED_NONE;
  const deadline = load<i64>(rec + QCN_RP_DEADLINE);
  if (load<i32>(rec + QCN_RP_PROFILE) == RP_DCQCN) {
    const alphaDeadline = load<i64>(rec + QCN_RP_ALPHA_DEADLINE);
    if (alphaDeadline <= now && alphaDeadline < deadline) {
      store<i32>(rec + QCN_RP_ALPHA, alphaDecayed(rec, load<i32>(rec + QCN_RP_ALPHA)));
      store<i64>(rec + QCN_RP_ALPHA_DEADLINE, alphaDeadline + load<i64>(rec + QCN_RP_ALPHA_PS));
      return FIRED_ALPHA_TIMER;
    }
  }
  if (deadline > now) return FIRED_NONE;
  const ti = load<i32>(rec + QCN_RP_TI) + 1;
  store<i32>(rec + QCN_RP_TI, ti);
  increase(rec);
  store<i64>(rec + QCN_RP_DEADLINE, deadline + reloadInterval(rec, load<i64>(rec + QCN_RP_TIMER_PS), ti));
  store<i64>(rec + QCN_RP_TIMER_EVENTS, load<i64>(rec + QCN_RP_TIMER_EVENTS) + 1);
  return FIRED_RATE_TIMER;
}

/** Fires every timer due at or before `now`, in deadline order. */
@inline
export function qcnRpAdvance(rec: usize, now: i64): void {
  while (qcnRpFireDue(rec, now) != FIRED_NONE) {}
}

/**
 * CNM with quantised feedback qf (1..63; 0 is ignored) at time `now` (qau-pc):
 * CR = max((CR * max(2^gd - qf, minDecNum)) >> gd, MIN_RATE); TR = CR and a fresh byte counter only
 * if a byte-counter cycle completed since the last CNM (si != 0); stages reset; timer restarts at T.
 */
@inline
export function qcnRpOnCnm(rec: usize, now: i64, qf: i32): void {
  qcnRpAdvance(rec, now);
  if (qf == 0) return;
  if (load<i32>(rec + QCN_RP_ACTIVE) == 0) engage(rec);
  let cr = load<i64>(rec + QCN_RP_CR);
  if (load<i32>(rec + QCN_RP_SI) != 0) {
    store<i64>(rec + QCN_RP_TR, cr);
    store<i32>(rec + QCN_RP_BC_LEFT, load<i32>(rec + QCN_RP_BC_BYTES));
  }
  store<i32>(rec + QCN_RP_SI, 0);
  store<i32>(rec + QCN_RP_TI, 0);
  const gd = load<i32>(rec + QCN_RP_GD_SHIFT);
  let factor = (1 << gd) - qf;
  const minDec = load<i32>(rec + QCN_RP_MIN_DEC_NUM);
  if (factor < minDec) factor = minDec;
  cr = (cr * <i64>factor) >> <i64>gd;
  const minRate = load<i64>(rec + QCN_RP_MIN_BPS);
  store<i64>(rec + QCN_RP_CR, cr > minRate ? cr : minRate);
  store<i64>(rec + QCN_RP_DEADLINE, now + load<i64>(rec + QCN_RP_TIMER_PS));
  store<i64>(rec + QCN_RP_CUTS, load<i64>(rec + QCN_RP_CUTS) + 1);
}

/**
 * A frame of `len` bytes left the rate limiter at `now`, with `backlog` bytes still queued behind
 * it. Releases the limiter when CR has reached C and its queue is empty; otherwise counts bytes
 * and, when the counter expires, advances the byte stage with a reloaded counter and increases.
 */
@inline
export function qcnRpOnFrameSent(rec: usize, now: i64, len: i32, backlog: i32): void {
  qcnRpAdvance(rec, now);
  if (load<i32>(rec + QCN_RP_ACTIVE) == 0) return;
  if (load<i64>(rec + QCN_RP_CR) >= load<i64>(rec + QCN_RP_LINE_BPS) && backlog == 0) {
    store<i32>(rec + QCN_RP_ACTIVE, 0);
    return;
  }
  const bcLeft = load<i32>(rec + QCN_RP_BC_LEFT) - len;
  store<i32>(rec + QCN_RP_BC_LEFT, bcLeft);
  if (bcLeft >= 0) return;
  const si = load<i32>(rec + QCN_RP_SI) + 1;
  store<i32>(rec + QCN_RP_SI, si);
  store<i32>(rec + QCN_RP_BC_LEFT, <i32>reloadInterval(rec, <i64>load<i32>(rec + QCN_RP_BC_BYTES), si));
  increase(rec);
  store<i64>(rec + QCN_RP_BC_EVENTS, load<i64>(rec + QCN_RP_BC_EVENTS) + 1);
}

/**
 * CNP at `now` (dcqcn, Zhu et al. 2015 §4): TR = CR; CR = max(CR - (CR * alpha) >> gd_shift, MIN_RATE)
 * (gd_shift = alpha_bits + 1: a cut by alpha / 2 with the alpha from before this CNP); then
 * alpha = alpha (1 - g) + g. Stages, byte counter, rate timer and alpha timer all restart.
 * ConnectX options: the CNP that engages an idle limiter sets CR = TR = FIRST_CNP_BPS instead of
 * cutting, when that is non-zero; a cut never leaves less than MIN_DEC_PCT % of CR; with
 * F_TR_HOLD, TR = CR only after a byte-counter increase (or, with F_TR_AFTER_TIMER, any increase)
 * since the last cut, else TR is kept.
 */
@inline
export function dcqcnRpOnCnp(rec: usize, now: i64): void {
  qcnRpAdvance(rec, now);
  const engaging = load<i32>(rec + QCN_RP_ACTIVE) == 0;
  if (engaging) engage(rec);
  const cr = load<i64>(rec + QCN_RP_CR);
  const alpha = load<i32>(rec + QCN_RP_ALPHA);
  const firstRate = load<i64>(rec + QCN_RP_FIRST_CNP_BPS);
  if (engaging && firstRate > 0) {
    const c = load<i64>(rec + QCN_RP_LINE_BPS);
    const r = firstRate < c ? firstRate : c;
    store<i64>(rec + QCN_RP_TR, r);
    store<i64>(rec + QCN_RP_CR, r);
  } else {
    const flags = load<i32>(rec + QCN_RP_FLAGS);
    const increasedSinceCut = load<i32>(rec + QCN_RP_SI) != 0 || ((flags & QCN_RP_F_TR_AFTER_TIMER) != 0 && load<i32>(rec + QCN_RP_TI) != 0);
    if ((flags & QCN_RP_F_TR_HOLD) == 0 || increasedSinceCut) store<i64>(rec + QCN_RP_TR, cr);
    // floor(CR alpha / 2^s) without the 2^67 product: CR = hi 2^s + lo gives hi alpha + (lo alpha) >> s,
    // exactly (alpha <= 2^bits <= 2^s keeps hi alpha <= CR; lo alpha < 2^(s + bits) <= 2^54).
    const s = <i64>load<i32>(rec + QCN_RP_GD_SHIFT);
    const a = <i64>alpha;
    let next = cr - ((cr >> s) * a + (((cr & ((<i64>1 << s) - 1)) * a) >> s));
    const minDecPct = load<i32>(rec + QCN_RP_MIN_DEC_PCT);
    if (minDecPct > 0) {
      const floorRate = (cr / 100) * <i64>minDecPct + ((cr % 100) * <i64>minDecPct) / 100; // floor(CR pct / 100), no overflow
      if (next < floorRate) next = floorRate;
    }
    const minRate = load<i64>(rec + QCN_RP_MIN_BPS);
    store<i64>(rec + QCN_RP_CR, next > minRate ? next : minRate);
  }
  store<i32>(rec + QCN_RP_ALPHA, alphaDecayed(rec, alpha) + load<i32>(rec + QCN_RP_G));
  store<i32>(rec + QCN_RP_SI, 0);
  store<i32>(rec + QCN_RP_TI, 0);
  store<i32>(rec + QCN_RP_BC_LEFT, load<i32>(rec + QCN_RP_BC_BYTES));
  store<i64>(rec + QCN_RP_DEADLINE, now + load<i64>(rec + QCN_RP_TIMER_PS));
  store<i64>(rec + QCN_RP_ALPHA_DEADLINE, now + load<i64>(rec + QCN_RP_ALPHA_PS));
  store<i64>(rec + QCN_RP_CUTS, load<i64>(rec + QCN_RP_CUTS) + 1);
}

// ---------------------------------------------------------------------------------------------
// DCQCN notification point: at most one CNP per flow per spacing interval (50 us by default).
// ---------------------------------------------------------------------------------------------

/** Configure protocol of the notification point: the host writes DCQCN_NP_SPACING_PS; no CNP sent yet. */
export function dcqcnNpConfigure(rec: usize): void {
  store<i64>(rec + DCQCN_NP_LAST_CNP, -1);
}

/** A CE-marked frame of the flow arrived at `now`; returns true when a CNP is sent for it. */
@inline
export function dcqcnNpOnCe(rec: usize, now: i64): bool {
  const last = load<i64>(rec + DCQCN_NP_LAST_CNP);
  if (last >= 0 && now - last < load<i64>(rec + DCQCN_NP_SPACING_PS)) return false;
  store<i64>(rec + DCQCN_NP_LAST_CNP, now);
  return true;
}
