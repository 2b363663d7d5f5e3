// Batched micro-benchmark driver of the credit kernel (assembly/credit.ts) for `dcbkit bench`
// (bench/kernels.ts): creditBenchSetup() once, then creditBenchRun(n) per sample on one static flow.
import {
  creditConfigure, creditDrain, creditGrantValue, creditOnGrant, creditOnSync, creditReceive, creditSyncValue,
  creditTrySend,
} from '../credit';
import { CREDIT_AGING_PS, CREDIT_CAPACITY, CREDIT_K, CREDIT_SIZE, CREDIT_UNIT } from '../layout';


const BENCH_REC: usize = memory.data(CREDIT_SIZE, 16);
const BENCH_RNG: usize = memory.data(16, 16); // u32 xorshift state, i64 time at +8

/** k = 16, U = 64 B, a 512-unit (32 KiB) receiver buffer, 100 us aging, one grant in hand. */
export function creditBenchSetup(): void {
  store<i32>(BENCH_REC + CREDIT_K, 16);
  store<i32>(BENCH_REC + CREDIT_UNIT, 64);
  store<i32>(BENCH_REC + CREDIT_CAPACITY, 512);
  store<i64>(BENCH_REC + CREDIT_AGING_PS, 100_000_000);
  creditConfigure(BENCH_REC);
  creditOnGrant(BENCH_REC, creditGrantValue(BENCH_REC), 0);
  store<u32>(BENCH_RNG, 0x2545F491);
  store<i64>(BENCH_RNG + 8, 0);
}

/**
 * n per-frame steps on one flow: the sender tries a frame of pseudo-random size 64..1087 B
 * (creditTrySend incl. the aging check); a frame sent is received and drained at once
 * (creditReceive, creditDrain); every 64th step a sync and a grant are exchanged. Time advances
 * 80 ps per byte (100G). Returns the sum of units sent.
 */
export function creditBenchRun(n: i32): i32 {
  let x = load<u32>(BENCH_RNG);
  let now = load<i64>(BENCH_RNG + 8);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    const bytes = 64 + <i32>(x & 1023);
    now += <i64>bytes * 80;
    const sent = creditTrySend(BENCH_REC, bytes, now);
    if (sent != 0) {
      creditReceive(BENCH_REC, bytes);
      creditDrain(BENCH_REC, bytes);
    }
    if ((i & 63) == 63) {
      creditOnSync(BENCH_REC, creditSyncValue(BENCH_REC));
      creditOnGrant(BENCH_REC, creditGrantValue(BENCH_REC), now);
    }
    sum += sent;
  }
  store<u32>(BENCH_RNG, x);
  store<i64>(BENCH_RNG + 8, now);
  return sum;
}
