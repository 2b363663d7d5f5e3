// One partition of a partitioned run (docs/sim.md, "One run on every core"): the fabric's switches
// split into groups, each run by its own worker thread with its own instance of this module over
// one shared memory, in conservative time windows (Lubachevsky, "Efficient Distributed Event-Driven
// Simulations of Multiple-Loop Networks", CACM 1989: YAWNS). The lookahead L is the smallest time a
// frame takes from the start of its transmission on a cut link to its arrival (the smallest frame's
// serialisation plus the link's delay), so a frame sent in the window [T, T + L) arrives at or
// after T + L, in a later window: within a window the partitions share nothing and run alone.
//
// A partition owns its ports (with their nodes and the flows they source), its part of the packet
// pool, its event queues, its counters and watchdog log. A frame whose receiving port is
// another partition's is copied into the ring for that partition and this window's parity, and its
// record goes back to this partition's free list; after the window's barrier the receiver copies
// each frame into a record of its own and queues its arrival with the key the serial engine gives
// it (time, ARRIVE, receiving port). Events run in the same (time, key) order as in one instance,
// and the keys do not depend on the partitioning, so every output is the serial run's.
//
// Rings: one per (sender, receiver, window parity), RG_* records in a table the host laid out. The
// sender writes parity n's rings in window n; the receiver drains them after window n's barrier,
// while senders already write parity n + 1's. Invariant: a ring is written by one thread and read
// by one other, never at once (the barrier between them orders the accesses).
import {
  PT_COUNTERS, PT_HEAP, PT_HEAP_CAP, PT_NPARTS, PT_OWNER, PT_PART, PT_POOL_HI, PT_POOL_LO, PT_RINGS, PT_HEAP_RECORDS,
  PT_PFC_TIMES, PT_TOUCH_TARGET, PT_TX_CAP, PT_WDLOG, RG_CAP, RG_COUNT, RG_ENTRIES, RG_ENTRY, RG_SIZE, SK_PORT,
  SK_SIZE,
} from './layout';
import { EV_ARRIVE, FOREVER, allocPacket, ctr, freePacket, nParts, owner, part, pfcTimes, pktAt, wdlog } from './arena';
import { runEvents, useTouchTarget } from './engine';
import { linkPool, seedEvents } from './setup';
import { ARR, evMinTime, evOverflow, evPushKeyed, evReset, evUseRecords } from './events';

/** The ring table (PT_RINGS) and the parity of the current window. */
let rings: usize = 0;
let parity: i32 = 0;
/** Set when a ring was full (the host sized it too small): the run stops with an error. */
let ringOverflow: i32 = 0;
/** Earliest arrival time of the frames this partition sent to others in the current window. */
let sentMin: i64 = FOREVER;

@inline
function ringAt(from: i32, to: i32, par: i32): usize {
  return rings + <usize>(((from * nParts + to) << 1) + par) * RG_SIZE;
}

/** Sends packet k (bound for port peer of another partition, arriving at `at`) through this window's ring. */
export function ringSend(peer: i32, at: i64, k: i32): void {
  const rg = ringAt(part, <i32>load<u8>(owner + <usize>peer), parity);
  const n = load<i32>(rg + RG_COUNT);
  if (n < load<i32>(rg + RG_CAP)) {
    const e = <usize>load<i32>(rg + RG_ENTRIES) + <usize>n * RG_ENTRY;
    store<i64>(e, at);
    memory.copy(e + 8, pktAt(k), SK_SIZE);
    store<i32>(rg + RG_COUNT, n + 1);
    if (at < sentMin) sentMin = at;
  } else ringOverflow = 1;
  freePacket(k);
}

/**
 * Makes this instance run the partition described by the record at `rec` (PT_*), after simSetup
 * configured the shared tables and simAttach read them: its statics, packet records and heaps, then
 * the first events of what it owns. Returns the heap overflow flag (a sizing bug).
 */
export function simStartPartition(rec: usize): i32 {
  part = load<i32>(rec + PT_PART);
  nParts = load<i32>(rec + PT_NPARTS);
  owner = <usize>load<i32>(rec + PT_OWNER);
  ctr = <usize>load<i32>(rec + PT_COUNTERS);
  wdlog = <usize>load<i32>(rec + PT_WDLOG);
  rings = <usize>load<i32>(rec + PT_RINGS);
  evUseRecords(rec + PT_HEAP_RECORDS);
  pfcTimes = rec + PT_PFC_TIMES;
  useTouchTarget(rec + PT_TOUCH_TARGET);
  parity = 0;
  sentMin = FOREVER;
  ringOverflow = 0;
  const lo = load<i32>(rec + PT_POOL_LO);
  const hi = load<i32>(rec + PT_POOL_HI);
  linkPool(lo, hi);
  evReset(<usize>load<i32>(rec + PT_HEAP), load<i32>(rec + PT_HEAP_CAP), load<i32>(rec + PT_TX_CAP), hi - lo);
  seedEvents();
  return evOverflow;
}

/** Handles this partition's events due at or before `last` (the window's end - 1); returns its error flags. */
export function simRunWindow(last: i64): i32 {
  runEvents(last);
  return evOverflow | (ringOverflow << 1);
}

/** The earliest time at which this partition may act next: its next event, or the arrival of a frame it sent. */
export function simWindowMin(): i64 {
  const t = evMinTime();
  return t < sentMin ? t : sentMin;
}

/**
 * After the window's barrier: queues the arrivals of the frames the other partitions sent here in
 * the window, each in a record of this partition's pool, and turns to the next window's parity.
 * A frame finding the pool exhausted is lost and counted (SC_POOL_EXHAUSTED), as at a NIC.
 * Returns the number of frames taken in.
 */
export function simDrain(): i32 {
  let drained = 0;
  for (let from = 0; from < nParts; from++) {
    if (from == part) continue;
    const rg = ringAt(from, part, parity);
    const n = load<i32>(rg + RG_COUNT);
    let e = <usize>load<i32>(rg + RG_ENTRIES);
    for (let i = 0; i < n; i++, e += RG_ENTRY) {
      const k = allocPacket();
      if (k < 0) continue;
      const ka = pktAt(k);
      memory.copy(ka, e + 8, SK_SIZE);
      const peer = <u32>load<i32>(ka + SK_PORT);
      evPushKeyed(ARR, load<i64>(e), (EV_ARRIVE << 28) | peer, (EV_ARRIVE << 28) | <u32>k);
    }
    store<i32>(rg + RG_COUNT, 0);
    drained += n;
  }
  parity ^= 1;
  sentMin = FOREVER;
  return drained;
}
