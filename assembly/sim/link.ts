// A link end: transmission selection and serialisation at the sending port, arrival at the peer.
// A port sends one frame at a time (control frames first, then ETS over the TCs that PFC, PAUSE or
// missing credit do not block); the frame takes (bytes + WIRE_OVERHEAD) x ps-per-byte on the wire
// (at the port's own clock, and a switch's pipeline latency is added to its arrival: timing.ts),
// propagates for the link delay and arrives whole (store and forward) at the peer port.
//
// Invariant: SP_FLAGS bit 1 (F_DONE_QUEUED) is set iff a TX_DONE event for the port is queued (at most one per port).
import { creditAvailable, creditOnGrant, creditTrySend, creditUnits } from '../credit';
import { etsSelect } from '../ets';
import {
  ETS_WEIGHTED_MASK, PFC_BLOCKED_UNTIL, PFC_PAUSED_UNTIL, PFC_PORT_UNIT, PKT_CNM, PKT_CNP, PKT_DATA, PKT_GRANT, PKT_PAUSE, PKT_PFC,
} from '../layout';
import {
  SC_HOPS, SC_PAUSE_FRAMES, SF_RP, SF_SRC_ORD, SK_A, SK_ARRIVE_AT, SK_B, SK_BYTES, SK_KIND, SK_NEXT, SK_PORT, SK_PRIO,
  SP_BACKLOG, SP_BUSY_UNTIL, SP_CTRL_HEAD, SP_CTRL_TAIL, SP_DELAY, SP_ETS, SP_FLAGS, SP_HEADWIRE, SP_NODE, SP_PEER,
  SP_PAUSED_MASK, SP_PAUSED_VALID, SP_PFC, SP_PFC_RX, SP_PPB, SP_PRIO_TC, SP_SINK_HEAD, SP_SINK_PRIOS, SP_SINK_TAIL,
  SP_TX_CTRL, SP_TX_PKTS, SP_UNSAT, SP_WAKE_AT, SP_WD_IGNORE, SP_FLAG_TIMED, SP_FLAG_WATCHED, SQ_HEAD, SQ_NIC_RING, SQ_TX_BYTES,
} from './layout';
import { pfcBlockedMask, pfcBlockedTcs, pfcReceivePause, pfcReceivePfc } from '../pfc';
import { dcqcnRpOnCnp, qcnRpOnCnm } from '../qcn_rp';
import {
  CE_BIT, EV_ARRIVE, EV_TX_DONE, EV_WAKE, F_CAPTURE, F_DONE_QUEUED, F_REMOTE_PEER, FOREVER, pfcTimes, REV_BIT, ROCE_BIT, count, creditMaskAt, creditRec,
  flowAt, freePacket, now, pktAt, portAt,
} from './arena';
import { captureDeparture } from './capture';
import { MAIN, evPush, evPushArrival, evPushDone } from './events';
import { nextHop, release, switchReceive } from './mmu';
import { armRp, deliverArrived, hostReceive, nicServe, rateChanged } from './nic';
import { ringSend } from './partition';
import { roceSenderReceive } from './transport';
import { dequeue, sendControl, tcQueue, wireBytes } from './queues';
import { timedArrival, timedSerial } from './timing';

// ----------------------------------------------------------------------------------------------
// Transmission
// ----------------------------------------------------------------------------------------------

/**
 * Serialisation time of a frame of `bytes` on port pa, ps: the one place it is computed. With
 * SP_FLAG_TIMED in `flags` at the port's clock (timing.ts), which carries a remainder: call once per frame.
 */
@inline
function serialTime(pa: usize, flags: i32, bytes: i32): i64 {
  const wire = wireBytes(bytes);
  return (flags & SP_FLAG_TIMED) == 0 ? <i64>wire * <i64>load<i32>(pa + SP_PPB) : timedSerial(pa, wire);
}

/**
 * Puts packet k on the wire of port p until `end` (now + its serialisation time): arrives after
 * propagation. The transmitter-done event is queued only when more frames wait (or when one is
 * queued later, see tryTransmit): an idle port after its last frame needs no event.
 */
@inline
export function startFrame(p: i32, pa: usize, k: i32, end: i64): void {
  store<i64>(pa + SP_BUSY_UNTIL, end);
  const ka = pktAt(k);
  const peer = load<i32>(pa + SP_PEER);
  store<i32>(ka + SK_PORT, peer);
  const kind = load<i32>(ka + SK_KIND);
  const flags = load<i32>(pa + SP_FLAGS); // nothing below changes them before the TX_DONE test
  let arriveAt = end + load<i64>(pa + SP_DELAY);
  if ((flags & SP_FLAG_TIMED) != 0) arriveAt = timedArrival(pa, kind, arriveAt);
  if ((flags & F_CAPTURE) != 0) captureDeparture(p, ka); // before a sink list overlays SK_A / SK_B
  if (((load<i32>(pa + SP_SINK_PRIOS) >> load<i32>(ka + SK_PRIO)) & 1) != 0 && (kind & (0xff | CE_BIT | ROCE_BIT | REV_BIT)) == PKT_DATA) {
    // A data frame into a host: delivered from the sink list, no event (see "Deliveries to hosts").
    deliverArrived(pa, now);
    store<i64>(ka + SK_ARRIVE_AT, arriveAt);
    store<i32>(ka + SK_NEXT, -1);
    const tail = load<i32>(pa + SP_SINK_TAIL);
    if (tail < 0) store<i32>(pa + SP_SINK_HEAD, k);
    else store<i32>(pktAt(tail) + SK_NEXT, k);
    store<i32>(pa + SP_SINK_TAIL, k);
  } else if ((flags & F_REMOTE_PEER) != 0) {
    // The peer is another partition's: the frame crosses in the ring for this window (partition.ts).
    ringSend(peer, arriveAt, k);
  } else {
    // Ordered by the receiving port, never by the packet record (docs/sim.md "Event order").
    evPushArrival(arriveAt, (EV_ARRIVE << 28) | <u32>peer, (EV_ARRIVE << 28) | <u32>k);
  }
  if ((flags & F_DONE_QUEUED) == 0 && (load<i32>(pa + SP_BACKLOG) != 0 || load<i32>(pa + SP_CTRL_HEAD) >= 0)) {
    store<i32>(pa + SP_FLAGS, flags | F_DONE_QUEUED);
    evPushDone(end, (EV_TX_DONE << 28) | <u32>p);
  }
  count(SC_HOPS, 1);
}

/**
 * The PFC kernel's paused priorities at `now` (pfcBlockedMask), from the copy in the port's first
 * cache lines while it holds: the kernel's own cache sits 2 kB into the port record, a line of its
 * own that every frame start would otherwise touch (a fat tree's port records do not all stay in
 * the caches). The copy holds until the kernel's window ends or a PAUSE or PFC frame arrives
 * (receivePause clears it); time only moves forward within a port's owner, so its end is enough.
 */
@inline
function pausedPrios(pa: usize): i32 {
  if (now < load<i64>(pa + SP_PAUSED_VALID)) return load<i32>(pa + SP_PAUSED_MASK);
  const rec = pa + SP_PFC;
  const mask = pfcBlockedMask(rec, now);
  store<i32>(pa + SP_PAUSED_MASK, mask);
  store<i64>(pa + SP_PAUSED_VALID, load<i64>(rec + PFC_BLOCKED_UNTIL));
  return mask;
}

/** TCs that may not start a frame now: paused priorities (PFC kernel), and credit heads without credit. */
export function blockedTcs(p: i32, pa: usize, backlog: i32): i32 {
  const rec = pa + SP_PFC;
  const pausedPrios = pfcBlockedMask(rec, now) & ~load<i32>(pa + SP_WD_IGNORE);
  let blocked = pausedPrios != 0 ? pfcBlockedTcs(pausedPrios, load<i32>(pa + SP_PRIO_TC)) : 0;
  let earliest: i64 = FOREVER;
  if (pausedPrios != 0) {
    // Earliest expiry among the pausing timers (unit 8 in PAUSE mode, else the priorities).
    const pu = load<i64>(rec + PFC_PAUSED_UNTIL + (<usize>PFC_PORT_UNIT << 3));
    if (pu > now) earliest = pu;
    for (let m = pausedPrios; m != 0; m &= m - 1) {
      const u = load<i64>(rec + PFC_PAUSED_UNTIL + (<usize>ctz(m) << 3));
      if (u > now && u < earliest) earliest = u;
    }
  }
  const creditMask = creditMaskAt(pa);
  if (creditMask != 0) {
    let m = backlog & ~blocked;
    while (m != 0) {
      const tc = ctz(m);
      m &= m - 1;
      const head = pktAt(load<i32>(tcQueue(pa, tc) + SQ_HEAD));
      const pr = load<i32>(head + SK_PRIO);
      if (((creditMask >> pr) & 1) != 0) {
        const cr = creditRec(pa, pr);
        if (creditAvailable(cr, now) < creditUnits(cr, load<i32>(head + SK_BYTES))) blocked |= 1 << tc;
      }
    }
  }
  // One wake-up per port at the earliest expiry; a pending earlier one re-evaluates when it fires.
  const wakeAt = load<i64>(pa + SP_WAKE_AT);
  if ((backlog & ~blocked) == 0 && earliest != FOREVER && (wakeAt == 0 || wakeAt > earliest)) {
    store<i64>(pa + SP_WAKE_AT, earliest);
    evPush(MAIN, earliest, (EV_WAKE << 28) | <u32>p);
  }
  return blocked;
}

/**
 * tryTransmit for port p (record pa) unless its transmitter is busy with its transmitter-done event
 * queued, when that call would do nothing: a frame into a busy egress port (the usual arrival at a
 * congested switch) then costs no call.
 */
@inline
export function transmitUnlessBusy(p: i32, pa: usize): void {
  if (load<i64>(pa + SP_BUSY_UNTIL) <= now || (load<i32>(pa + SP_FLAGS) & F_DONE_QUEUED) == 0) tryTransmit(p);
}

export function tryTransmit(p: i32): void {
  const pa = portAt(p);
  const busyUntil = load<i64>(pa + SP_BUSY_UNTIL);
  if (busyUntil > now) {
    const flags = load<i32>(pa + SP_FLAGS);
    if ((flags & F_DONE_QUEUED) == 0) {
      store<i32>(pa + SP_FLAGS, flags | F_DONE_QUEUED);
      evPushDone(busyUntil, (EV_TX_DONE << 28) | <u32>p);
    }
    return;
  }
  const ctrl = load<i32>(pa + SP_CTRL_HEAD);
  if (ctrl >= 0) {
    const next = load<i32>(pktAt(ctrl) + SK_NEXT);
    store<i32>(pa + SP_CTRL_HEAD, next);
    if (next < 0) store<i32>(pa + SP_CTRL_TAIL, -1);
    const sent = pa + SP_TX_CTRL;
    store<i64>(sent, load<i64>(sent) + 1);
    startFrame(p, pa, ctrl, now + serialTime(pa, load<i32>(pa + SP_FLAGS), load<i32>(pktAt(ctrl) + SK_BYTES)));
    return;
  }
  const backlog = load<i32>(pa + SP_BACKLOG);
  if (backlog == 0) return;
  // Nothing paused and no credit priority (the usual case): nothing is blocked, no call.
  const blocked = (pausedPrios(pa) | creditMaskAt(pa)) == 0 ? 0 : blockedTcs(p, pa, backlog);
  const ets = pa + SP_ETS;
  if ((load<i32>(ets + ETS_WEIGHTED_MASK) & ~(backlog & ~blocked)) != 0) store<i32>(pa + SP_UNSAT, 1);
  const tc = etsSelect(ets, backlog, blocked, pa + SP_HEADWIRE);
  if (tc < 0) return;
  const flags = load<i32>(pa + SP_FLAGS);
  const host = (flags & 1) != 0;
  // Host NIC: its scheduler pulls the TC's next frame behind this one before it leaves (no call
  // when no flow of the TC is ready: a paced flow's ring is empty until its FLOW event).
  if (host && load<i32>(tcQueue(pa, tc) + SQ_NIC_RING) >= 0) nicServe(p, pa, tc);
  const k = dequeue(pa, tc);
  const ka = pktAt(k);
  const bytes = load<i32>(ka + SK_BYTES);
  const pr = load<i32>(ka + SK_PRIO);
  const tb = tcQueue(pa, tc) + SQ_TX_BYTES;
  store<i64>(tb, load<i64>(tb) + <i64>wireBytes(bytes));
  if ((flags & SP_FLAG_WATCHED) != 0) {
    const tp = pa + SP_TX_PKTS + (<usize>pr << 3);
    store<i64>(tp, load<i64>(tp) + 1);
  }
  if (((creditMaskAt(pa) >> pr) & 1) != 0) creditTrySend(creditRec(pa, pr), bytes, now); // checked in blockedTcs
  const node = load<i32>(pa + SP_NODE);
  // Busy before release, which may queue control frames and call tryTransmit again.
  const end = now + serialTime(pa, flags, bytes);
  store<i64>(pa + SP_BUSY_UNTIL, end);
  if (!host) release(node, k, tc, pa);
  startFrame(p, pa, k, end);
}

// ----------------------------------------------------------------------------------------------
// Arrivals of frames
// ----------------------------------------------------------------------------------------------

/** A PFC or PAUSE frame acts on the transmitter of the port that received it (PFC kernel, egress side). */
export function receivePause(p: i32, pa: usize, kind: i32, a: i32, b: i32): void {
  const rec = pa + SP_PFC;
  let enable = a & 0xff;
  if (kind == PKT_PFC) {
    for (let n = 0; n < 8; n++) store<u16>(pfcTimes + (<usize>n << 1), <u16>(((a >> (8 + n)) & 1) != 0 ? b : 0));
    pfcReceivePfc(rec, enable, pfcTimes, now);
  } else {
    enable = 0xff;
    pfcReceivePause(rec, b, now);
  }
  for (let m = enable; m != 0; m &= m - 1) {
    const rx = pa + SP_PFC_RX + (<usize>ctz(m) << 3);
    store<i64>(rx, load<i64>(rx) + 1);
  }
  count(SC_PAUSE_FRAMES, 1);
  store<i64>(pa + SP_PAUSED_VALID, 0);
  // An XON (or a shorter pause) may unblock the transmitter now.
  tryTransmit(p);
}

export function arrive(k: i32): void {
  const ka = pktAt(k);
  const p = load<i32>(ka + SK_PORT);
  const pa = portAt(p);
  const word = load<i32>(ka + SK_KIND);
  const kind = word & 0xff;
  if (kind == PKT_DATA || (word & REV_BIT) != 0) {
    // Data, and the roce frames that travel the data path back (ACK, NACK, CNP).
    if ((load<i32>(pa + SP_FLAGS) & 1) == 0) switchReceive(p, k);
    else if (kind == PKT_DATA) hostReceive(p, pa, k);
    else {
      roceSenderReceive(ka);
      freePacket(k);
    }
    return;
  }
  if (kind == PKT_PFC || kind == PKT_PAUSE) {
    receivePause(p, pa, kind, load<i32>(ka + SK_A), load<i32>(ka + SK_B));
  } else if (kind == PKT_GRANT) {
    creditOnGrant(creditRec(pa, load<i32>(ka + SK_A)), load<i32>(ka + SK_B), now);
    tryTransmit(p);
  } else if (kind == PKT_CNM || kind == PKT_CNP) {
    const f = load<i32>(ka + SK_A);
    if ((load<i32>(pa + SP_FLAGS) & 1) != 0) {
      const fa = flowAt(f);
      if (kind == PKT_CNP) dcqcnRpOnCnp(fa + SF_RP, now);
      else qcnRpOnCnm(fa + SF_RP, now, load<i32>(ka + SK_B));
      armRp(f, fa);
      rateChanged(f, fa);
    } else {
      const node = load<i32>(pa + SP_NODE);
      const qf = load<i32>(ka + SK_B);
      freePacket(k);
      sendControl(nextHop(node, load<i32>(flowAt(f) + SF_SRC_ORD), f), kind, f, qf, f);
      return;
    }
  }
  freePacket(k);
}
