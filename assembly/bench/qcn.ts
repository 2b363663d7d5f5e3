// Batched micro-benchmark driver of the QCN congestion point's per-packet path (assembly/qcn_cp.ts)
// for `dcbkit bench` (bench/kernels.ts): setup() once, then run(n) per sample on static state, so
// one JS->Wasm call covers a whole sample.
import { QCN_CP_Q, QCN_CP_QF, QCN_CP_QUANT, QCN_CP_Q_EQ, QCN_CP_SIZE, QCN_CP_W, QUANT_LINEAR } from '../layout';
import { qcnCpConfigure, qcnCpEnqueue, qcnCpDequeue } from '../qcn_cp';

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
  store<i32>(BENCH_CP + QCN_CP_Q_EQ, 26000);
  store<i32>(BENCH_CP + QCN_CP_W, 2);
  store<i32>(BENCH_CP + QCN_CP_QUANT, QUANT_LINEAR);
  qcnCpConfigure(BENCH_CP, 1, 0);
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
