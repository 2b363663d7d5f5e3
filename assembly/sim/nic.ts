// The host NIC: its flows' sources (frame sizes; an offered rate with constant or Poisson gaps; on/off;
// a size), the scheduler that pulls frames from its flows into its per-TC queues, the QCN / DCQCN
// reaction point that paces each flow, and delivery of frames to the destination host
// (docs/sim.md, "Hosts").
//
// Scheduling among flows. An RDMA NIC arbitrates among its queue pairs per traffic class and moves a
// frame into the TC's transmit queue only when that queue has room; it never lets one queue pair's
// doorbell push the others out. The model: per (host port, TC) a ring of the flows that are ready
// to send, served by deficit round robin (Shreedhar and Varghese, "Efficient Fair Queueing Using
// Deficit Round Robin", SIGCOMM 1995) in wire bytes, quantum = the fabric's largest wire frame x the
// flow's weight, so every turn sends at least one frame. A frame is pulled while the TC queue holds
// at most one frame or fewer than `host_queue` bytes (default 0: the frame about to be sent and one
// behind it; frames queued past the rate limiter would leave at line rate whatever the limiter
// decides meanwhile): when a frame of that TC is selected to leave (tryTransmit, before it is
// dequeued, so a TC with ready flows never empties and keeps its ETS deficit), when a flow becomes
// ready, and when the transport rewinds.
// A flow is ready when
//   - it has data: a frame of its size or message left, or (roce) a PSN to send or resend;
//   - its arrival process has made the next frame (only with an offered `rate`: constant or Poisson
//     gaps at that rate, advanced by one gap per frame whatever the service, so a source that fell
//     behind catches up at the NIC's pace; gaps in an off period move to the next on period);
//   - its rate limiter allows: the last frame left the limiter at least one frame time at the current
//     rate ago. The limit is the QCN / DCQCN current rate, read at each check, so a rate change takes
//     effect at once, earlier or later (rateChanged re-times a flow that waits).
// Both count time with the NIC's own clock, the one that drives its port (timing.ts clockRate).
// A flow that is not ready leaves the ring (its deficit reset, as DRR does for an empty queue) with
// one FLOW event queued at the time it will be ready; it rejoins at the ring's tail. An open-loop
// flow whose event was queued at that time waits TIMED: until the event, only a rate change
// (rateChanged) alters what readyAt reads, so the event finds it ready without computing it again.
//
// Invariants: a flow is in at most one ring (SF_STATE 1); SF_FLOW_EV_AT is the time of its one live
// FLOW event (older ones are stale and ignored); a TIMED flow's live FLOW event is at readyAt's
// value, whose inputs have not changed since; a flow has at most one live RP_TIMER event
// (SF_RP_EV_AT); bytes delivered and the last delivery time per flow are exact up to each batch end.
import { creditReceive } from '../credit';
import { GAPS_POISSON, PKT_CNP, PKT_DATA, QCN_RP_ACTIVE, TRANSPORT_ROCE } from '../layout';
import {
  SC_CNMS, SF_DEFICIT, SF_DELIV, SF_FA, SF_FB, SF_FKIND, SF_FLOW_EV_AT, SF_GAPS, SF_LAST_AT, SF_LAST_DELIV,
  SF_LAST_WIRE, SF_LEFT, SF_MIXN, SF_MIXOFF, SF_MIXTOT, SF_NEXT_AT, SF_NEXT_BYTES, SF_NP, SF_OFF, SF_ON, SF_PACE_BYTES,
  SF_PACE_PS, SF_PACE_RATE, SF_PORT, SF_PRIO, SF_QUANTUM, SF_RATE, SF_RING_NEXT, SF_RNG, SF_RP, SF_RP_EV_AT, SF_SENT,
  SF_SND_MAX, SF_SND_NXT, SF_START, SF_STATE, SF_STOP, SF_TC, SF_TRANSPORT, SF_TURN, SF_ARR_BYTES, SF_ARR_PS,
  SK_ARRIVE_AT, SK_BYTES, SK_FLOW, SK_HOP, SK_KIND, SK_NEXT, SK_PORT, SK_PRIO, SP_SINK_HEAD, SP_SINK_TAIL, SQ_BYTES,
  SQ_HEAD, SQ_NIC_RING, SQ_TAIL,
} from './layout';
import { dcqcnNpOnCe, qcnRpOnFrameSent } from '../qcn_rp';
import { rngNext } from '../rng';
import {
  CE_BIT, EV_FLOW, EV_RP_TIMER, FOREVER, allocPacket, count, creditMaskAt, creditRec, flowAt, freePacket,
  hostQueue, mix, now, pktAt, portAt, qcnMask, rpDeadline, rpRate,
} from './arena';
import { MAIN, evPush } from './events';
import { tryTransmit } from './link';
import { creditFreed } from './mmu';
import { enqueue, sendControl, tcQueue, wireBytes } from './queues';
import { clockRate } from './timing';
import { roceHasData, roceNextBytes, roceReceiveData, roceSendReverse, roceTakeFrame } from './transport';

/** Flow states (SF_STATE). OUT_OF_RING and TIMED wait out of the ring (TIMED: see the header). */
export const OUT_OF_RING: i32 = 0;
export const IN_RING: i32 = 1;
export const TIMED: i32 = 2;
export const DONE: i32 = 3;

/** Whether a flow in `state` waits out of its ring (something may make it ready). */
@inline
function waiting(state: i32): bool { return state == OUT_OF_RING || state == TIMED; }

/** Keeps exactly one timer event queued per engaged reaction point, at or before its deadline. */
@inline
export function armRp(f: i32, fa: usize): void {
  if (load<i32>(fa + SF_RP + QCN_RP_ACTIVE) == 0) return;
  const d = rpDeadline(fa);
  if (load<i64>(fa + SF_RP_EV_AT) > d) {
    store<i64>(fa + SF_RP_EV_AT, d);
    evPush(MAIN, d, (EV_RP_TIMER << 28) | <u32>f);
  }
}

/** Delivers the frames of port pa's sink list that have arrived at its host by `upTo`, in order. */
@inline
export function deliverArrived(pa: usize, upTo: i64): void {
  let k = load<i32>(pa + SP_SINK_HEAD);
  while (k >= 0) {
    const ka = pktAt(k);
    const at = load<i64>(ka + SK_ARRIVE_AT);
    if (at > upTo) break;
    const fa = flowAt(load<i32>(ka + SK_FLOW));
    store<i64>(fa + SF_DELIV, load<i64>(fa + SF_DELIV) + <i64>load<i32>(ka + SK_BYTES));
    store<i64>(fa + SF_LAST_DELIV, at);
    const next = load<i32>(ka + SK_NEXT);
    freePacket(k);
    k = next;
  }
  store<i32>(pa + SP_SINK_HEAD, k);
  if (k < 0) store<i32>(pa + SP_SINK_TAIL, -1);
}

/** A data frame arrives at its destination host (port p): delivery, DCQCN notification, credit, transport. */
export function hostReceive(p: i32, pa: usize, k: i32): void {
  const ka = pktAt(k);
  const f = load<i32>(ka + SK_FLOW);
  const bytes = load<i32>(ka + SK_BYTES);
  const fa = flowAt(f);
  const pr = load<i32>(ka + SK_PRIO);
  const roce = load<i32>(fa + SF_TRANSPORT) == TRANSPORT_ROCE;
  if (roce) roceReceiveData(p, pa, f, fa, ka);
  else {
    store<i64>(fa + SF_DELIV, load<i64>(fa + SF_DELIV) + <i64>bytes);
    store<i64>(fa + SF_LAST_DELIV, now);
  }
  if ((load<i32>(ka + SK_KIND) & CE_BIT) != 0 && dcqcnNpOnCe(fa + SF_NP, now)) {
    count(SC_CNMS, 1);
    // A roce receiver's CNP travels the flow's path back like its ACKs; otherwise as a control frame.
    if (roce) roceSendReverse(p, pa, PKT_CNP, f, fa, 0);
    else sendControl(p, PKT_CNP, f, 0, f);
  }
  if (((creditMaskAt(pa) >> pr) & 1) != 0) {
    // The NIC consumes on arrival: the blocks are received and freed at once.
    creditReceive(creditRec(pa, pr), bytes);
    creditFreed(p, pr, bytes);
  }
  freePacket(k);
}

// ----------------------------------------------------------------------------------------------
// Traffic sources
// ----------------------------------------------------------------------------------------------

/** Draws a frame size from the flow's law (fixed, uniform or weighted mix). */
@inline
function drawFrameSize(fa: usize): i32 {
  const kind = load<i32>(fa + SF_FKIND);
  const a = load<i32>(fa + SF_FA);
  if (kind == 0) return a;
  const r = rngNext(fa + SF_RNG);
  if (kind == 1) return a + <i32>(r % <u32>(load<i32>(fa + SF_FB) - a + 1));
  const pick = <i32>(r % <u32>load<i32>(fa + SF_MIXTOT));
  const n = load<i32>(fa + SF_MIXN);
  let at = mix + (<usize>load<i32>(fa + SF_MIXOFF) << 3);
  for (let i = 0; i < n - 1; i++) {
    if (pick < load<i32>(at + 4)) break;
    at += 8;
  }
  return load<i32>(at);
}

/** Bytes of the flow's next frame: the transport's next PSN, else the next draw (kept until sent), cut to what is left. */
@inline
function nextFrameBytes(fa: usize): i32 {
  if (load<i32>(fa + SF_TRANSPORT) == TRANSPORT_ROCE) return roceNextBytes(fa);
  let bytes = load<i32>(fa + SF_NEXT_BYTES);
  if (bytes == 0) {
    bytes = drawFrameSize(fa);
    const left = load<i64>(fa + SF_LEFT);
    if (left > 0 && <i64>bytes > left) bytes = <i32>(left > 64 ? left : 64);
    store<i32>(fa + SF_NEXT_BYTES, bytes);
  }
  return bytes;
}

/** Moves time t out of an off period of an on/off source (to the start of the next on period). */
@inline
function inOnPeriod(fa: usize, t: i64): i64 {
  const on = load<i64>(fa + SF_ON);
  if (on == 0) return t;
  const start = load<i64>(fa + SF_START);
  if (t < start) return start;
  const period = on + load<i64>(fa + SF_OFF);
  const phase = (t - start) % period;
  return phase < on ? t : t + (period - phase);
}

/** Frame time of `wire` bytes at `rate` bit/s as the flow's NIC clock counts it (timing.ts), ps. */
@inline
function frameTime(fa: usize, wire: i32, rate: i64): i64 {
  return (<i64>wire * 8_000_000_000_000) / clockRate(portAt(load<i32>(fa + SF_PORT)), rate);
}

/** Whether the flow has something to send (data left, or a PSN to send or resend). */
@inline
function hasData(fa: usize): bool {
  if (load<i32>(fa + SF_TRANSPORT) == TRANSPORT_ROCE) return roceHasData(fa);
  return load<i64>(fa + SF_LEFT) != 0;
}

/**
 * The earliest time the flow may hand its next frame to its TC queue (FOREVER: nothing to send until
 * the transport says so, or stopped). The later of its arrival process (new data only) and its rate
 * limiter at the current rate, moved out of off periods.
 */
function readyAt(fa: usize): i64 {
  if (now >= load<i64>(fa + SF_STOP) || !hasData(fa)) return FOREVER;
  let t = load<i64>(fa + SF_START);
  if (load<i64>(fa + SF_RATE) > 0 && (load<i32>(fa + SF_TRANSPORT) != TRANSPORT_ROCE || isNewPsn(fa))) {
    const next = load<i64>(fa + SF_NEXT_AT);
    if (next > t) t = next;
  }
  const cr = rpRate(fa);
  if (cr > 0 && load<i32>(fa + SF_LAST_WIRE) > 0) {
    // The limiter's gap after the last frame, at the rate in force now (cached: rates repeat).
    const wire = load<i32>(fa + SF_LAST_WIRE);
    let gap = load<i64>(fa + SF_PACE_PS);
    if (cr != load<i64>(fa + SF_PACE_RATE) || wire != load<i32>(fa + SF_PACE_BYTES)) {
      gap = frameTime(fa, wire, cr);
      store<i64>(fa + SF_PACE_PS, gap);
      store<i64>(fa + SF_PACE_RATE, cr);
      store<i32>(fa + SF_PACE_BYTES, wire);
    }
    const rl = load<i64>(fa + SF_LAST_AT) + gap;
    if (rl > t) t = rl;
  }
  return inOnPeriod(fa, t > now ? t : now);
}

/** Whether a roce flow's next PSN is new data (a resent PSN's data was made long ago: it waits for no arrival). */
@inline
function isNewPsn(fa: usize): bool { return load<i64>(fa + SF_SND_NXT) >= load<i64>(fa + SF_SND_MAX); }

/** Advances the arrival process by one frame of `wire` bytes: a constant gap, or an exponential one (Poisson). */
@inline
function advanceArrivals(fa: usize, wire: i32): void {
  const rate = load<i64>(fa + SF_RATE);
  if (rate == 0) return;
  let gap: i64;
  if (load<i32>(fa + SF_GAPS) == GAPS_POISSON) {
    // Exponential with mean one frame time: -ln(U) x mean, U uniform in (0, 1) from the source's stream.
    const u = (<f64>rngNext(fa + SF_RNG) + 0.5) / 4294967296.0;
    gap = <i64>(-Math.log(u) * <f64>frameTime(fa, wire, rate));
  } else {
    gap = load<i64>(fa + SF_ARR_PS);
    if (wire != load<i32>(fa + SF_ARR_BYTES)) {
      gap = frameTime(fa, wire, rate);
      store<i64>(fa + SF_ARR_PS, gap);
      store<i32>(fa + SF_ARR_BYTES, wire);
    }
  }
  store<i64>(fa + SF_NEXT_AT, inOnPeriod(fa, load<i64>(fa + SF_NEXT_AT) + gap));
}

/** Queues the flow's one live FLOW event at t (an earlier live one stays; a later one goes stale); whether it queued one. */
@inline
function armFlow(f: i32, fa: usize, t: i64): bool {
  if (t == FOREVER) return false;
  const queued = load<i64>(fa + SF_FLOW_EV_AT);
  if (queued <= t && queued >= now) return false;
  store<i64>(fa + SF_FLOW_EV_AT, t);
  evPush(MAIN, t, (EV_FLOW << 28) | <u32>f);
  return true;
}

/**
 * A waiting flow (not DONE) that readyAt found ready at t > now: its FLOW event then, TIMED when
 * that event is at t and readyAt's inputs change only by rateChanged (open loop; a roce flow's
 * ACKs move its PSNs without a call here), else OUT_OF_RING (an earlier event checks again).
 */
@inline
function waitUntil(f: i32, fa: usize, t: i64): void {
  const timed = armFlow(f, fa, t) && load<i32>(fa + SF_TRANSPORT) != TRANSPORT_ROCE;
  store<i32>(fa + SF_STATE, timed ? TIMED : OUT_OF_RING);
}

/** Appends flow f at the tail of its (port, TC) ring. */
@inline
function ringJoin(pa: usize, tc: i32, f: i32, fa: usize): void {
  const tailAt = tcQueue(pa, tc) + SQ_NIC_RING;
  const tail = load<i32>(tailAt);
  if (tail < 0) store<i32>(fa + SF_RING_NEXT, f);
  else {
    const ta = flowAt(tail);
    store<i32>(fa + SF_RING_NEXT, load<i32>(ta + SF_RING_NEXT));
    store<i32>(ta + SF_RING_NEXT, f);
  }
  store<i32>(tailAt, f);
  store<i32>(fa + SF_STATE, IN_RING);
}

/** Takes flow f, the head of the ring whose tail is `tail`, out of it: deficit reset, as DRR does for an empty queue. */
@inline
function ringLeaveHead(tailAt: usize, tail: i32, ta: usize, f: i32, fa: usize, state: i32): void {
  if (f == tail) store<i32>(tailAt, -1);
  else store<i32>(ta + SF_RING_NEXT, load<i32>(fa + SF_RING_NEXT));
  store<i32>(fa + SF_STATE, state);
  store<i32>(fa + SF_DEFICIT, 0);
  store<i32>(fa + SF_TURN, 0);
}

/**
 * Puts flow f into its NIC ring if it is ready now, else queues its FLOW event for when it will be;
 * then lets the NIC fill the TC queue and the port transmit. Called when something may have made
 * the flow ready: its FLOW event, a rate change, an ACK, a NACK or a timeout.
 */
export function flowWake(f: i32, fa: usize): void {
  if (!waiting(load<i32>(fa + SF_STATE))) return;
  if (now >= load<i64>(fa + SF_STOP)) { store<i32>(fa + SF_STATE, DONE); return; }
  const t = readyAt(fa);
  if (t > now) { waitUntil(f, fa, t); return; }
  flowReady(f, fa);
}

/** Flow f, waiting and ready now, joins its ring; the NIC fills the TC queue and the port transmits. */
@inline
function flowReady(f: i32, fa: usize): void {
  const p = load<i32>(fa + SF_PORT);
  const pa = portAt(p);
  const tc = load<i32>(fa + SF_TC);
  // Into an empty ring it becomes the head, whose readiness nicServe would compute again.
  const alone = load<i32>(tcQueue(pa, tc) + SQ_NIC_RING) < 0;
  ringJoin(pa, tc, f, fa);
  nicServe(p, pa, tc, alone ? f : -1);
  tryTransmit(p);
}

/** FLOW event at t: the flow may be ready (start, arrival process, rate limiter, on period). */
export function flowEvent(f: i32, t: i64): void {
  const fa = flowAt(f);
  if (load<i64>(fa + SF_FLOW_EV_AT) != t) return; // stale: re-timed since
  store<i64>(fa + SF_FLOW_EV_AT, FOREVER);
  if (load<i32>(fa + SF_STATE) != TIMED) { flowWake(f, fa); return; }
  // Ready now, as readyAt said when it queued this event, unless the source stops.
  if (now >= load<i64>(fa + SF_STOP)) store<i32>(fa + SF_STATE, DONE);
  else flowReady(f, fa);
}

/** The flow's rate limit changed (CNM, CNP, RP timer): re-time it if it waits out of its ring. */
export function rateChanged(f: i32, fa: usize): void {
  if (!waiting(load<i32>(fa + SF_STATE))) return;
  const t = readyAt(fa);
  // Earlier: queue an event then (the later one goes stale). Later: the queued event finds the flow
  // not ready yet and re-arms, so a rate cut pushes nothing (and the flow is no longer TIMED).
  if (t <= now) flowWake(f, fa);
  else waitUntil(f, fa, t);
}

/**
 * Pulls frames from the ring of (port p, TC tc) into the TC queue while it has room, by deficit
 * round robin. The caller starts transmission (tryTransmit) afterwards. `readyFlow`: a flow the
 * caller found ready at this instant (readyAt <= now) and put at the ring's head, so its first
 * visit need not compute that again (-1: none).
 */
export function nicServe(p: i32, pa: usize, tc: i32, readyFlow: i32 = -1): void {
  const q = tcQueue(pa, tc);
  const tailAt = q + SQ_NIC_RING;
  const qbAt = q + SQ_BYTES;
  const headAt = q + SQ_HEAD;
  const qtailAt = q + SQ_TAIL;
  // Room: fewer than host_queue bytes, or at most one frame (so the frame being sent has a successor
  // and the TC does not empty between frames, which would reset its ETS deficit).
  while (load<i32>(qbAt) < hostQueue || load<i32>(headAt) == load<i32>(qtailAt)) {
    const tail = load<i32>(tailAt);
    if (tail < 0) return;
    const ta = flowAt(tail);
    const f = load<i32>(ta + SF_RING_NEXT);
    const fa = flowAt(f);
    const t = f == readyFlow ? now : readyAt(fa);
    readyFlow = -1;
    if (t > now) {
      // Not ready: out of the ring; back when its FLOW event finds it ready.
      if (now >= load<i64>(fa + SF_STOP)) ringLeaveHead(tailAt, tail, ta, f, fa, DONE);
      else {
        ringLeaveHead(tailAt, tail, ta, f, fa, OUT_OF_RING);
        waitUntil(f, fa, t);
      }
      // It was the ring's only flow (a paced flow after its frame, the usual case): the ring is
      // empty, so the loop would only find that out.
      if (f == tail) return;
      continue;
    }
    if (load<i32>(fa + SF_TURN) == 0) {
      store<i32>(fa + SF_TURN, 1);
      store<i32>(fa + SF_DEFICIT, load<i32>(fa + SF_DEFICIT) + load<i32>(fa + SF_QUANTUM));
    }
    const bytes = nextFrameBytes(fa);
    const wire = wireBytes(bytes);
    const deficit = load<i32>(fa + SF_DEFICIT);
    if (deficit < wire) {
      // Turn over: the head moves to the tail (the ring's tail pointer advances to it).
      store<i32>(fa + SF_TURN, 0);
      store<i32>(tailAt, f);
      continue;
    }
    const k = allocPacket();
    if (k < 0) {
      // Packet pool exhausted (counted): this flow tries again a microsecond later.
      ringLeaveHead(tailAt, tail, ta, f, fa, OUT_OF_RING);
      armFlow(f, fa, now + 1_000_000);
      return;
    }
    store<i32>(fa + SF_DEFICIT, deficit - wire);
    takeFrame(p, pa, tc, f, fa, k, bytes);
  }
}

/** Builds flow f's next frame in packet k and queues it on TC tc: counters, arrival process, limiter, transport. */
@inline
function takeFrame(p: i32, pa: usize, tc: i32, f: i32, fa: usize, k: i32, bytes: i32): void {
  const ka = pktAt(k);
  store<i32>(ka + SK_FLOW, f);
  store<i32>(ka + SK_BYTES, bytes);
  store<i32>(ka + SK_PRIO, load<i32>(fa + SF_PRIO));
  store<i32>(ka + SK_PORT, p);
  store<i32>(ka + SK_HOP, 0);
  const wire = wireBytes(bytes);
  if (load<i32>(fa + SF_TRANSPORT) == TRANSPORT_ROCE) {
    if (isNewPsn(fa)) advanceArrivals(fa, wire);
    roceTakeFrame(f, fa, ka, bytes);
  } else {
    store<i32>(ka + SK_KIND, PKT_DATA);
    const left = load<i64>(fa + SF_LEFT);
    if (left > 0) store<i64>(fa + SF_LEFT, left - <i64>bytes > 0 ? left - <i64>bytes : 0);
    store<i32>(fa + SF_NEXT_BYTES, 0);
    advanceArrivals(fa, wire);
  }
  enqueue(pa, tc, k, bytes);
  store<i64>(fa + SF_SENT, load<i64>(fa + SF_SENT) + <i64>bytes);
  store<i64>(fa + SF_LAST_AT, now);
  store<i32>(fa + SF_LAST_WIRE, wire);
  // The rate limiter's queue is the flow itself: its backlog is 0 when the frame leaves it.
  if (((qcnMask >> load<i32>(fa + SF_PRIO)) & 1) != 0) {
    qcnRpOnFrameSent(fa + SF_RP, now, bytes, 0);
    armRp(f, fa);
  }
}
