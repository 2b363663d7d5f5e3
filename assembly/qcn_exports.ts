// Host-facing drivers of the QCN/DCQCN kernels (qcn_cp.ts, qcn_rp.ts): the golden-vector and test
// entry points (one event per call, i64 time as BigInt; not hot) and the batched benchmark driver
// of the CP per-packet path. The kernels themselves stay @inline for the port pipeline and the
// simulator, which call them directly.
import { QCN_CP_Q, QCN_CP_QF, QCN_CP_SIZE } from './layout';
import { qcnCpInit, qcnCpEnqueue, qcnCpDequeue, qcnCpQuantise, dcqcnCpEnqueue, dcqcnCpDequeue, QUANT_LINEAR } from './qcn_cp';
import { rngNext, jitter } from './rng';
import { qcnRpFireDue, qcnRpOnCnm, qcnRpOnFrameSent, dcqcnRpOnCnp, dcqcnNpOnCe } from './qcn_rp';

export { qcnCpInit, dcqcnCpInit, sampleBase as qcnCpSampleBase } from './qcn_cp';
export { qcnRpInit, dcqcnRpConfigure, dcqcnNpInit } from './qcn_rp';

/**
 * Vectors form of the qau-pc enqueue: also leaves in QCN_CP_FB / QCN_CP_QF the Fb and qf of this
 * enqueue when it is not sampled (same formula, computed on q + len against the current qOld).
 * Returns 1 when a CNM fires.
 */
export function qcnCpEnqueueVec(rec: usize, len: i32): i32 {
  qcnCpQuantise(rec, load<i32>(rec + QCN_CP_Q) + len);
  return qcnCpEnqueue(rec, len) ? 1 : 0;
}

export function qcnCpDequeueVec(rec: usize, len: i32): void {
  qcnCpDequeue(rec, len);
}

/**
 * Batched driver of the CP per-packet path over any record: for i < n, enqueue then dequeue lens[i]
 * bytes (i32 array at lensPtr), so q stays where the caller set it (QCN_CP_Q) and the congestion
 * level is fixed. Returns a checksum of every CNM's qf, so the work cannot be optimised away:
 * sum = sum * 31 + qf + 1 per CNM (i32 wrap-around).
 */
export function qcnCpBenchRunItems(rec: usize, lensPtr: usize, n: i32): i32 {
  let sum: i32 = 0;
  for (let i = 0; i < n; i++) {
    const len = load<i32>(lensPtr + (<usize>i << 2));
    if (qcnCpEnqueue(rec, len)) sum = sum * 31 + load<i32>(rec + QCN_CP_QF) + 1;
    qcnCpDequeue(rec, len);
  }
  return sum;
}

// `dcbkit bench` shape (bench/kernels.ts): setup() once, then run(n) per sample on static state.
const BENCH_LENS_MASK: i32 = 4095;
const BENCH_CP: usize = memory.data(QCN_CP_SIZE, 16);
const BENCH_LENS: usize = memory.data((BENCH_LENS_MASK + 1) << 2, 16);

/**
 * Default-parameter CP (Qeq 26000, w 2, linear) holding q = 60000 B, so that after the first
 * sample fb = 26000 - 60000 = -34000, qf = 16 and a CNM goes out about every 50000 B; frame
 * lengths 64..1087 B from a fixed xorshift32 sequence.
 */
export function qcnCpBenchSetup(): void {
  qcnCpInit(BENCH_CP, 26000, 2, QUANT_LINEAR, 1, 0);
  store<i32>(BENCH_CP + QCN_CP_Q, 60000);
  let x: u32 = 0x2545F491;
  for (let i = 0; i <= BENCH_LENS_MASK; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    store<i32>(BENCH_LENS + (<usize>i << 2), 64 + <i32>(x & 1023));
  }
}

/** n enqueue + dequeue pairs on the setup record, lengths cycling through the 4096-entry table. */
export function qcnCpBenchRun(n: i32): i32 {
  let sum: i32 = 0;
  for (let i = 0; i < n; i++) {
    const len = load<i32>(BENCH_LENS + (<usize>(i & BENCH_LENS_MASK) << 2));
    if (qcnCpEnqueue(BENCH_CP, len)) sum = sum * 31 + load<i32>(BENCH_CP + QCN_CP_QF) + 1;
    qcnCpDequeue(BENCH_CP, len);
  }
  return sum;
}

export function dcqcnCpEnqueueVec(rec: usize, len: i32): i32 {
  return dcqcnCpEnqueue(rec, len) ? 1 : 0;
}

export function dcqcnCpDequeueVec(rec: usize, len: i32): void {
  dcqcnCpDequeue(rec, len);
}

/** Fires the earliest timer due at or before `now`; returns 0 none, 1 rate timer, 2 alpha timer. */
export function qcnRpFireDueVec(rec: usize, now: i64): i32 {
  return qcnRpFireDue(rec, now);
}

export function qcnRpOnCnmVec(rec: usize, now: i64, qf: i32): void {
  qcnRpOnCnm(rec, now, qf);
}

export function qcnRpOnFrameSentVec(rec: usize, now: i64, len: i32, backlog: i32): void {
  qcnRpOnFrameSent(rec, now, len, backlog);
}

export function dcqcnRpOnCnpVec(rec: usize, now: i64): void {
  dcqcnRpOnCnp(rec, now);
}

/** 1 when a CE-marked frame at `now` makes the notification point send a CNP. */
export function dcqcnNpOnCeVec(rec: usize, now: i64): i32 {
  return dcqcnNpOnCe(rec, now) ? 1 : 0;
}

/** Test access to the shared generator (assembly/rng.ts) on a state word at `statePtr`. */
export function qcnRngNext(statePtr: usize): u32 {
  return rngNext(statePtr);
}

export function qcnJitter(base: i64, statePtr: usize): i64 {
  return jitter(base, statePtr);
}
