// QCN for the simulator (IEEE 802.1Qau, profile qau-pc as pinned in DESIGN.md §4.4-4.5).
//
// Congestion point: one 16-byte record per (egress port, TC): q, qOld, ttm, rng. On enqueue q and
// the byte countdown move; when the countdown expires, Fb = (Qeq - q) - w (q - qOld) is clamped to
// [-Fbmax, 0], quantised to qf = floor(-Fb x 63 / Fbmax) and a CNM is due when qf > 0; the next
// sample comes after jitter(SAMPLE[qf >> 3]) bytes.
//
// Reaction point: fields of the flow record (SF_RP_*): rate limiter with current rate CR, target
// rate TR, byte-counter stage si, timer stage ti, bytes to the next byte-counter event and the
// timer deadline. Multiplicative decrease by max(128 - qf, 64) / 128 on CNM; fast recovery toward
// TR, then active and hyper-active increase (Figure 3 of seed 000).
import { SF_RP_CR, SF_RP_TR, SF_RP_DEADLINE, SF_RP_BC_LEFT, SF_RP_SI, SF_RP_TI, SF_RP_ACTIVE, SF_RP_RNG, SF_LINE_BPS } from '../layout';
import { rngSeed, jitter } from '../rng';

const SAMPLE_BYTES: usize = memory.data<i32>([150000, 75000, 50000, 37500, 30000, 25000, 21500, 18500]);
const TH: i32 = 5;
const R_AI: i64 = 5_000_000;
const R_HAI: i64 = 50_000_000;
const MIN_RATE: i64 = 5_000_000;

let qEq: i32 = 26000;
let wQ: i32 = 2;
let fbMax: i32 = 26000 * 5;
let bcBytes: i32 = 150000;
let timerPs: i64 = 15_000_000_000;

export function setCpParams(q: i32, w: i32): void {
  qEq = q;
  wQ = w;
  fbMax = q * (2 * w + 1);
}

export function cpInit(cp: usize, seed: u32, id: u32): void {
  store<i32>(cp, 0);
  store<i32>(cp, 0, 4);
  store<i32>(cp, 150000, 8);
  store<u32>(cp, rngSeed(seed, id), 12);
}

/** Enqueue of `len` bytes; returns qf > 0 when this frame is sampled and a CNM is due, else 0. */
@inline
export function cpEnqueue(cp: usize, len: i32): i32 {
  const q = load<i32>(cp) + len;
  store<i32>(cp, q);
  const ttm = load<i32>(cp, 8) - len;
  if (ttm >= 0) { store<i32>(cp, ttm, 8); return 0; }
  const qOld = load<i32>(cp, 4);
  let fb = (qEq - q) - wQ * (q - qOld);
  if (fb < -fbMax) fb = -fbMax;
  if (fb > 0) fb = 0;
  const qf = <i32>((<i64>(-fb) * 63) / <i64>fbMax);
  store<i32>(cp, q, 4);
  store<i32>(cp, <i32>jitter(<i64>load<i32>(SAMPLE_BYTES + (<usize>(qf >> 3) << 2)), cp + 12), 8);
  return qf;
}

@inline
export function cpDequeue(cp: usize, len: i32): void {
  store<i32>(cp, load<i32>(cp) - len);
}

export function rpInit(fa: usize, seed: u32, id: u32, bc: i32, timer: i64): void {
  bcBytes = bc;
  timerPs = timer;
  store<i32>(fa + SF_RP_ACTIVE, 0);
  store<i64>(fa + SF_RP_CR, 0);
  store<i64>(fa + SF_RP_TR, 0);
  store<i64>(fa + SF_RP_DEADLINE, 0x7fffffffffffffff);
  store<u32>(fa + SF_RP_RNG, rngSeed(seed, id));
}

/** Current rate limit in bit/s, 0 while the limiter is not engaged. */
@inline
export function rpRate(fa: usize): i64 {
  return load<i32>(fa + SF_RP_ACTIVE) != 0 ? load<i64>(fa + SF_RP_CR) : 0;
}

@inline
export function rpDeadline(fa: usize): i64 {
  return load<i64>(fa + SF_RP_DEADLINE);
}

function increase(fa: usize): void {
  const si = load<i32>(fa + SF_RP_SI);
  const ti = load<i32>(fa + SF_RP_TI);
  const cr = load<i64>(fa + SF_RP_CR);
  let tr = load<i64>(fa + SF_RP_TR);
  const ri: i64 = si > TH && ti > TH ? R_HAI * <i64>(min(si, ti) - TH) : si > TH || ti > TH ? R_AI : 0;
  if ((si == 1 || ti == 1) && tr > 10 * cr) tr = tr / 8;
  else tr = tr + ri;
  const c = load<i64>(fa + SF_LINE_BPS);
  const nr = (cr + tr) / 2;
  store<i64>(fa + SF_RP_TR, tr);
  store<i64>(fa + SF_RP_CR, nr < c ? nr : c);
}

export function rpOnCnm(fa: usize, qf: i32, now: i64): void {
  if (qf == 0) return;
  const c = load<i64>(fa + SF_LINE_BPS);
  if (load<i32>(fa + SF_RP_ACTIVE) == 0) {
    store<i32>(fa + SF_RP_ACTIVE, 1);
    store<i64>(fa + SF_RP_CR, c);
    store<i64>(fa + SF_RP_TR, c);
    store<i32>(fa + SF_RP_SI, 0);
    store<i32>(fa + SF_RP_TI, 0);
    store<i32>(fa + SF_RP_BC_LEFT, bcBytes);
  }
  if (load<i32>(fa + SF_RP_SI) != 0) {
    store<i64>(fa + SF_RP_TR, load<i64>(fa + SF_RP_CR));
    store<i32>(fa + SF_RP_BC_LEFT, bcBytes);
  }
  store<i32>(fa + SF_RP_SI, 0);
  store<i32>(fa + SF_RP_TI, 0);
  const factor = <i64>max(128 - qf, 64);
  const cr = (load<i64>(fa + SF_RP_CR) * factor) >> 7;
  store<i64>(fa + SF_RP_CR, cr > MIN_RATE ? cr : MIN_RATE);
  store<i64>(fa + SF_RP_DEADLINE, now + timerPs);
}

/** Timer expiry at its deadline; returns true while the limiter stays engaged (re-arm the timer). */
export function rpOnTimer(fa: usize, t: i64): bool {
  if (load<i32>(fa + SF_RP_ACTIVE) == 0) return false;
  const ti = load<i32>(fa + SF_RP_TI) + 1;
  store<i32>(fa + SF_RP_TI, ti);
  increase(fa);
  store<i64>(fa + SF_RP_DEADLINE, t + jitter(ti < TH ? timerPs : timerPs / 2, fa + SF_RP_RNG));
  return true;
}

/** A frame of `len` bytes left the rate limiter at `now` (due timers fire first). */
export function rpOnTx(fa: usize, len: i32, now: i64): void {
  while (load<i32>(fa + SF_RP_ACTIVE) != 0 && load<i64>(fa + SF_RP_DEADLINE) <= now) rpOnTimer(fa, load<i64>(fa + SF_RP_DEADLINE));
  if (load<i32>(fa + SF_RP_ACTIVE) == 0) return;
  if (load<i64>(fa + SF_RP_CR) >= load<i64>(fa + SF_LINE_BPS)) {
    store<i32>(fa + SF_RP_ACTIVE, 0);
    store<i64>(fa + SF_RP_DEADLINE, 0x7fffffffffffffff);
    return;
  }
  const left = load<i32>(fa + SF_RP_BC_LEFT) - len;
  if (left < 0) {
    const si = load<i32>(fa + SF_RP_SI) + 1;
    store<i32>(fa + SF_RP_SI, si);
    store<i32>(fa + SF_RP_BC_LEFT, <i32>jitter(<i64>(si < TH ? bcBytes : bcBytes / 2), fa + SF_RP_RNG));
    increase(fa);
  } else {
    store<i32>(fa + SF_RP_BC_LEFT, left);
  }
}
