// Event queue of the fabric simulator: a binary min-heap (Williams 1964) of 16-byte entries
//
//    0  i64  time     picoseconds
//    8  u32  seq      insertion number: equal times pop in insertion order (determinism)
//   12  u32  payload  event type (bits 28..31) and the entity index (bits 0..27)
//
// The heap lives in the simulator arena at `evBase` with room for `evCap` entries, reserved at
// init; push never grows it (the host sizes it from the bound on outstanding events: one per
// frame in flight, a few per port and flow). Invariant: time[parent] <= time[child] with ties
// broken by seq, so the pop order is a total order independent of heap shape.
//
// The engine handles the root in place (evTake ... evDone): most handlers push at least one event,
// and the first one replaces the root with a single sift-down, saving the pop's sift of the last
// entry and the push's sift-up.

import { rngNext } from '../rng';

export let evBase: usize = 0;
export let evCount: i32 = 0;
export let evCap: i32 = 0;
let evSeq: u32 = 0;
/** Set when a push found the heap full (the host sized it too small): the run stops with an error. */
export let evOverflow: i32 = 0;
/**
 * Set while the root is the event being handled (evTake): the first push of the handler replaces
 * it with one sift-down from the root instead of a pop (sift-down of the last entry) plus a push
 * (sift-up); evDone pops it if the handler pushed nothing. The pop order is unchanged: it depends
 * only on (time, seq).
 */
let evTaken: bool = false;

export function evReset(base: usize, cap: i32): void {
  evBase = base;
  evCap = cap;
  evCount = 0;
  evSeq = 0;
  evOverflow = 0;
  evTaken = false;
}

/** (time, seq) of entry a orders before (t, q). */
@inline
function earlier(a: usize, t: i64, q: u32): bool {
  const ta = load<i64>(a);
  return ta < t || (ta == t && load<u32>(a, 8) < q);
}

/** Copies the 16-byte entry at `from` to `to`. */
@inline
function moveEntry(to: usize, from: usize): void {
  store<i64>(to, load<i64>(from));
  store<i64>(to, load<i64>(from, 8), 8);
}

// Both sifts move a hole instead of swapping: one copy per level, the new entry written once.
// Inlined: pushes and pops sit on the per-frame path (a call costs as much as a short sift).
@inline
export function evPush(time: i64, payload: u32): void {
  if (evTaken) {
    evTaken = false;
    replaceRoot(time, evSeq++, payload);
    return;
  }
  if (evCount >= evCap) {
    evOverflow = 1;
    return;
  }
  const seq = evSeq++;
  const base = evBase; // a local: the loop then keeps it in a register
  let i = evCount++;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const pat = base + (<usize>parent << 4);
    // seq is the largest so far, so a parent with an equal time stays earlier.
    if (load<i64>(pat) <= time) break;
    moveEntry(base + (<usize>i << 4), pat);
    i = parent;
  }
  const at = base + (<usize>i << 4);
  store<i64>(at, time);
  store<u32>(at, seq, 8);
  store<u32>(at, payload, 12);
}

/** Starts handling the earliest event (evCount > 0): returns its payload; it stays the root until evDone. */
@inline
export function evTake(): u32 {
  evTaken = true;
  return load<u32>(evBase, 12);
}

/** Ends handling the event of evTake: removes it unless a push already replaced it. */
@inline
export function evDone(): void {
  if (evTaken) {
    evTaken = false;
    evPop();
  }
}

/** Writes (t, q, payload) into the hole at the root of the first n entries and sifts it down to its place. */
@inline
function siftDownFromRoot(t: i64, q: u32, payload: u32, n: i32): void {
  const base = evBase;
  let i = 0;
  while (true) {
    const l = 2 * i + 1;
    if (l >= n) break;
    let c = l;
    let cat = base + (<usize>l << 4);
    if (l + 1 < n) {
      const rat = cat + 16;
      const tr = load<i64>(rat);
      const tl = load<i64>(cat);
      if (tr < tl || (tr == tl && load<u32>(rat, 8) < load<u32>(cat, 8))) { c = l + 1; cat = rat; }
    }
    if (!earlier(cat, t, q)) break;
    moveEntry(base + (<usize>i << 4), cat);
    i = c;
  }
  const at = base + (<usize>i << 4);
  store<i64>(at, t);
  store<u32>(at, q, 8);
  store<u32>(at, payload, 12);
}

/** The event at the root was handled: a new one takes its place. */
function replaceRoot(t: i64, q: u32, payload: u32): void {
  siftDownFromRoot(t, q, payload, evCount);
}

/** Time of the earliest event; only valid when evCount > 0. */
@inline
export function evTopTime(): i64 {
  return load<i64>(evBase);
}

/** Removes the earliest event and returns its payload: the last entry fills the hole at the root. */
@inline
export function evPop(): u32 {
  const base = evBase;
  const payload = load<u32>(base, 12);
  const n = --evCount;
  if (n > 0) {
    const last = base + (<usize>n << 4);
    siftDownFromRoot(load<i64>(last), load<u32>(last, 8), load<u32>(last, 12), n);
  }
  return payload;
}

/**
 * Test driver (test/sim-events.test.ts): runs n steps of a simulation-like workload on a heap of
 * `cap` entries at `base` and returns the number of handled events that came out of (time, seq)
 * order. Each step handles the root (evTake), pushes 0-2 events at now + a random delay (0 half the
 * time of the ties), then evDone; when the heap runs dry it is refilled. State: xorshift32 at `rng`.
 */
export function evSelfTest(base: usize, cap: i32, n: i32, rng: usize): i32 {
  evReset(base, cap);
  let bad = 0;
  let lastT: i64 = -1;
  let lastQ: u32 = 0;
  for (let i = 0; i < 4; i++) evPush(<i64>(rngNext(rng) & 1023), 0);
  for (let step = 0; step < n; step++) {
    if (evCount == 0) evPush(lastT + <i64>(rngNext(rng) & 1023), 0);
    const t = load<i64>(evBase);
    const q = load<u32>(evBase, 8);
    if (t < lastT || (t == lastT && q <= lastQ)) bad++;
    lastT = t;
    lastQ = q;
    evTake();
    const pushes = <i32>(rngNext(rng) % 3);
    for (let k = 0; k < pushes && evCount < cap - 1; k++) {
      const r = rngNext(rng);
      evPush(t + <i64>((r & 1) != 0 ? 0 : (r >> 8) & 4095), 0);
    }
    evDone();
  }
  return bad + evOverflow;
}

