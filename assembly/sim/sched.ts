// Transmission selection used by the simulator's egress ports (802.1Qaz ETS, DESIGN.md §4.3):
// strict TCs first (highest TC first), then deficit round robin over the ETS TCs with bw > 0,
// then 0 % ETS TCs. Same record layout as the ETS kernel (prio_tc, tsa, bw, masks, quanta,
// deficits) so the port record can hand its ETS record to either.
//
// Record (128 bytes): 0 u8[8] prio_tc, 8 u8[8] tsa (0 strict, 2 ets), 16 u8[8] bw,
// 24 strict mask, 28 weighted mask, 32 zero mask, 36 Q, 40 max wire, 44 cur, 48 i32[8] quantum,
// 80 i32[8] deficit. Invariant: a visit starts with deficit += quantum >= max wire, so the head
// frame always fits; a TC whose queue empties keeps no deficit.

const E_STRICT: usize = 24;
const E_WEIGHTED: usize = 28;
const E_ZERO: usize = 32;
const E_MAXWIRE: usize = 40;
const E_CUR: usize = 44;
const E_QUANTUM: usize = 48;
const E_DEFICIT: usize = 80;

export function schedConfigure(ets: usize, maxFrame: i32): void {
  const maxWire = maxFrame + 20;
  let strict = 0, weighted = 0, zero = 0, minBw = 101;
  for (let tc = 0; tc < 8; tc++) {
    const tsa = <i32>load<u8>(ets + 8 + tc);
    const bw = <i32>load<u8>(ets + 16 + tc);
    if (tsa == 0 || tsa == 1) strict |= 1 << tc;
    else if (bw > 0) { weighted |= 1 << tc; if (bw < minBw) minBw = bw; }
    else zero |= 1 << tc;
  }
  const q = weighted != 0 ? (maxWire + minBw - 1) / minBw : maxWire;
  for (let tc = 0; tc < 8; tc++) {
    const bw = <i32>load<u8>(ets + 16 + tc);
    const bit = 1 << tc;
    store<i32>(ets + E_QUANTUM + (tc << 2), (weighted & bit) != 0 ? bw * q : (zero & bit) != 0 ? maxWire : 0);
    store<i32>(ets + E_DEFICIT + (tc << 2), 0);
  }
  store<i32>(ets + E_STRICT, strict);
  store<i32>(ets + E_WEIGHTED, weighted);
  store<i32>(ets + E_ZERO, zero);
  store<i32>(ets + 36, q);
  store<i32>(ets + E_MAXWIRE, maxWire);
  store<i32>(ets + E_CUR, 7);
}

@inline
export function schedWeightedMask(ets: usize): i32 {
  return load<i32>(ets + E_WEIGHTED);
}

/** TC to send next, or -1; charges the head frame's wire bytes to a DRR TC's deficit. */
@inline
export function schedSelect(ets: usize, backlog: i32, blocked: i32, headWire: usize): i32 {
  const eligible = backlog & ~blocked;
  const strict = eligible & load<i32>(ets + E_STRICT);
  if (strict != 0) return 31 - clz(strict);
  let cand = eligible & load<i32>(ets + E_WEIGHTED);
  if (cand == 0) cand = eligible & load<i32>(ets + E_ZERO);
  if (cand == 0) return -1;
  const cur = load<i32>(ets + E_CUR);
  const curDef = ets + E_DEFICIT + (<usize>cur << 2);
  const d = load<i32>(curDef);
  const head = load<i32>(headWire + (<usize>cur << 2));
  if (((cand >> cur) & 1) != 0 && head <= d) {
    store<i32>(curDef, d - head);
    return cur;
  }
  const cap = load<i32>(ets + E_MAXWIRE) - 1;
  store<i32>(curDef, d < cap ? d : cap);
  const next = (cur + 1 + <i32>ctz(<u32>(cand | (cand << 8)) >>> <u32>(cur + 1))) & 7;
  const nd = ets + E_DEFICIT + (<usize>next << 2);
  store<i32>(nd, load<i32>(nd) + load<i32>(ets + E_QUANTUM + (<usize>next << 2)) - load<i32>(headWire + (<usize>next << 2)));
  store<i32>(ets + E_CUR, next);
  return next;
}

@inline
export function schedEmptied(ets: usize, tc: i32): void {
  store<i32>(ets + E_DEFICIT + (<usize>tc << 2), 0);
}
