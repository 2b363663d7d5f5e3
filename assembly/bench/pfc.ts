// Batched micro-benchmark driver of the PFC kernel (assembly/pfc.ts) for `dcbkit bench`
// (bench/kernels.ts): a fixed cycle of arrivals and departures over one static record, so one
// JS->Wasm call covers a whole sample and the loop body is the inlined kernel plus the driver's
// own stimulus arithmetic.
import { pfcArrive, pfcBlockedMask, pfcConfigure, pfcDepart, pfcTakePending } from '../pfc';
import {
  PFC_ENABLE, PFC_HEADROOM, PFC_MODE, PFC_MODE_PFC, PFC_OCC, PFC_PAUSE_TIME, PFC_PORT_UNIT, PFC_SIZE, PFC_SPEED_BPS, PFC_UNITS,
  PFC_XOFF_TH, PFC_XON_TH,
} from '../layout';

/** The ingress accounting part of one benchmark item: arrival or departure, then the pending mask. */
@inline
function benchAccount(rec: usize, item: usize, now: i64): i32 {
  const word = load<i32>(item);
  const prio = word & 7;
  const bytes = word >>> 16;
  let accepted = 0;
  if ((word & 8) != 0) {
    pfcDepart(rec, prio, bytes);
  } else {
    accepted = pfcArrive(rec, prio, bytes, now);
  }
  return accepted + pfcTakePending(rec);
}

/** One benchmark item (see pfcBenchRunItems); returns the value folded into the checksum. */
@inline
function benchItem(rec: usize, item: usize, now: i64): i32 {
  return benchAccount(rec, item, now) + pfcBlockedMask(rec, now);
}

/**
 * Batched driver over caller-provided items: n accounting updates, 8 bytes each at itemsPtr:
 *   word 0: bits 0..2 priority, bit 3 = departure (else arrival), bits 16..31 frame bytes;
 *   word 1: time step before this item, ps (u32).
 * Arrivals go through pfcArrive, departures through pfcDepart (the caller departs only what was
 * accepted); the pending mask is taken and the blocked mask sampled after each item. Returns a
 * checksum of accept flags, pending and blocked masks and the final port occupancy.
 */
export function pfcBenchRunItems(rec: usize, itemsPtr: usize, n: i32): i32 {
  let now: i64 = 0;
  let sum: i32 = 0;
  for (let i = 0; i < n; i++) {
    const item = itemsPtr + (<usize>i << 3);
    now += <i64>load<u32>(item + 4);
    sum = sum * 31 + benchItem(rec, item, now);
  }
  return sum ^ load<i32>(rec + PFC_OCC + (PFC_PORT_UNIT << 2));
}

// Static state of the `dcbkit bench` driver (bench/kernels.ts calls pfcBenchSetup() then pfcBenchRun(n)).
const BENCH_ITEMS: i32 = 1024;
const BENCH_REC: usize = memory.data(PFC_SIZE, 16);
const BENCH_ITEM_BUF: usize = memory.data(BENCH_ITEMS << 3, 16);
const BENCH_CURSOR: usize = memory.data(16, 16); // i32 next item, i64 time at +8

/**
 * Benchmark set-up: a 100G PFC port with priorities 3 and 4 lossless (xoff 4000 B, xon 2000 B,
 * headroom 1 MiB so nothing drops), and a cycle of 1024 items: blocks of 64 arrivals of
 * pseudo-random priority and size 64..1563 B, each followed by the 64 matching departures in
 * order, one frame time (80 ps/B) apart. The cycle leaves every occupancy at 0.
 */
export function pfcBenchSetup(): void {
  store<i32>(BENCH_REC + PFC_MODE, PFC_MODE_PFC);
  store<i32>(BENCH_REC + PFC_ENABLE, 0x18);
  store<i32>(BENCH_REC + PFC_PAUSE_TIME, 0xFFFF);
  store<i64>(BENCH_REC + PFC_SPEED_BPS, 100_000_000_000);
  for (let u = 0; u < PFC_UNITS; u++) {
    store<i32>(BENCH_REC + PFC_XOFF_TH + (<usize>u << 2), 4000);
    store<i32>(BENCH_REC + PFC_XON_TH + (<usize>u << 2), 2000);
    store<i32>(BENCH_REC + PFC_HEADROOM + (<usize>u << 2), 1 << 20);
  }
  pfcConfigure(BENCH_REC);
  let x: u32 = 0x9E3779B9;
  for (let block = 0; block < BENCH_ITEMS; block += 128) {
    for (let i = 0; i < 64; i++) {
      x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
      const bytes = 64 + <i32>(x % 1500);
      const word = <i32>(x >>> 29) | (bytes << 16);
      const a = BENCH_ITEM_BUF + (<usize>(block + i) << 3);
      const d = a + (64 << 3);
      store<i32>(a, word);
      store<i32>(a + 4, bytes * 80);
      store<i32>(d, word);
      store<i32>(d + 4, bytes * 80);
    }
  }
  store<i32>(BENCH_CURSOR, 0);
  store<i64>(BENCH_CURSOR + 8, 0);
}

/** Items [from, to) of the set-up cycle, all arrivals or all departures; returns the folded results. */
@inline
function benchRange(from: i32, to: i32, departures: bool, withBlocked: bool, clock: usize): i32 {
  let now = load<i64>(clock);
  let sum: i32 = 0;
  for (let i = from; i < to; i++) {
    const item = BENCH_ITEM_BUF + (<usize>i << 3);
    const word = load<i32>(item);
    now += <i64>load<u32>(item + 4);
    if (departures) pfcDepart(BENCH_REC, word & 7, word >>> 16);
    else sum += pfcArrive(BENCH_REC, word & 7, word >>> 16, now);
    sum += pfcTakePending(BENCH_REC);
    if (withBlocked) sum += pfcBlockedMask(BENCH_REC, now);
  }
  store<i64>(clock, now);
  return sum;
}

/**
 * n items of the set-up cycle from where the last call stopped; `withBlocked` adds the egress
 * query. The cycle alternates runs of 64 arrivals and 64 departures, and each run is one loop
 * without a per-item arrival/departure test, so the figure is the accounting update, not the
 * driver's dispatch.
 */
@inline
function benchLoop(n: i32, withBlocked: bool): i32 {
  let cursor = load<i32>(BENCH_CURSOR);
  let left = n;
  let sum: i32 = 0;
  while (left > 0) {
    const runEnd = (cursor | 63) + 1; // the end of the current run of 64
    const to = runEnd - cursor < left ? runEnd : cursor + left;
    if ((cursor & 64) != 0) sum += benchRange(cursor, to, true, withBlocked, BENCH_CURSOR + 8);
    else sum += benchRange(cursor, to, false, withBlocked, BENCH_CURSOR + 8);
    left -= to - cursor;
    cursor = to & (BENCH_ITEMS - 1);
  }
  store<i32>(BENCH_CURSOR, cursor);
  return sum;
}

/** n accounting updates from the set-up cycle (continuing where the last call stopped); returns a checksum. */
export function pfcBenchRun(n: i32): i32 {
  return benchLoop(n, true);
}

/**
 * Like pfcBenchRun, over the same items, but only the ingress accounting update (arrival or
 * departure, then the pending mask) without the egress blocked-mask query, so `dcbkit bench` can
 * report the two costs apart.
 */
export function pfcBenchRunAccounting(n: i32): i32 {
  return benchLoop(n, false);
}
