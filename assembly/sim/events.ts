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

@inline
function before(a: usize, b: usize): bool {
  const ta = load<i64>(a);
  const tb = load<i64>(b);
  return ta < tb || (ta == tb && load<u32>(a, 8) < load<u32>(b, 8));
}

@inline
function swapEntries(a: usize, b: usize): void {
  const t = load<i64>(a);
  const s = load<i64>(a, 8);
  store<i64>(a, load<i64>(b));
  store<i64>(a, load<i64>(b, 8), 8);
  store<i64>(b, t);
  store<i64>(b, s, 8);
}

export function evPush(time: i64, payload: u32): void {
  if (evCount >= evCap) {
    evOverflow = 1;
    return;
  }
  let i = evCount++;
  let at = evBase + (<usize>i << 4);
  store<i64>(at, time);
  store<u32>(at, evSeq++, 8);
  store<u32>(at, payload, 12);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const pat = evBase + (<usize>parent << 4);
    if (!before(at, pat)) break;
    swapEntries(at, pat);
    i = parent;
    at = pat;
  }
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
    store<i64>(evBase, load<i64>(last));
    store<i64>(evBase, load<i64>(last, 8), 8);
    let i = 0;
    while (true) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let c = l;
      const lat = evBase + (<usize>l << 4);
      let cat = lat;
      if (l + 1 < n) {
        const rat = lat + 16;
        if (before(rat, lat)) { c = l + 1; cat = rat; }
      }
      const at = evBase + (<usize>i << 4);
      if (!before(cat, at)) break;
      swapEntries(at, cat);
      i = c;
    }
  }
  return payload;
}
