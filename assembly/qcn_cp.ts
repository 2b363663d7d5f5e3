// IEEE 802.1Qau (802.1Q clause 30-33) congestion point, profile `qau-pc`: the sampler and
// feedback computation of Pan's QCN pseudo-code as pinned in docs/design.md §4.4, plus the `dcqcn`
// congestion point (RED-style ECN marking, Zhu et al. SIGCOMM 2015).
//
// qau-pc record (offsets in layout.ts, QCN_CP_*):
//   q, qOld, ttm (bytes to next sample), rng, params (Qeq, w, Fbmax = Qeq(2w+1), quantiser,
//   msbShift), outputs of the last sample (fb, qf, qOff, qDelta), i64 counters.
// Invariants: 0 <= q; ttm >= 0 between enqueues (a reload is always >= 0.85 * 18500);
//   -Fbmax <= fb <= 0 and 0 <= qf <= 63 whenever written; rng != 0.
//
// The per-packet path is q += len, ttm -= len and one compare: Fb, the quantiser and the
// jittered reload run only when the byte countdown expires (the sampled frame is the one whose
// arrival made ttm negative, and q includes it). Golden vectors that need fb/qf on every enqueue
// call qcnCpFeedback (same formula, no side effects) — the hot path never pays for it.
//
// dcqcn record (DCQCN_CP_*): q, rng, Kmin, Kmax, Pmax (Q16), last probability, counters.
// Marking is decided on enqueue with q including the arriving frame; one draw per enqueue only
// while Kmin < q <= Kmax (no draw when the outcome is certain).
import {
  QCN_CP_Q, QCN_CP_Q_OLD, QCN_CP_TTM, QCN_CP_RNG, QCN_CP_Q_EQ, QCN_CP_W, QCN_CP_FB_MAX, QCN_CP_QUANT,
  QCN_CP_MSB_SHIFT, QCN_CP_FB, QCN_CP_QF, QCN_CP_Q_OFF, QCN_CP_Q_DELTA, QCN_CP_SAMPLES, QCN_CP_CNMS,
  QCN_CP_SIZE,
  DCQCN_CP_Q, DCQCN_CP_RNG, DCQCN_CP_KMIN, DCQCN_CP_KMAX, DCQCN_CP_PMAX, DCQCN_CP_P, DCQCN_CP_MARKS,
  DCQCN_CP_SIZE,
  QUANT_LINEAR, QUANT_MSB,
} from './layout';
export { QUANT_LINEAR, QUANT_MSB };
import { rngSeed, jitter, rngNext } from './rng';


/** Bytes before the first sample, and the base of the sampling table (cpMinSampleBase). */
export const CP_INITIAL_TTM: i32 = 150000;

/** Sampling interval in bytes by qf >> 3 (150 KB / (1 + n), rounded as in the pseudo-code). */
const SAMPLE_TABLE: usize = memory.data<i32>([150000, 75000, 50000, 37500, 30000, 25000, 21500, 18500]);

/** Sample interval base for quantised feedback qf (0..63). */
@inline
export function sampleBase(qf: i32): i32 {
  return load<i32>(SAMPLE_TABLE + (<usize>(qf >> 3) << 2));
}

/** Bit length of a positive value (130000 -> 17). */
@inline
function bitLength(v: i32): i32 {
  return 32 - clz<i32>(v);
}

/**
 * Configure protocol of a qau-pc CP (host/core/kernels/qcn-cp.ts writes QCN_CP_Q_EQ, QCN_CP_W and
 * QCN_CP_QUANT): derives Fbmax = Qeq (2w + 1) and the msb quantiser's shift, empties the queue,
 * sets ttm = 150000, seeds the rng for entity `id` and zeroes the outputs and counters.
 */
export function qcnCpConfigure(rec: usize, seed: u32, id: u32): void {
  const fbMax = load<i32>(rec + QCN_CP_Q_EQ) * (2 * load<i32>(rec + QCN_CP_W) + 1);
  store<i32>(rec + QCN_CP_FB_MAX, fbMax);
  const shift = bitLength(fbMax) - 6;
  store<i32>(rec + QCN_CP_MSB_SHIFT, shift > 0 ? shift : 0);
  store<i32>(rec + QCN_CP_Q, 0);
  store<i32>(rec + QCN_CP_Q_OLD, 0);
  store<i32>(rec + QCN_CP_TTM, CP_INITIAL_TTM);
  store<u32>(rec + QCN_CP_RNG, rngSeed(seed, id));
  memory.fill(rec + <usize>QCN_CP_FB, 0, <usize>(QCN_CP_SIZE - QCN_CP_FB)); // outputs and counters
}

/**
 * Fb for queue length q against the record's qOld, clamped to [-Fbmax, 0], and its 6-bit
 * quantisation; writes QCN_CP_FB and QCN_CP_QF and returns qf. Computed in i64 so that large
 * queue swings cannot overflow before the clamp.
 */
@inline
export function qcnCpQuantise(rec: usize, q: i32): i32 {
  const qEq = <i64>load<i32>(rec + QCN_CP_Q_EQ);
  const fbMax = <i64>load<i32>(rec + QCN_CP_FB_MAX);
  let fb = (qEq - <i64>q) - <i64>load<i32>(rec + QCN_CP_W) * (<i64>q - <i64>load<i32>(rec + QCN_CP_Q_OLD));
  if (fb > 0) fb = 0;
  if (fb < -fbMax) fb = -fbMax;
  let qf: i32;
  if (load<i32>(rec + QCN_CP_QUANT) == QUANT_LINEAR) {
    qf = <i32>((-fb * 63) / fbMax);
  } else {
    qf = <i32>(-fb >> <i64>load<i32>(rec + QCN_CP_MSB_SHIFT));
    if (qf > 63) qf = 63;
  }
  store<i32>(rec + QCN_CP_FB, <i32>fb);
  store<i32>(rec + QCN_CP_QF, qf);
  return qf;
}

/**
 * Enqueue of `len` bytes. Returns true when this frame is sampled and a CNM must go to its source;
 * the CNM fields are then in QCN_CP_QF, QCN_CP_Q_OFF and QCN_CP_Q_DELTA. qOld becomes q at every
 * sample, CNM or not; the next interval is jitter(SAMPLE[qf >> 3]) (one draw per sample).
 * The per-packet part (qcnCpCountdown) and the per-sample part (qcnCpSample) are separate so that
 * a pipeline can branch on the countdown directly.
 */
@inline
export function qcnCpEnqueue(rec: usize, len: i32): bool {
  if (qcnCpCountdown(rec, len) >= 0) return false;
  return qcnCpSample(rec);
}

/** q += len and the byte countdown; returns the bytes left to the next sample (< 0: sample this frame). */
@inline
export function qcnCpCountdown(rec: usize, len: i32): i32 {
  store<i32>(rec + QCN_CP_Q, load<i32>(rec + QCN_CP_Q) + len);
  return qcnCpTick(rec, len);
}

/**
 * The byte countdown alone (ttm -= len; returns ttm). For a caller that knows the queue length
 * from its own accounting: it writes QCN_CP_Q before qcnCpSample and whenever it hands the record on.
 */
@inline
export function qcnCpTick(rec: usize, len: i32): i32 {
  const ttm = load<i32>(rec + QCN_CP_TTM) - len;
  store<i32>(rec + QCN_CP_TTM, ttm);
  return ttm;
}

/** The sample taken when the countdown expires, q including the sampled frame; true when it sends a CNM. */
@inline
export function qcnCpSample(rec: usize): bool {
  const q = load<i32>(rec + QCN_CP_Q);
  const qf = qcnCpQuantise(rec, q);
  const qOld = load<i32>(rec + QCN_CP_Q_OLD);
  const fire = qf > 0;
  if (fire) {
    store<i32>(rec + QCN_CP_Q_OFF, q - load<i32>(rec + QCN_CP_Q_EQ));
    store<i32>(rec + QCN_CP_Q_DELTA, q - qOld);
    store<i64>(rec + QCN_CP_CNMS, load<i64>(rec + QCN_CP_CNMS) + 1);
  }
  store<i64>(rec + QCN_CP_SAMPLES, load<i64>(rec + QCN_CP_SAMPLES) + 1);
  store<i32>(rec + QCN_CP_Q_OLD, q);
  store<i32>(rec + QCN_CP_TTM, <i32>jitter(<i64>sampleBase(qf), rec + QCN_CP_RNG));
  return fire;
}

/** Dequeue of `len` bytes (the frame leaves the queue). */
@inline
export function qcnCpDequeue(rec: usize, len: i32): void {
  store<i32>(rec + QCN_CP_Q, load<i32>(rec + QCN_CP_Q) - len);
}

// ---------------------------------------------------------------------------------------------
// dcqcn CP: p = 0 (q <= Kmin), Pmax (q - Kmin) / (Kmax - Kmin) (Kmin < q <= Kmax), 1 (q > Kmax).
// ---------------------------------------------------------------------------------------------

/** Q16 unity: a probability of 1. */
export const P_ONE: i32 = 65536;

/**
 * Configure protocol of a dcqcn CP (host/core/kernels/qcn-cp.ts writes DCQCN_CP_KMIN and DCQCN_CP_KMAX in
 * bytes and DCQCN_CP_PMAX in Q16, 1 % = 655): empties the queue, seeds the rng for entity `id`,
 * zeroes the last probability and the mark counter.
 */
export function dcqcnCpConfigure(rec: usize, seed: u32, id: u32): void {
  store<i32>(rec + DCQCN_CP_Q, 0);
  store<u32>(rec + DCQCN_CP_RNG, rngSeed(seed, id));
  store<i32>(rec + DCQCN_CP_P, 0);
  store<i64>(rec + DCQCN_CP_MARKS, 0);
}

/**
 * Enqueue of `len` bytes; returns true when the frame is ECN-marked (CE). The probability used is
 * left in DCQCN_CP_P (Q16). In the ramp a draw r marks iff (r >>> 16) < p, i.e. with probability
 * p / 65536 exactly.
 */
@inline
export function dcqcnCpEnqueue(rec: usize, len: i32): bool {
  const q = load<i32>(rec + DCQCN_CP_Q) + len;
  store<i32>(rec + DCQCN_CP_Q, q);
  const kmin = load<i32>(rec + DCQCN_CP_KMIN);
  const kmax = load<i32>(rec + DCQCN_CP_KMAX);
  let mark = false;
  let p: i32 = 0;
  if (q > kmax) {
    p = P_ONE;
    mark = true;
  } else if (q > kmin) {
    p = <i32>((<i64>load<i32>(rec + DCQCN_CP_PMAX) * <i64>(q - kmin)) / <i64>(kmax - kmin));
    mark = <i32>(rngNext(rec + DCQCN_CP_RNG) >>> 16) < p;
  }
  store<i32>(rec + DCQCN_CP_P, p);
  if (mark) store<i64>(rec + DCQCN_CP_MARKS, load<i64>(rec + DCQCN_CP_MARKS) + 1);
  return mark;
}

/** Dequeue of `len` bytes. */
@inline
export function dcqcnCpDequeue(rec: usize, len: i32): void {
  store<i32>(rec + DCQCN_CP_Q, load<i32>(rec + DCQCN_CP_Q) - len);
}
