// Discrete-event simulator of a DCB fabric (hosts, switches, full-duplex links), docs/design.md §4.
//
// Model. Time is integer picoseconds. A port transmits one frame at a time: serialisation takes
// (frame + WIRE_OVERHEAD) x ps-per-byte, then the frame propagates for the link delay and arrives whole at the
// peer (store and forward). Switches admit a frame at its ingress port's priority group (PG):
// lossy priorities tail-drop on the egress queue limit or a full shared pool; PFC/PAUSE
// priorities fill the shared pool up to the XOFF threshold, then their PG's headroom, and are
// dropped (counted) only beyond it; credit priorities never overflow because senders hold credit.
// Egress ports keep one FIFO per TC and select with ETS. PFC, PAUSE, credit grants and CNMs are
// real 64-byte frames: they wait for the frame on the wire, serialise, propagate and act at arrival.
//
// State lives in the arena tables of assembly/sim/layout.ts (SH_, SN_, SP_, SK_, SF_, SC_); nothing
// allocates after simInit and memory never grows during a run. The engine is split by model, as
// ns-3 splits qbb-net-device / switch-mmu / switch-node / rdma-hw: arena.ts (state, pool, codes),
// events.ts (two heaps and two FIFOs), queues.ts (egress FIFOs), link.ts (transmission and arrival),
// mmu.ts (switch admission, PFC generation, forwarding), nic.ts (traffic sources, the NIC's scheduler
// among flows, reaction points, deliveries), transport.ts (RoCE go-back-N), watchdog.ts (PFC
// watchdog), setup.ts (reading the host's tables, configuring the records, the packet pool, the first
// events); this file holds the event loop only.
//
// Events (payload = type << 28 | index; equal times run in (type, entity) order, events.ts):
//   TX_DONE(port)  ARRIVE(packet; keyed by its receiving port)  FLOW(flow)  WAKE(port)  REFRESH(port)
//   RP_TIMER(flow) STORM(storm)    WATCHDOG(poll interval index)  CREDIT_REFRESH(0)  RTO(flow)
// Parameters that a node's config sets (flow-control mode per priority, pause time, watchdog, QCN
// CP and RP parameters) are read from the port or flow record, never from one global.
// Stale events (a refresh after XON, a timer after a newer CNM) are recognised by comparing the
// event time with the deadline stored in the record.
//
// Deliveries to hosts. A host consumes a data frame on arrival and nothing else in the fabric
// depends on when it does, unless the frame carries a CE mark for a dcqcn notification point or
// its priority is credit-controlled at the host (both answer with frames). Other data frames to a
// host get no ARRIVE event: the sending port keeps them in a FIFO (its sink list; a link delivers
// in send order) with their arrival times, and delivers every frame that has arrived whenever it
// starts another frame and, for all ports, at the end of each simRunUntil batch, before the host
// reads the counters. What the host sees (bytes delivered and the time of the last delivery per
// flow, up to each batch's end) is exactly what ARRIVE events would have produced; one event per
// frame into a host is saved.
import { PFC_PAUSE_TIME, PKT_PFC } from '../layout';
import {
  SC_EVENTS, SC_NOW, SC_STORM_XOFF, SC_XOFF_REFRESHES, SF_PORT, SF_RP, SF_RP_EV_AT, SP_FLAGS, SP_PFC, SP_REFRESH_EV,
  SP_SINK_HEAD, SP_SIZE, SP_WAKE_AT, SS_INTERVAL, SS_PORT, SS_PRIO, SS_SIZE, SS_STOP,
} from './layout';
import { pfcRefreshDue } from '../pfc';
import { qcnRpAdvance } from '../qcn_rp';
import {
  EV_ARRIVE, EV_CREDIT_REFRESH, EV_FLOW, EV_REFRESH, EV_RP_TIMER, EV_RTO, EV_STORM, EV_TX_DONE, EV_WAKE, EV_WATCHDOG,
  F_DONE_QUEUED, FOREVER, INDEX_MASK, count, creditAging, ctr, flowAt, nPorts, now, owns, part, pktAt, portAt, storms, wdPolls,
} from './arena';
import { ARR, ARR_FIFO, MAIN, TX, evDone, evFifoSecond, evNext, evOverflow, evPayloadAt, evPush, evTake, evTopTime } from './events';
import { arrive, tryTransmit } from './link';
import { armRefresh, creditRefresh, sendPendingPause } from './mmu';
import { armRp, deliverArrived, flowEvent, rateChanged } from './nic';
import { rtoEvent } from './transport';
import { sendControl } from './queues';
import { watchdogPoll } from './watchdog';

/** Target of the touch-ahead loads' stores (static, or a partition's scratch: stores must not be shared). */
let touched: usize = memory.data(8, 8);
export function useTouchTarget(at: usize): void { touched = at; }
/**
 * Port records beyond which touchSoon pays: below it the records stay in the caches and the extra
 * loads only cost (16:1 incast, 17 ports: 33 -> 36 ns per event); above it the early misses save
 * more (k = 16 fat tree, 21 MB of ports: -3.5 %; k = 28, 114 MB: -12 %; docs/sim.md).
 */
const TOUCH_AHEAD_PORT_BYTES: i64 = 8 << 20;
let touchAhead = false;

/** Loads the first word of the record an arrival (packet) or transmitter-done (port) event works on. */
@inline
function touch(payload: u32): void {
  const type = payload >> 28;
  const idx = <i32>(payload & INDEX_MASK);
  if (type == EV_ARRIVE) store<i32>(touched, load<i32>(pktAt(idx)));
  else if (type == EV_TX_DONE) store<i32>(touched, load<i32>(portAt(idx) + SP_FLAGS));
  else if (type == EV_FLOW) store<i32>(touched, load<i32>(flowAt(idx) + SF_PORT));
}

/**
 * Starts the cache misses of the events likely to come next while this one is handled: the roots of
 * the other queues and the children of this heap's root or the entry behind this FIFO's head (the
 * next event is among them unless this one queues an earlier one). Their records' lines arrive
 * while this event's own misses wait.
 */
@inline
function touchSoon(h: usize): void {
  if (h == ARR) { touch(evPayloadAt(ARR, 1)); touch(evPayloadAt(ARR, 2)); } else touch(evPayloadAt(ARR, 0));
  touch(h == TX ? evFifoSecond(TX) : evPayloadAt(TX, 0));
  if (h == MAIN) { touch(evPayloadAt(MAIN, 1)); touch(evPayloadAt(MAIN, 2)); } else touch(evPayloadAt(MAIN, 0));
  touch(h == ARR_FIFO ? evFifoSecond(ARR_FIFO) : evPayloadAt(ARR_FIFO, 0));
}

/**
 * Processes every event due at or before `until` ps; returns 0, or 1 if the event heap overflowed.
 * The host calls this once per sampling interval and reads the tables in between.
 */
export function simRunUntil(until: i64): i32 {
  runEvents(until);
  simBatchEnd(until);
  return evOverflow;
}

/** Events handled since the last batch end (added to SC_EVENTS there). */
let eventsRun: i64 = 0;

/** Events handled since the last batch end (the window profile of a partitioned run reads it). */
export function simEventsRun(): i64 { return eventsRun; }

/** Clears the loop's own state for a run whose tables simAttach just read (setup.ts). */
export function loopReset(): void {
  eventsRun = 0;
  touchAhead = <i64>nPorts * <i64>SP_SIZE > TOUCH_AHEAD_PORT_BYTES;
}

/**
 * Handles every pending event due at or before `last`, in (time, key) order. Fabric-wide events
 * (watchdog polls, credit re-grants) run in every partition, each over its own ports, and are
 * counted once, by partition 0, so that SC_EVENTS is the serial run's.
 */
export function runEvents(last: i64): void {
  let events: i64 = 0;
  while (true) {
    const h = evNext();
    if (h == 0) break;
    const t = evTopTime(h);
    if (t > last) break;
    if (touchAhead) touchSoon(h);
    const payload = evTake(h);
    now = t;
    events++;
    const idx = <i32>(payload & INDEX_MASK);
    const type = payload >> 28;
    if (type == EV_ARRIVE) arrive(idx);
    else if (type == EV_TX_DONE) {
      const pa = portAt(idx);
      store<i32>(pa + SP_FLAGS, load<i32>(pa + SP_FLAGS) & ~F_DONE_QUEUED);
      tryTransmit(idx);
    } else if (type == EV_FLOW) flowEvent(idx, t);
    else if (type == EV_WAKE) {
      const pa = portAt(idx);
      if (load<i64>(pa + SP_WAKE_AT) == t) {
        store<i64>(pa + SP_WAKE_AT, 0);
        tryTransmit(idx);
      }
    } else if (type == EV_REFRESH) {
      const pa = portAt(idx);
      if (load<i64>(pa + SP_REFRESH_EV) == t) {
        store<i64>(pa + SP_REFRESH_EV, FOREVER);
        const rec = pa + SP_PFC;
        count(SC_XOFF_REFRESHES, <i64>popcnt<i32>(pfcRefreshDue(rec, t)));
        sendPendingPause(idx, rec);
        armRefresh(idx, pa, rec);
      }
    } else if (type == EV_RP_TIMER) {
      const fa = flowAt(idx);
      if (load<i64>(fa + SF_RP_EV_AT) == t) {
        store<i64>(fa + SF_RP_EV_AT, FOREVER);
        qcnRpAdvance(fa + SF_RP, t);
        armRp(idx, fa);
        rateChanged(idx, fa);
      }
    } else if (type == EV_RTO) {
      rtoEvent(idx, t);
    } else if (type == EV_STORM) {
      const sa = storms + <usize>idx * SS_SIZE;
      if (now < load<i64>(sa + SS_STOP)) {
        const p = load<i32>(sa + SS_PORT);
        count(SC_STORM_XOFF, 1);
        const bit = 1 << load<i32>(sa + SS_PRIO);
        sendControl(p, PKT_PFC, bit | (bit << 8), load<i32>(portAt(p) + SP_PFC + PFC_PAUSE_TIME), -1);
        evPush(MAIN, now + load<i64>(sa + SS_INTERVAL), (EV_STORM << 28) | <u32>idx);
      }
    } else if (type == EV_CREDIT_REFRESH) {
      if (part != 0) events--;
      creditRefresh();
      evPush(MAIN, now + (creditAging >> 1), EV_CREDIT_REFRESH << 28);
    } else if (type == EV_WATCHDOG) {
      if (part != 0) events--;
      watchdogPoll(idx);
      evPush(MAIN, now + load<i64>(wdPolls + (<usize>idx << 3)), (EV_WATCHDOG << 28) | <u32>idx);
    }
    evDone();
  }
  eventsRun += events;
}

/**
 * Ends a batch at `until` (every event due by then handled): the clock moves there, every own port
 * delivers what reached its host by then, and the counters take the events handled and the time.
 */
export function simBatchEnd(until: i64): void {
  if (until > now) now = until;
  for (let p = 0; p < nPorts; p++) {
    const pa = portAt(p);
    if (load<i32>(pa + SP_SINK_HEAD) >= 0 && owns(p)) deliverArrived(pa, until);
  }
  store<i64>(ctr + SC_EVENTS, load<i64>(ctr + SC_EVENTS) + eventsRun);
  eventsRun = 0;
  store<i64>(ctr + SC_NOW, now);
}
