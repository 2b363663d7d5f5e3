// Host-facing drivers of the QCN/DCQCN kernels (qcn_cp.ts, qcn_rp.ts): the golden-vector and test
// entry points (one event per call, i64 time as BigInt; not hot); the CP benchmark driver is
// assembly/bench/qcn.ts. The kernels themselves stay @inline for the port pipeline and the
// simulator, which call them directly.
import { QCN_CP_Q } from './layout';
import { qcnCpEnqueue, qcnCpDequeue, qcnCpQuantise, dcqcnCpEnqueue, dcqcnCpDequeue } from './qcn_cp';
import { rngNext, jitter } from './rng';
import { qcnRpFireDue, qcnRpOnCnm, qcnRpOnFrameSent, dcqcnRpOnCnp, dcqcnNpOnCe } from './qcn_rp';

export { qcnCpConfigure, dcqcnCpConfigure, sampleBase as qcnCpSampleBase } from './qcn_cp';
export { qcnRpConfigure, dcqcnNpConfigure } from './qcn_rp';

/**
 * Vectors form of the qau-pc enqueue: also leaves in QCN_CP_FB / QCN_CP_QF the Fb and qf of this
 * enqueue when it is not sampled (same formula, computed on q + len against the current qOld).
 * Returns 1 when a CNM fires.
 */
export function qcnCpEnqueueOne(rec: usize, len: i32): i32 {
  qcnCpQuantise(rec, load<i32>(rec + QCN_CP_Q) + len);
  return qcnCpEnqueue(rec, len) ? 1 : 0;
}

/** Host entry of qcnCpDequeue: `len` bytes leave the CP's queue. */
export function qcnCpDequeueOne(rec: usize, len: i32): void {
  qcnCpDequeue(rec, len);
}

/** Host entry of dcqcnCpEnqueue: 1 when the frame is CE-marked. */
export function dcqcnCpEnqueueOne(rec: usize, len: i32): i32 {
  return dcqcnCpEnqueue(rec, len) ? 1 : 0;
}

/** Host entry of dcqcnCpDequeue: `len` bytes leave the queue. */
export function dcqcnCpDequeueOne(rec: usize, len: i32): void {
  dcqcnCpDequeue(rec, len);
}

/** Fires the earliest timer due at or before `now`; returns 0 none, 1 rate timer, 2 alpha timer. */
export function qcnRpFireDueOne(rec: usize, now: i64): i32 {
  return qcnRpFireDue(rec, now);
}

/** Host entry of qcnRpOnCnm: a CNM with quantised feedback qf reaches the reaction point. */
export function qcnRpOnCnmOne(rec: usize, now: i64, qf: i32): void {
  qcnRpOnCnm(rec, now, qf);
}

/** Host entry of qcnRpOnFrameSent: a frame of `len` bytes left the rate limiter. */
export function qcnRpOnFrameSentOne(rec: usize, now: i64, len: i32, backlog: i32): void {
  qcnRpOnFrameSent(rec, now, len, backlog);
}

/** Host entry of dcqcnRpOnCnp: a CNP reaches the DCQCN reaction point. */
export function dcqcnRpOnCnpOne(rec: usize, now: i64): void {
  dcqcnRpOnCnp(rec, now);
}

/** 1 when a CE-marked frame at `now` makes the notification point send a CNP. */
export function dcqcnNpOnCeOne(rec: usize, now: i64): i32 {
  return dcqcnNpOnCe(rec, now) ? 1 : 0;
}

/** Test access to the shared generator (assembly/rng.ts) on a state word at `statePtr`. */
export function qcnRngNext(statePtr: usize): u32 {
  return rngNext(statePtr);
}

/** Host entry of the RP's jittered reload (rng.ts jitter) for the property tests. */
export function qcnJitter(base: i64, statePtr: usize): i64 {
  return jitter(base, statePtr);
}
