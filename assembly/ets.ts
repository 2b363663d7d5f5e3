// IEEE 802.1Qaz-2011 clause 37.3 (802.1Q-2018 §8.6.8): Enhanced Transmission Selection.
//
// Transmission selection over the 8 traffic classes of one egress port (docs/design.md §4.3):
//   1. Strict TCs (TSA strict, and CBS treated as strict) first, the highest TC number first.
//   2. What strict TCs leave is shared by the ETS TCs with deficit round robin (Shreedhar and
//      Varghese 1995) over an 8-bit candidate bitmap, in ascending TC order from the TC after the
//      one whose visit ended. quantum_i = bw_i * Q with Q = ceil(max_wire / min non-zero bw), so
//      every quantum holds one maximum frame and a visit always sends at least one frame: the
//      selection is loop-free (one rotate + ctz) instead of rotating through under-funded TCs.
//   3. ETS TCs with 0 % (and vendor TSA with 0 %) are served only when no ETS TC with bw > 0 can
//      send; among themselves they share round robin with a quantum of one maximum frame.
//   Blocked TCs (paused by PFC) are not eligible; the selection is work conserving over the rest.
//
// State: the ETS record of assembly/layout.ts (ETS_*), 128 bytes. The caller owns the queues and
// passes per call: the backlog bitmap (TC queue non-empty), the blocked bitmap, and the address of
// 8 i32 head-of-line wire sizes (frame + 20 bytes), read only for the selected DRR TCs.
//
// Invariants (checked by test/core/ets.test.ts):
//   - 0 <= deficit[i] < quantum[i] + max_wire for every TC, and deficit[i] < max_wire whenever i
//     is not the TC of the visit in progress (cur);
//   - deficit[i] == 0 once the caller reports the TC empty (etsEmptied) until it is next visited;
//   - a TC leaving its visit keeps at most max_wire - 1 bytes of deficit. For a TC that ended its
//     visit because its head frame did not fit, this is classic DRR (deficit < head <= max_wire);
//     for a TC that was blocked mid-visit it forfeits the excess, so a paused TC cannot bank
//     bandwidth across pauses (the bound above holds under any pause pattern).
import {
  ETS_BW, ETS_CUR, ETS_DEFICIT, ETS_MAX_WIRE, ETS_PRIO_TC, ETS_QUANTUM, ETS_Q_UNIT, ETS_STRICT_MASK,
  ETS_TSA, ETS_WEIGHTED_MASK, ETS_ZERO_MASK, TSA_CBS, TSA_STRICT,
  WIRE_OVERHEAD,
} from './layout';

export { WIRE_OVERHEAD };

/**
 * Derives masks, Q and quanta from the config bytes (prio_tc, tsa, bw) already in the record and
 * resets the DRR state. `maxFrame` is the largest frame in bytes (MTU frame incl. FCS). The host
 * validates the config (bw of ETS TCs sums to 100, values in range) before calling.
 */
export function etsConfigure(ets: usize, maxFrame: i32): void {
  const maxWire = maxFrame + WIRE_OVERHEAD;
  let strict = 0;
  let weighted = 0;
  let zero = 0;
  let minBw = 101;
  for (let tc = 0; tc < 8; tc++) {
    const tsa = <i32>load<u8>(ets + ETS_TSA + tc);
    const bw = <i32>load<u8>(ets + ETS_BW + tc);
    if (tsa == TSA_STRICT || tsa == TSA_CBS) {
      strict |= 1 << tc;
    } else if (bw > 0) {
      weighted |= 1 << tc;
      if (bw < minBw) minBw = bw;
    } else {
      zero |= 1 << tc;
    }
  }
  const q = weighted != 0 ? (maxWire + minBw - 1) / minBw : maxWire;
  for (let tc = 0; tc < 8; tc++) {
    const bit = 1 << tc;
    const bw = <i32>load<u8>(ets + ETS_BW + tc);
    const quantum = (weighted & bit) != 0 ? bw * q : (zero & bit) != 0 ? maxWire : 0;
    store<i32>(ets + ETS_QUANTUM + (tc << 2), quantum);
    store<i32>(ets + ETS_DEFICIT + (tc << 2), 0);
  }
  store<i32>(ets + ETS_STRICT_MASK, strict);
  store<i32>(ets + ETS_WEIGHTED_MASK, weighted);
  store<i32>(ets + ETS_ZERO_MASK, zero);
  store<i32>(ets + ETS_Q_UNIT, q);
  store<i32>(ets + ETS_MAX_WIRE, maxWire);
  store<i32>(ets + ETS_CUR, 7);
}

/** TC of priority `prio` (0..7). */
@inline
export function etsClassify(ets: usize, prio: i32): i32 {
  return <i32>load<u8>(ets + ETS_PRIO_TC + prio);
}

/**
 * Selects the TC that transmits next, or -1 when no TC is both backlogged and unblocked. For a DRR
 * TC the head frame's wire size is charged to its deficit here, so the caller must then dequeue
 * that head frame (and call etsEmptied if the queue became empty).
 */
@inline
export function etsSelect(ets: usize, backlog: i32, blocked: i32, headWire: usize): i32 {
  const eligible = backlog & ~blocked;
  const strict = eligible & load<i32>(ets + ETS_STRICT_MASK);
  if (strict != 0) return 31 - clz(strict);
  let cand = eligible & load<i32>(ets + ETS_WEIGHTED_MASK);
  if (cand == 0) {
    cand = eligible & load<i32>(ets + ETS_ZERO_MASK);
    if (cand == 0) return -1;
  }
  const cur = load<i32>(ets + ETS_CUR);
  const curDeficit = ets + ETS_DEFICIT + (<usize>cur << 2);
  const d = load<i32>(curDeficit);
  const curHead = load<i32>(headWire + (<usize>cur << 2));
  if (((cand >> cur) & 1) != 0 && curHead <= d) {
    store<i32>(curDeficit, d - curHead);
    return cur;
  }
  // The visit of `cur` ends: it keeps less than one maximum frame of deficit.
  const cap = load<i32>(ets + ETS_MAX_WIRE) - 1;
  store<i32>(curDeficit, d < cap ? d : cap);
  // Next candidate after cur, cyclically: rotate the 8-bit mask right by cur + 1 and count zeros.
  const next = (cur + 1 + <i32>ctz(<u32>(cand | (cand << 8)) >>> <u32>(cur + 1))) & 7;
  const nextDeficit = ets + ETS_DEFICIT + (<usize>next << 2);
  // quantum >= max_wire >= head, so the first frame of a visit always fits.
  const funded = load<i32>(nextDeficit) + load<i32>(ets + ETS_QUANTUM + (<usize>next << 2));
  store<i32>(nextDeficit, funded - load<i32>(headWire + (<usize>next << 2)));
  store<i32>(ets + ETS_CUR, next);
  return next;
}

/** The caller's queue of `tc` became empty: its deficit is reset (DRR: an idle flow keeps no credit). */
@inline
export function etsEmptied(ets: usize, tc: i32): void {
  store<i32>(ets + ETS_DEFICIT + (<usize>tc << 2), 0);
}

// Host entry points (golden vectors, tests): one selection per call, not for hot paths.

/** etsSelect for the host; returns the TC or -1. */
export function etsSelectOne(ets: usize, backlog: i32, blocked: i32, headWire: usize): i32 {
  return etsSelect(ets, backlog, blocked, headWire);
}

/** etsEmptied for the host. */
export function etsEmptiedOne(ets: usize, tc: i32): void {
  etsEmptied(ets, tc);
}
