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

export let evBase: usize = 0;
export let evCount: i32 = 0;
export let evCap: i32 = 0;
let evSeq: u32 = 0;
/** Set when a push found the heap full (the host sized it too small): the run stops with an error. */
export let evOverflow: i32 = 0;

export function evReset(base: usize, cap: i32): void {
  evBase = base;
  evCap = cap;
  evCount = 0;
  evSeq = 0;
  evOverflow = 0;
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
export function evPush(time: i64, payload: u32): void {
  if (evCount >= evCap) {
    evOverflow = 1;
    return;
  }
  const seq = evSeq++;
  let i = evCount++;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const pat = evBase + (<usize>parent << 4);
    // seq is the largest so far, so a parent with an equal time stays earlier.
    if (load<i64>(pat) <= time) break;
    moveEntry(evBase + (<usize>i << 4), pat);
    i = parent;
  }
  const at = evBase + (<usize>i << 4);
  store<i64>(at, time);
  store<u32>(at, seq, 8);
  store<u32>(at, payload, 12);
}

/** Time of the earliest event; only valid when evCount > 0. */
@inline
export function evTopTime(): i64 {
  return load<i64>(evBase);
}

/** Removes the earliest event and returns its payload. */
export function evPop(): u32 {
  const payload = load<u32>(evBase, 12);
  const n = --evCount;
  if (n > 0) {
    const last = evBase + (<usize>n << 4);
    const t = load<i64>(last);
    const q = load<u32>(last, 8);
    const lastPayload = load<u32>(last, 12);
    let i = 0;
    while (true) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let c = l;
      let cat = evBase + (<usize>l << 4);
      if (l + 1 < n) {
        const rat = cat + 16;
        const tr = load<i64>(rat);
        const tl = load<i64>(cat);
        if (tr < tl || (tr == tl && load<u32>(rat, 8) < load<u32>(cat, 8))) { c = l + 1; cat = rat; }
      }
      if (!earlier(cat, t, q)) break;
      moveEntry(evBase + (<usize>i << 4), cat);
      i = c;
    }
    const at = evBase + (<usize>i << 4);
    store<i64>(at, t);
    store<u32>(at, q, 8);
    store<u32>(at, lastPayload, 12);
  }
  return payload;
}
