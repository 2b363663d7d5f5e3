// Batched micro-benchmark driver of ETS selection for `dcbkit bench` (bench/kernels.ts): it runs the kernel's
// per-packet function n times over static state, so one JS->Wasm call covers a whole sample and
// the loop body is exactly the inlined kernel plus the driver's own stimulus arithmetic.
import { etsConfigure, etsEmptied, etsSelect } from '../ets';
import { ETS_BW, ETS_BYTES, ETS_PRIO_TC, ETS_TSA, TSA_ETS } from '../layout';

const BENCH_ETS: usize = memory.data(ETS_BYTES, 16);
const BENCH_HEAD: usize = memory.data(32, 16);

/**
 * Sets up the DWRR benchmark record: 8 ETS TCs with bw 30/20/10/10/10/10/5/5, max frame 1518 B,
 * every TC backlogged with a head frame of 84 B.
 */
export function etsBenchSetup(): void {
  for (let tc = 0; tc < 8; tc++) {
    store<u8>(BENCH_ETS + ETS_PRIO_TC + tc, <u8>tc);
    store<u8>(BENCH_ETS + ETS_TSA + tc, <u8>TSA_ETS);
    store<i32>(BENCH_HEAD + (tc << 2), 84);
  }
  store<u64>(BENCH_ETS + ETS_BW, 0x05050A0A0A0A141E); // 30 20 10 10 10 10 5 5, TC 0 in the low byte
  etsConfigure(BENCH_ETS, 1518);
}

/**
 * n DWRR selections, all TCs backlogged except a rotating one that is blocked; after each pick
 * the selected TC's next head frame gets a pseudo-random wire size in 84..1107 B, and every 64th
 * pick the TC is reported empty. Returns the sum of selected TCs (keeps the work observable).
 */
export function etsBenchRun(n: i32): i32 {
  let sink = 0;
  let x: u32 = 0x2545F491;
  for (let i = 0; i < n; i++) {
    const tc = etsSelect(BENCH_ETS, 0xFF, 1 << (i & 7), BENCH_HEAD);
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    store<i32>(BENCH_HEAD + (<usize>tc << 2), 84 + <i32>(x & 1023));
    if ((i & 63) == 63) etsEmptied(BENCH_ETS, tc);
    sink += tc;
  }
  return sink;
}
