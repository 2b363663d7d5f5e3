// Event queue of the fabric simulator: two binary min-heaps (Williams 1964) and two FIFOs in (time,
// key) order, of 16-byte entries
//
//    0  i64  time     picoseconds
//    8  u32  key      event class (bits 28..31) and the entity it belongs to (bits 0..27)
//   12  u32  payload  event type (bits 28..31) and the index of the record it works on (bits 0..27)
//
// Order. Events run in (time, key) order: equal times by event class, then by the entity's id
// (docs/sim.md "Event order"). For every event but a frame arrival the key is the payload itself
// (TX_DONE(port), FLOW(flow), WAKE(port), ...); an arrival's payload names its packet record but its
// key names the receiving port, so neither the packet pool's free-list order nor the order in which
// events were queued decides anything. A partitioned run computes the same keys from the same
// entities, so it can reproduce the order. Two live entries with equal (time, key) have equal
// payloads (an arrival's receiving port takes at most one frame per instant: its peer serialises
// them one after another), so which of two such copies runs first cannot matter.
//
// FIFO TX holds transmitter-done events (at most one per port), FIFO ARR_FIFO and heap ARR the frame
// arrivals (at most one per packet record), heap MAIN every other event (traffic sources, timers)
// and the transmitter-done events FIFO TX did not take. The next event is the earliest root or
// FIFO head by (time, key), so the pop order is that of a single heap, whichever queue took an
// event; the split keeps each frequent push and pop in a queue of its own kind (a transmitter-done
// event never sifts past every frame in flight and source timer).
// The FIFOs take the events queued in order. A frame ends its serialisation time after it starts
// and arrives the link's delay later, so where frames and links are alike (a fat tree's data frames)
// each transmitter-done event and each arrival queued is the latest of its kind so far. Such a push
// is appended, where a heap would sift it through every frame in flight, on levels that miss the
// caches; one that would order before the FIFO's tail goes to the FIFO's heap (MAIN for TX, ARR for
// the arrivals), as does any push into a full FIFO.
// Invariants: each heap's (time, key)[parent] <= (time, key)[child]; each FIFO's entries in (time,
// key) order from head to tail.
// The queues live in the simulator arena, reserved at init (the host sizes the area from the bound
// on outstanding events: one per packet record, a few per port and flow, plus the arrival FIFO's
// SIM_ARR_FIFO_MAX at most); push never grows them.
//
// The engine handles the next event at its root in place (evTake ... evDone): most handlers push
// at least one event, and the first one into the same heap replaces the root with a single
// sift-down, saving the pop's sift of the last entry and the push's sift-up. The root is leaving
// anyway, so the replacement is exact whatever the new entry's key, even one below the old root's.
// A FIFO whose only entry is the event handled is replaced the same way; into a longer one the push
// appends, and evDone then removes the head.

import { rngNext } from '../rng';
import { SIM_ARR_FIFO_MAX } from './layout';

/**
 * Queue records: base address, count, capacity (i32 each, 16-byte stride); a FIFO's base is its head
 * entry (as a heap's is its root) and its fourth word the address of its first slot. A serial run
 * keeps them in static data; each partition of a partitioned run keeps its own in its partition
 * record (evUseRecords), because static data is shared by every instance over a shared memory.
 */
const HEAPS: usize = memory.data(64, 16);
export let MAIN: usize = HEAPS;
export let TX: usize = HEAPS + 16;
export let ARR: usize = HEAPS + 32;
export let ARR_FIFO: usize = HEAPS + 48;

/** Keeps this instance's four queue records at `at` (64 bytes) instead of the static ones. */
export function evUseRecords(at: usize): void {
  MAIN = at;
  TX = at + 16;
  ARR = at + 32;
  ARR_FIFO = at + 48;
}
const H_BASE: usize = 0;
const H_COUNT: usize = 4;
const H_CAP: usize = 8;
const R_FIRST: usize = 12;

/** Set when a push found a heap full (the host sized it too small): the run stops with an error. */
export let evOverflow: i32 = 0;
/** The queue whose root or head is the event being handled (evTake), 0 when none or after its replacement. */
let evTaken: usize = 0;

/**
 * Splits `cap` entries at `base`: `txCap` for FIFO TX, `arrCap` for heap ARR, min(arrCap,
 * SIM_ARR_FIFO_MAX) for ARR_FIFO, the rest for MAIN.
 */
export function evReset(base: usize, cap: i32, txCap: i32, arrCap: i32): void {
  const fifoCap = min(arrCap, SIM_ARR_FIFO_MAX);
  const mainCap = cap - txCap - arrCap - fifoCap;
  setHeap(MAIN, base, mainCap);
  setHeap(TX, base + (<usize>mainCap << 4), txCap);
  store<i32>(TX + R_FIRST, <i32>(base + (<usize>mainCap << 4)));
  setHeap(ARR, base + (<usize>(mainCap + txCap) << 4), arrCap);
  const first = base + (<usize>(mainCap + txCap + arrCap) << 4);
  setHeap(ARR_FIFO, first, fifoCap);
  store<i32>(ARR_FIFO + R_FIRST, <i32>first);
  evOverflow = 0;
  evTaken = 0;
}

function setHeap(h: usize, base: usize, cap: i32): void {
  store<i32>(h + H_BASE, <i32>base);
  store<i32>(h + H_COUNT, 0);
  store<i32>(h + H_CAP, cap);
}

@inline export function evCount(h: usize): i32 { return load<i32>(h + H_COUNT); }
@inline function baseOf(h: usize): usize { return <usize>load<i32>(h + H_BASE); }

/**
 * (t, q) orders before (u, r): the sign of the time difference, or of the keys' when the times are
 * equal, picked by a conditional move. Times are never negative, so t - u cannot overflow; keys are
 * u32, so their difference in i64 is exact. Written as `t < u || (t == u && q < r)`, V8 built the
 * boolean with three conditional jumps wherever it was tested.
 */
@inline
function orderedBefore(t: i64, q: u32, u: i64, r: u32): bool {
  const dt = t - u;
  return select<i64>(dt, <i64>q - <i64>r, dt != 0) < 0;
}

/** (time, key) of entry a orders before (t, q). */
@inline
function earlier(a: usize, t: i64, q: u32): bool {
  return orderedBefore(load<i64>(a), load<u32>(a, 8), t, q);
}

/** (t, q) orders before entry a. */
@inline
function before(t: i64, q: u32, a: usize): bool {
  return orderedBefore(t, q, load<i64>(a), load<u32>(a, 8));
}

/** Writes the entry (time t, key q, payload) at `at`. */
@inline
function writeEntry(at: usize, t: i64, q: u32, payload: u32): void {
  store<i64>(at, t);
  store<u32>(at, q, 8);
  store<u32>(at, payload, 12);
}

/** Copies the 16-byte entry at `from` to `to`. */
@inline
function moveEntry(to: usize, from: usize): void {
  store<i64>(to, load<i64>(from));
  store<i64>(to, load<i64>(from, 8), 8);
}

// Both sifts move a hole instead of swapping: one copy per level, the new entry written once.
// Inlined: pushes and pops sit on the per-frame path (a call costs as much as a short sift).
/** Queues an event into heap h (MAIN or ARR) whose key is its payload. */
@inline
export function evPush(h: usize, time: i64, payload: u32): void {
  evPushKeyed(h, time, payload, payload);
}

/** Queues an event into heap h ordered by (time, key) (ARR: the key names the receiving port). */
@inline
export function evPushKeyed(h: usize, time: i64, key: u32, payload: u32): void {
  if (evTaken == h) {
    evTaken = 0;
    siftDownFromRoot(h, time, key, payload, evCount(h));
    return;
  }
  const n = evCount(h);
  if (n >= load<i32>(h + H_CAP)) {
    evOverflow = 1;
    return;
  }
  const base = baseOf(h);
  store<i32>(h + H_COUNT, n + 1);
  let i = n;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const pat = base + (<usize>parent << 4);
    if (!before(time, key, pat)) break;
    moveEntry(base + (<usize>i << 4), pat);
    i = parent;
  }
  writeEntry(base + (<usize>i << 4), time, key, payload);
}

/** Queues a frame arrival (key: its receiving port) into ARR_FIFO if it orders after its tail, else into heap ARR. */
@inline
export function evPushArrival(time: i64, key: u32, payload: u32): void {
  if (!fifoAppend(ARR_FIFO, time, key, payload)) evPushKeyed(ARR, time, key, payload);
}

/** Queues a transmitter-done event into FIFO TX if it orders after its tail, else into heap MAIN. */
@inline
export function evPushDone(time: i64, payload: u32): void {
  txPush(time, payload, payload);
}

@inline
function txPush(time: i64, key: u32, payload: u32): void {
  if (!fifoAppend(TX, time, key, payload)) evPushKeyed(MAIN, time, key, payload);
}

/** Appends (t, q, payload) to FIFO f if it has room and the entry orders after its tail; returns whether it did. */
@inline
function fifoAppend(f: usize, time: i64, key: u32, payload: u32): bool {
  const n = evCount(f);
  if (n == 1 && evTaken == f) {
    // Its only entry is the event being handled, which leaves anyway: replaced in place.
    evTaken = 0;
    writeEntry(baseOf(f), time, key, payload);
    return true;
  }
  const cap = load<i32>(f + H_CAP);
  if (n >= cap) return false;
  const first = <usize>load<i32>(f + R_FIRST);
  const end = first + (<usize>cap << 4);
  let slot = baseOf(f) + (<usize>n << 4);
  if (slot >= end) slot -= <usize>cap << 4;
  const tail = (slot == first ? end : slot) - 16;
  if (n != 0 && before(time, key, tail)) return false;
  writeEntry(slot, time, key, payload);
  store<i32>(f + H_COUNT, n + 1);
  return true;
}

/** Payload of FIFO f's entry after its head (0: none). */
@inline
export function evFifoSecond(f: usize): u32 {
  if (evCount(f) < 2) return 0;
  let at = baseOf(f) + 16;
  if (at == <usize>load<i32>(f + R_FIRST) + (<usize>load<i32>(f + H_CAP) << 4)) at = <usize>load<i32>(f + R_FIRST);
  return load<u32>(at, 12);
}

/** Removes FIFO f's head. */
@inline
function fifoPop(f: usize): void {
  const first = <usize>load<i32>(f + R_FIRST);
  let head = baseOf(f) + 16;
  if (head == first + (<usize>load<i32>(f + H_CAP) << 4)) head = first;
  store<i32>(f + H_BASE, <i32>head);
  store<i32>(f + H_COUNT, evCount(f) - 1);
}

/**
 * The queue holding the next event (its root or head is the earliest by (time, key)); 0 when all are
 * empty. Branches, not selects: which queue comes next follows the traffic's rhythm, which the
 * predictor learns on a regular workload (selects over three heap roots measured 10 % slower on the
 * incast). The earliest so far is kept in locals, (FOREVER_T, u32 max) before any: no key is that.
 * Each root is tested by time and, on a tie only, by key, in two plain ifs (as one ||, V8 built
 * the boolean with three jumps and tested it; orderedBefore here cost the k = 8 tree 13
 * instructions per hop more).
 */
@inline
export function evNext(): usize {
  let best: usize = 0;
  let bt: i64 = FOREVER_T;
  let bq: u32 = 0xffffffff;
  if (evCount(MAIN) != 0) {
    const r = baseOf(MAIN);
    best = MAIN; bt = load<i64>(r); bq = load<u32>(r, 8);
  }
  if (evCount(TX) != 0) {
    const r = baseOf(TX);
    const t = load<i64>(r);
    if (t < bt) { best = TX; bt = t; bq = load<u32>(r, 8); }
    else if (t == bt && load<u32>(r, 8) < bq) { best = TX; bq = load<u32>(r, 8); }
  }
  if (evCount(ARR) != 0) {
    const r = baseOf(ARR);
    const t = load<i64>(r);
    if (t < bt) { best = ARR; bt = t; bq = load<u32>(r, 8); }
    else if (t == bt && load<u32>(r, 8) < bq) { best = ARR; bq = load<u32>(r, 8); }
  }
  if (evCount(ARR_FIFO) != 0) {
    const r = baseOf(ARR_FIFO);
    const t = load<i64>(r);
    if (t < bt) best = ARR_FIFO;
    else if (t == bt && load<u32>(r, 8) < bq) best = ARR_FIFO;
  }
  return best;
}

/** Time of the earliest pending event of all four queues (FOREVER_T when all are empty). */
export function evMinTime(): i64 {
  const h = evNext();
  return h == 0 ? FOREVER_T : evTopTime(h);
}

/** Time of the root or head of queue h (non-empty). */
@inline
export function evTopTime(h: usize): i64 {
  return load<i64>(baseOf(h));
}

/** Payload of entry i of heap h, or of a FIFO's head (i = 0) (0: no such entry; no event has type 0). */
@inline
export function evPayloadAt(h: usize, i: i32): u32 {
  return i < evCount(h) ? load<u32>(baseOf(h) + (<usize>i << 4), 12) : 0;
}

/** Starts handling the root or head of queue h: returns its payload; it stays there until evDone. */
@inline
export function evTake(h: usize): u32 {
  evTaken = h;
  return load<u32>(baseOf(h), 12);
}

/** Ends handling the event of evTake: removes it unless a push already replaced it. */
@inline
export function evDone(): void {
  const h = evTaken;
  if (h != 0) {
    evTaken = 0;
    if (h == ARR_FIFO || h == TX) fifoPop(h);
    else evPop(h);
  }
}

/**
 * Writes (t, q, payload) into the hole at the root of the first n entries of heap h and sifts it
 * down. The smaller child is chosen by select, not by a branch: which child is smaller is a coin
 * toss the predictor loses half the time, on every level.
 */
@inline
function siftDownFromRoot(h: usize, t: i64, q: u32, payload: u32, n: i32): void {
  const base = baseOf(h);
  let i = 0;
  while (true) {
    const l = 2 * i + 1;
    if (l >= n) break;
    let cat = base + (<usize>l << 4);
    if (l + 1 < n) {
      const rat = cat + 16;
      const right = orderedBefore(load<i64>(rat), load<u32>(rat, 8), load<i64>(cat), load<u32>(cat, 8));
      cat = select<usize>(rat, cat, right);
    }
    if (!earlier(cat, t, q)) break;
    moveEntry(base + (<usize>i << 4), cat);
    i = <i32>((cat - base) >> 4);
  }
  writeEntry(base + (<usize>i << 4), t, q, payload);
}

/** Removes the root of heap h and returns its payload: the last entry fills the hole at the root. */
@inline
export function evPop(h: usize): u32 {
  const base = baseOf(h);
  const payload = load<u32>(base, 12);
  const n = evCount(h) - 1;
  store<i32>(h + H_COUNT, n);
  if (n > 0) {
    const last = base + (<usize>n << 4);
    siftDownFromRoot(h, load<i64>(last), load<u32>(last, 8), load<u32>(last, 12), n);
  }
  return payload;
}

/** (t, q) orders before (u, r). */
@inline
function lessKey(t: i64, q: u32, u: i64, r: u32): bool {
  return t < u || (t == u && q < r);
}

/**
 * Test driver (test/sim-events.test.ts): runs n steps of a simulation-like workload on queues of
 * `cap` entries (an eighth each for TX, ARR and ARR_FIFO) at `base` and returns the number
 * of handled events that were not the earliest pending one by (time, key). Each step handles the
 * next event (evTake), pushes 0-2 events into any queue at now + a random delay (0 half the time,
 * for ties; a FIFO's pushes that order before its tail go to its heap, as in the engine) with a random
 * key of that queue's classes (64 entities, for equal keys too), then evDone; when all queues run
 * dry it refills MAIN. The earliest pending event after a step is the earliest of those
 * left, which are not before the one handled, and those pushed: so the next one handled is not
 * after the earliest pushed, and it is before the one handled only if it is the earliest pushed.
 * State: an xorshift32 at `rng`.
 */
export function evSelfTest(base: usize, cap: i32, n: i32, rng: usize): i32 {
  evReset(base, cap, cap >> 3, cap >> 3);
  let bad = 0;
  let lastT: i64 = -1;
  let lastQ: u32 = 0;
  let minT: i64 = FOREVER_T;
  let minQ: u32 = 0;
  for (let i = 0; i < 4; i++) evPush(MAIN, <i64>(rngNext(rng) & 1023), (3 << 28) | (rngNext(rng) & 63));
  for (let step = 0; step < n; step++) {
    let h = evNext();
    if (h == 0) {
      evPush(MAIN, lastT + 1 + <i64>(rngNext(rng) & 1023), (3 << 28) | (rngNext(rng) & 63));
      h = MAIN;
      minT = FOREVER_T;
    }
    const at = baseOf(h);
    const t = load<i64>(at);
    const q = load<u32>(at, 8);
    if (lessKey(minT, minQ, t, q)) bad++;
    else if (lessKey(t, q, lastT, lastQ) && (t != minT || q != minQ)) bad++;
    lastT = t;
    lastQ = q;
    minT = FOREVER_T;
    evTake(h);
    const pushes = <i32>(rngNext(rng) % 3);
    for (let k = 0; k < pushes; k++) {
      const r = rngNext(rng);
      const into = (r & 6) == 2 ? TX : (r & 6) == 4 ? ARR : (r & 6) == 6 ? ARR_FIFO : MAIN;
      if (evCount(into) >= load<i32>(into + H_CAP) - 1 || evCount(ARR) >= load<i32>(ARR + H_CAP) - 1 || evCount(MAIN) >= load<i32>(MAIN + H_CAP) - 1) continue;
      const e = (r >> 20) & 63;
      const key = into == TX ? (1 << 28) | e : into == ARR || into == ARR_FIFO ? (2 << 28) | e : ((3 + ((r >> 26) & 7)) << 28) | e;
      const at2 = t + <i64>((r & 1) != 0 ? 0 : (r >> 8) & 4095);
      if (into == ARR_FIFO) evPushArrival(at2, key, <u32>step);
      else if (into == TX) txPush(at2, key, <u32>step);
      else evPushKeyed(into, at2, key, <u32>step);
      if (lessKey(at2, key, minT, minQ)) { minT = at2; minQ = key; }
    }
    evDone();
  }
  return bad + evOverflow;
}

const FOREVER_T: i64 = 0x7fffffffffffffff;
