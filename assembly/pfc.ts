// IEEE 802.1Qbb priority-based flow control (802.3 Annex 31D) and 802.3x PAUSE (Annex 31B),
// both sides of one port, as pinned in docs/design.md §4.1.
//
// Ingress (the congested station, generates PFC): per priority an occupancy in bytes with an
// XOFF threshold, an XON threshold and a drop limit (xoff + headroom). The arrival that brings a
// PFC-enabled priority to occupancy >= xoff queues XOFF (time = pause_time, default 0xFFFF quanta);
// while the priority stays in XOFF state the XOFF is re-sent every refresh interval (pause_time/2
// quanta); the departure that brings it to <= xon queues one XON (time 0). A frame that would take
// the occupancy above the limit is dropped and counted. Queued frames are reported as a pending
// bitmask plus per-unit time fields (PFC_PENDING, PFC_TX_TIME), which the port pipeline turns into
// PFC/PAUSE frames; a later event before it does so overrides the time (the frame carries the newest).
//
// Egress (the station that obeys): one timer per priority, pausedUntil = now + time * quantum,
// REPLACING the running value (never added); time 0 = XON. A quantum is 512 bit times at the port
// speed, in ps. A priority is blocked while now < pausedUntil; a frame already started finishes
// (the caller asks the blocked mask only before starting a frame).
//
// 802.3x PAUSE mode: the port is one flow-control unit (unit 8): its ingress occupancy is the port
// total and one timer pauses every priority. PFC and PAUSE are mutually exclusive on a port
// (802.3 Annex 31D): a port in one mode counts frames of the other in PFC_RX_IGNORED and ignores them.
//
// State (layout.ts, PFC_*): config (written by host/core/kernels/pfc.ts, then pfcConfigure): mode, enable
// mask, pause time, refresh override, speed, per unit the thresholds and headroom; derived and state:
// XOFF-state and pending bitmasks, quantum and refresh interval; per unit u = 0..8: occupancy, limit,
// pending time, next refresh,
// pausedUntil, pause start, paused ps, counters. Derived for the per-packet path (so that an update is
// one compare per test, with no branch on the random priority): the unit of each priority, and per
// unit the occupancy that triggers XOFF (xoffAt) and the one that triggers XON (xonAt).
// Invariants: occ[u] >= 0 and occ[prio] <= limit[prio] (PFC/off) or occ[8] <= limit[8] (PAUSE);
//   occ[8] = sum of occ[0..7]; XOFF-state bit u set => nextRefresh[u] is finite;
//   xoffAt[u] = xoff[u] if u is controlled and not in XOFF state, else 0xFFFFFFFF;
//   xonAt[u] = xon[u] if u is in XOFF state, else i32.MIN;
//   pauseStart[u] <= pausedUntil[u] after the first pause;
//   the cached blocked mask is the one of any time in [blockedFrom, blockedUntil) (until = the
//   earliest pause end after blockedFrom; a received PFC/PAUSE frame invalidates it).
//
// Accounting point: `pfcArrive` is called when a frame STARTS arriving (its length is known from
// the header and the whole frame is reserved at once). With that, a buffer of xoff + headroom with
// the headroom of host/analysis/headroom.ts never drops on a lossless priority (docs/pfc.md, Validation).
import {
  PFC_UNITS, PFC_PORT_UNIT, PFC_MODE, PFC_ENABLE, PFC_PAUSE_TIME, PFC_REFRESH_QUANTA, PFC_SPEED_BPS, PFC_HEADROOM,
  PFC_CONFIG_END, PFC_XOFF_STATE, PFC_PENDING,
  PFC_QUANTUM_PS, PFC_REFRESH_PS, PFC_RX_IGNORED, PFC_OCC, PFC_XOFF_TH, PFC_XON_TH, PFC_LIMIT,
  PFC_TX_TIME, PFC_NEXT_REFRESH, PFC_PAUSED_UNTIL, PFC_PAUSE_START, PFC_PAUSED_PS, PFC_XOFF_TX,
  PFC_XON_TX, PFC_XOFF_RX, PFC_XON_RX, PFC_DROPS, PFC_DROP_BYTES, PFC_UNIT_OF, PFC_XOFF_AT, PFC_XON_AT, PFC_BLOCKED_MASK, PFC_BLOCKED_FROM, PFC_BLOCKED_UNTIL, PFC_SIZE,
  PFC_MODE_OFF, PFC_MODE_PFC, PFC_MODE_PAUSE,
} from './layout';
export { PFC_MODE_OFF, PFC_MODE_PFC, PFC_MODE_PAUSE };


/** "No refresh scheduled". */
const NEVER: i64 = i64.MAX_VALUE;

@inline function i32At(rec: usize, field: i32, unit: i32): usize {
  return rec + <usize>field + (<usize>unit << 2);
}

@inline function i64At(rec: usize, field: i32, unit: i32): usize {
  return rec + <usize>field + (<usize>unit << 3);
}

/**
 * Configure protocol (the ETS way): host/core/kernels/pfc.ts writes the config fields (PFC_MODE ..
 * PFC_HEADROOM: mode 0 off / 1 PFC / 2 PAUSE, PFC-enabled priority mask, XOFF time in quanta, refresh
 * override, port speed in bit/s, and per unit xoff, xon and headroom in bytes), then this resets the
 * state and derives the rest: the quantum (512e12 / speed ps, a whole number for every Ethernet speed
 * from 1G to 800G), the refresh interval (PFC_REFRESH_QUANTA quanta, or max(1, pause_time >> 1) when
 * 0), each priority's unit, each unit's limit (xoff + headroom, saturating) and XOFF/XON triggers.
 * A unit left at xoff = i32.MAX, headroom 0 never pauses and never drops.
 */
export function pfcConfigure(rec: usize): void {
  memory.fill(rec + <usize>PFC_CONFIG_END, 0, <usize>(PFC_SIZE - PFC_CONFIG_END));
  const mode = load<i32>(rec + PFC_MODE);
  store<i32>(rec + PFC_ENABLE, load<i32>(rec + PFC_ENABLE) & 0xFF);
  const pauseTime = load<i32>(rec + PFC_PAUSE_TIME) & 0xFFFF;
  store<i32>(rec + PFC_PAUSE_TIME, pauseTime);
  const quantum = <i64>512_000_000_000_000 / load<i64>(rec + PFC_SPEED_BPS);
  store<i64>(rec + PFC_QUANTUM_PS, quantum);
  let quanta = load<i32>(rec + PFC_REFRESH_QUANTA);
  if (quanta <= 0) quanta = pauseTime >> 1;
  store<i64>(rec + PFC_REFRESH_PS, <i64>(quanta > 0 ? quanta : 1) * quantum);
  for (let n = 0; n < 8; n++) store<u8>(rec + PFC_UNIT_OF + n, <u8>(mode == PFC_MODE_PAUSE ? PFC_PORT_UNIT : n));
  for (let u = 0; u < PFC_UNITS; u++) {
    const limit = <i64>load<i32>(i32At(rec, PFC_XOFF_TH, u)) + <i64>load<i32>(i32At(rec, PFC_HEADROOM, u));
    store<i32>(i32At(rec, PFC_LIMIT, u), limit > <i64>i32.MAX_VALUE ? i32.MAX_VALUE : <i32>limit);
    store<i64>(i64At(rec, PFC_NEXT_REFRESH, u), NEVER);
    rearm(rec, u);
  }
}

/** Recomputes xoffAt[u] and xonAt[u] from the thresholds, the controlled mask and the XOFF state. */
@inline
function rearm(rec: usize, u: i32): void {
  const inXoff = ((load<i32>(rec + PFC_XOFF_STATE) >> u) & 1) != 0;
  // flow-controlled: a PFC-enabled priority in PFC mode, or the port (unit 8) in PAUSE mode
  const mode = load<i32>(rec + PFC_MODE);
  const controlled = mode == PFC_MODE_PFC ? ((load<i32>(rec + PFC_ENABLE) >> u) & 1) != 0 : mode == PFC_MODE_PAUSE && u == PFC_PORT_UNIT;
  store<u32>(i32At(rec, PFC_XOFF_AT, u), controlled && !inXoff ? <u32>load<i32>(i32At(rec, PFC_XOFF_TH, u)) : u32.MAX_VALUE);
  store<i32>(i32At(rec, PFC_XON_AT, u), inXoff ? load<i32>(i32At(rec, PFC_XON_TH, u)) : i32.MIN_VALUE);
}

// ---------------------------------------------------------------------------------------------
// Ingress: occupancy accounting and PFC generation (per packet)
// ---------------------------------------------------------------------------------------------

/**
 * A frame of `prio` and `bytes` starts arriving at `now`. Returns 1 if accepted, 0 if dropped
 * (the occupancy of its flow-control unit would exceed xoff + headroom). Queues XOFF when the
 * accepted frame brings a flow-controlled unit to >= xoff while not already in XOFF state.
 * It is the composition of the parts below, which a pipeline with its own control flow (the port,
 * assembly/port.ts) calls one by one, so that each rare outcome is a branch of its own.
 */
@inline
export function pfcArrive(rec: usize, prio: i32, bytes: i32, now: i64): i32 {
  const unit = pfcUnitOf(rec, prio);
  const occUnit = pfcOccWith(rec, unit, bytes);
  if (pfcOverLimit(rec, unit, occUnit)) {
    pfcDrop(rec, prio, bytes);
    return 0;
  }
  pfcAdd(rec, prio, bytes);
  if (pfcXoffDue(rec, unit, occUnit)) pfcQueueXoff(rec, unit, now);
  return 1;
}

/** Flow-control unit of priority `prio`: the priority itself (PFC, off), or 8 (PAUSE). */
@inline
export function pfcUnitOf(rec: usize, prio: i32): i32 {
  return <i32>load<u8>(rec + PFC_UNIT_OF + prio);
}

/** Occupancy of `unit` with `bytes` more. Unsigned: occ <= limit <= i32.MAX and bytes < 2^16, so it cannot wrap. */
@inline
export function pfcOccWith(rec: usize, unit: i32, bytes: i32): u32 {
  return <u32>load<i32>(i32At(rec, PFC_OCC, unit)) + <u32>bytes;
}

/** Whether `occUnit` (pfcOccWith) is above the unit's drop limit, xoff + headroom. */
@inline
export function pfcOverLimit(rec: usize, unit: i32, occUnit: u32): bool {
  return occUnit > <u32>load<i32>(i32At(rec, PFC_LIMIT, unit));
}

/** Counts a frame dropped at ingress (by frame priority). */
@inline
export function pfcDrop(rec: usize, prio: i32, bytes: i32): void {
  const d = i64At(rec, PFC_DROPS, prio);
  store<i64>(d, load<i64>(d) + 1);
  const db = i64At(rec, PFC_DROP_BYTES, prio);
  store<i64>(db, load<i64>(db) + <i64>bytes);
}

/** Adds an accepted frame to the occupancies of its priority and of the port (unit 8). */
@inline
export function pfcAdd(rec: usize, prio: i32, bytes: i32): void {
  const occPrio = i32At(rec, PFC_OCC, prio);
  store<i32>(occPrio, load<i32>(occPrio) + bytes);
  const occPort = i32At(rec, PFC_OCC, PFC_PORT_UNIT);
  store<i32>(occPort, load<i32>(occPort) + bytes);
}

/** Whether the accepted frame that brought `unit` to `occUnit` sends XOFF (xoffAt is armed only while it may). */
@inline
export function pfcXoffDue(rec: usize, unit: i32, occUnit: u32): bool {
  return occUnit >= load<u32>(i32At(rec, PFC_XOFF_AT, unit));
}

/** `unit` enters XOFF state at `now`: XOFF pending with pause_time, first refresh one interval later. */
@inline
export function pfcQueueXoff(rec: usize, unit: i32, now: i64): void {
  const bit = 1 << unit;
  store<i32>(rec + PFC_XOFF_STATE, load<i32>(rec + PFC_XOFF_STATE) | bit);
  store<u32>(i32At(rec, PFC_XOFF_AT, unit), u32.MAX_VALUE);
  store<i32>(i32At(rec, PFC_XON_AT, unit), load<i32>(i32At(rec, PFC_XON_TH, unit)));
  store<i32>(rec + PFC_PENDING, load<i32>(rec + PFC_PENDING) | bit);
  store<i32>(i32At(rec, PFC_TX_TIME, unit), load<i32>(rec + PFC_PAUSE_TIME));
  store<i64>(i64At(rec, PFC_NEXT_REFRESH, unit), now + load<i64>(rec + PFC_REFRESH_PS));
  const c = i64At(rec, PFC_XOFF_TX, unit);
  store<i64>(c, load<i64>(c) + 1);
}

/**
 * A frame of `prio` and `bytes` leaves the ingress buffer. Queues one XON (time 0) when its unit
 * is in XOFF state and the occupancy falls to <= xon. The caller never departs more than arrived.
 * Composed of parts as pfcArrive is.
 */
@inline
export function pfcDepart(rec: usize, prio: i32, bytes: i32): void {
  pfcRemove(rec, prio, bytes);
  const unit = pfcUnitOf(rec, prio);
  if (pfcXonDue(rec, unit)) pfcQueueXon(rec, unit);
}

/** Removes a departing frame from the occupancies of its priority and of the port. */
@inline
export function pfcRemove(rec: usize, prio: i32, bytes: i32): void {
  const occPrio = i32At(rec, PFC_OCC, prio);
  store<i32>(occPrio, load<i32>(occPrio) - bytes);
  const occPort = i32At(rec, PFC_OCC, PFC_PORT_UNIT);
  store<i32>(occPort, load<i32>(occPort) - bytes);
}

/** Whether `unit`, after a departure, sends XON (xonAt is armed only in XOFF state). */
@inline
export function pfcXonDue(rec: usize, unit: i32): bool {
  return load<i32>(i32At(rec, PFC_OCC, unit)) <= load<i32>(i32At(rec, PFC_XON_AT, unit));
}

/** `unit` leaves XOFF state: XON (time 0) pending, refreshes stop, the XOFF threshold re-armed. */
@inline
export function pfcQueueXon(rec: usize, unit: i32): void {
  const bit = 1 << unit;
  store<i32>(rec + PFC_XOFF_STATE, load<i32>(rec + PFC_XOFF_STATE) & ~bit);
  // only a controlled unit enters XOFF state, so leaving it re-arms the XOFF threshold
  store<i32>(i32At(rec, PFC_XOFF_AT, unit), load<i32>(i32At(rec, PFC_XOFF_TH, unit)));
  store<i32>(i32At(rec, PFC_XON_AT, unit), i32.MIN_VALUE);
  store<i32>(rec + PFC_PENDING, load<i32>(rec + PFC_PENDING) | bit);
  store<i32>(i32At(rec, PFC_TX_TIME, unit), 0);
  store<i64>(i64At(rec, PFC_NEXT_REFRESH, unit), NEVER);
  const c = i64At(rec, PFC_XON_TX, unit);
  store<i64>(c, load<i64>(c) + 1);
}

/** Earliest XOFF refresh deadline over all units, ps (i64.MAX when no unit is in XOFF state). */
export function pfcNextRefresh(rec: usize): i64 {
  let next = NEVER;
  for (let u = 0; u < PFC_UNITS; u++) {
    const t = load<i64>(i64At(rec, PFC_NEXT_REFRESH, u));
    if (t < next) next = t;
  }
  return next;
}

/**
 * Fires every refresh due at or before `now`: each such unit re-queues XOFF (time = pause_time)
 * and its next deadline moves on by one interval from its own deadline (refreshes stay on the
 * grid t_xoff + k * interval). Returns the mask of units refreshed. Callers that need every
 * refresh at its exact time call this with now = pfcNextRefresh() until it passes their time.
 */
@inline
export function pfcRefreshDue(rec: usize, now: i64): i32 {
  const state = load<i32>(rec + PFC_XOFF_STATE);
  const interval = load<i64>(rec + PFC_REFRESH_PS);
  const pauseTime = load<i32>(rec + PFC_PAUSE_TIME);
  let fired = 0;
  for (let u = 0; u < PFC_UNITS; u++) {
    const at = i64At(rec, PFC_NEXT_REFRESH, u);
    const due = load<i64>(at);
    if (((state >> u) & 1) != 0 && due <= now) {
      fired |= 1 << u;
      store<i32>(i32At(rec, PFC_TX_TIME, u), pauseTime);
      store<i64>(at, due + interval);
      const c = i64At(rec, PFC_XOFF_TX, u);
      store<i64>(c, load<i64>(c) + 1);
    }
  }
  store<i32>(rec + PFC_PENDING, load<i32>(rec + PFC_PENDING) | fired);
  return fired;
}

/**
 * Returns and clears the pending mask: bits 0..7 = priorities of one PFC frame to send (e[n] = 1,
 * time[n] = PFC_TX_TIME[n]); bit 8 = one PAUSE frame with time PFC_TX_TIME[8].
 */
@inline
export function pfcTakePending(rec: usize): i32 {
  const p = load<i32>(rec + PFC_PENDING);
  store<i32>(rec + PFC_PENDING, 0);
  return p;
}

// ---------------------------------------------------------------------------------------------
// Egress: obeying received PFC / PAUSE
// ---------------------------------------------------------------------------------------------

/** Closes the running pause interval of unit u at `now` (adds its paused part to PFC_PAUSED_PS) and opens a new one. */
@inline
function restartPause(rec: usize, unit: i32, quanta: i32, now: i64): void {
  const untilAt = i64At(rec, PFC_PAUSED_UNTIL, unit);
  const startAt = i64At(rec, PFC_PAUSE_START, unit);
  const oldUntil = load<i64>(untilAt);
  const end = oldUntil < now ? oldUntil : now;
  const closed = end - load<i64>(startAt);
  if (closed > 0) {
    const p = i64At(rec, PFC_PAUSED_PS, unit);
    store<i64>(p, load<i64>(p) + closed);
  }
  store<i64>(startAt, now);
  store<i64>(untilAt, now + <i64>quanta * load<i64>(rec + PFC_QUANTUM_PS));
  const c = i64At(rec, quanta == 0 ? PFC_XON_RX : PFC_XOFF_RX, unit);
  store<i64>(c, load<i64>(c) + 1);
  store<i64>(rec + PFC_BLOCKED_UNTIL, i64.MIN_VALUE);
}

/**
 * A PFC frame arrives at `now` with priority-enable vector `enable` (bits 0..7) and its eight time
 * fields as u16 values at timesPtr (host byte order, priority 0 first). Each enabled entry for a
 * PFC-enabled priority replaces that priority's timer; other entries are counted as ignored.
 */
@inline
export function pfcReceivePfc(rec: usize, enable: i32, timesPtr: usize, now: i64): void {
  const pfcMode = load<i32>(rec + PFC_MODE) == PFC_MODE_PFC;
  const obey = pfcMode ? load<i32>(rec + PFC_ENABLE) : 0;
  let ignored: i64 = 0;
  for (let n = 0; n < 8; n++) {
    if (((enable >> n) & 1) == 0) continue;
    if (((obey >> n) & 1) == 0) {
      ignored++;
      continue;
    }
    restartPause(rec, n, <i32>load<u16>(timesPtr + (<usize>n << 1)), now);
  }
  store<i64>(rec + PFC_RX_IGNORED, load<i64>(rec + PFC_RX_IGNORED) + ignored);
}

/** An 802.3x PAUSE frame arrives at `now` carrying `quanta` (0 = resume). Ignored unless in PAUSE mode. */
export function pfcReceivePause(rec: usize, quanta: i32, now: i64): void {
  if (load<i32>(rec + PFC_MODE) != PFC_MODE_PAUSE) {
    store<i64>(rec + PFC_RX_IGNORED, load<i64>(rec + PFC_RX_IGNORED) + 1);
    return;
  }
  restartPause(rec, PFC_PORT_UNIT, quanta & 0xFFFF, now);
}

/**
 * Priorities that may not start a frame at `now` (bit n = priority n). PAUSE mode blocks all eight.
 * The mask only changes when a pause ends or a PFC/PAUSE frame arrives, so it is cached with the
 * interval it holds for: the per-packet query is two compares while nothing changes.
 */
@inline
export function pfcBlockedMask(rec: usize, now: i64): i32 {
  if ((<i32>(now < load<i64>(rec + PFC_BLOCKED_UNTIL)) & <i32>(now >= load<i64>(rec + PFC_BLOCKED_FROM))) != 0) {
    return load<i32>(rec + PFC_BLOCKED_MASK);
  }
  const mode = load<i32>(rec + PFC_MODE);
  const u = rec + <usize>PFC_PAUSED_UNTIL;
  let mask = 0;
  if (mode == PFC_MODE_PAUSE) {
    mask = now < load<i64>(u + (<usize>PFC_PORT_UNIT << 3)) ? 0xFF : 0;
  } else if (mode == PFC_MODE_PFC) {
    for (let n = 0; n < 8; n++) mask |= <i32>(now < load<i64>(u + (<usize>n << 3))) << n;
  }
  let until = NEVER;
  for (let n = 0; n < PFC_UNITS; n++) {
    const end = load<i64>(u + (<usize>n << 3));
    if (end > now && end < until) until = end;
  }
  store<i32>(rec + PFC_BLOCKED_MASK, mask);
  store<i64>(rec + PFC_BLOCKED_FROM, now);
  store<i64>(rec + PFC_BLOCKED_UNTIL, until);
  return mask;
}

/**
 * Traffic classes blocked by a blocked-priority mask: TC t is blocked while any priority mapped to
 * it is paused (docs/design.md §4.1). prioTc packs the TC of priority n in bits 3n..3n+2.
 */
@inline
export function pfcBlockedTcs(blockedPrios: i32, prioTc: i32): i32 {
  let tcs = 0;
  for (let n = 0; n < 8; n++) {
    tcs |= ((blockedPrios >> n) & 1) << ((prioTc >> (3 * n)) & 7);
  }
  return tcs;
}

/** Total paused time of unit u up to `now`, ps (closed intervals plus the running one). */
export function pfcPausedPs(rec: usize, unit: i32, now: i64): i64 {
  const until = load<i64>(i64At(rec, PFC_PAUSED_UNTIL, unit));
  const end = until < now ? until : now;
  const open = end - load<i64>(i64At(rec, PFC_PAUSE_START, unit));
  return load<i64>(i64At(rec, PFC_PAUSED_PS, unit)) + (open > 0 ? open : 0);
}

// ---------------------------------------------------------------------------------------------
// Host entry points (single events for vectors and tests; the benchmark driver is assembly/bench/pfc.ts)
// ---------------------------------------------------------------------------------------------

/** Host entry of pfcArrive (vectors, tests): 1 if the frame is admitted, 0 if dropped. */
export function pfcArriveOne(rec: usize, prio: i32, bytes: i32, now: i64): i32 {
  return pfcArrive(rec, prio, bytes, now);
}

/** Host entry of pfcDepart: a frame leaves the ingress buffer. */
export function pfcDepartOne(rec: usize, prio: i32, bytes: i32): void {
  pfcDepart(rec, prio, bytes);
}

/** Host entry of pfcTakePending: the pending PFC / PAUSE mask, cleared. */
export function pfcTakePendingOne(rec: usize): i32 {
  return pfcTakePending(rec);
}

/** Host entry of pfcBlockedMask: priorities paused at `now`. */
export function pfcBlockedMaskOne(rec: usize, now: i64): i32 {
  return pfcBlockedMask(rec, now);
}

/** Host entry of pfcBlockedTcs: TCs blocked by a mask of paused priorities. */
export function pfcBlockedTcsOne(blockedPrios: i32, prioTc: i32): i32 {
  return pfcBlockedTcs(blockedPrios, prioTc);
}
