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
// State lives in the arena tables of assembly/layout.ts (SH_, SN_, SP_, SK_, SF_, SC_); nothing
// allocates after simInit and memory never grows during a run. The engine is split by model, as
// ns-3 splits qbb-net-device / switch-mmu / switch-node / rdma-hw: arena.ts (state, pool, codes),
// events.ts (the three heaps), queues.ts (egress FIFOs), link.ts (transmission and arrival),
// mmu.ts (switch admission, PFC generation, forwarding), nic.ts (traffic sources, the NIC's scheduler
// among flows, reaction points, deliveries), transport.ts (RoCE go-back-N), watchdog.ts (PFC
// watchdog); this file holds simInit and the event loop only.
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
import { creditConfigure, creditOnGrant } from '../credit';
import { etsConfigure } from '../ets';
import {
  CREDIT_CAPACITY, ETS_PRIO_TC, FC_CREDIT, FC_LOSSY, PFC_PAUSE_TIME, PKT_PFC, SC_EVENTS, SC_NOW, SC_STORM_XOFF, SC_XOFF_REFRESHES,
  SF_NP, SF_PORT, SF_RP, SF_RP_EV_AT, SF_START, SH_COUNTERS, SH_CREDIT_AGING, SH_FLOWS,
  SH_HEAP, SH_HEAP_CAP, SH_HOSTQ, SH_MAX_FRAME, SH_MIX, SH_NFLOWS, SH_NH, SH_NHOSTS, SH_NODES, SH_NPORTS,
  SH_NSTORMS, SH_NWD_POLLS, SH_PATHS, SH_PATH_LEN, SH_POOL, SH_POOL_CAP, SH_PORTS, SH_QCN_MASK, SH_QCN_PROFILE,
  SH_REV_PATHS, SH_ROUTE, SH_SEED, SH_STORMS, SH_WDLOG, SH_WDLOG_CAP, SH_WD_POLLS, SIM_ID_RP, SIM_ID_START, SK_NEXT,
  SF_FLOW_EV_AT, SF_NEXT_AT, SF_RTO_AT, SF_RTO_EV_AT, SF_START_JITTER, SP_CREDIT_MASK,
  SP_CR_LASTCL, SP_CTRL_HEAD, SP_CTRL_TAIL, SP_ETS, SP_FLAGS, SP_LOSSLESS, SP_PEER, SP_PFC, SP_PPB,
  SP_PRIO_TC, SP_QHEAD, SP_QTAIL, SP_REFRESH_EV, SP_SINK_HEAD, SP_SINK_PRIOS, SP_SINK_TAIL, SP_SIZE,
  SP_NIC_RING, SP_WAKE_AT, SP_WD_DETECT, SP_WD_LEFT, SS_INTERVAL, SS_PORT, SS_PRIO, SS_SIZE, SS_START,
  SS_STOP,
} from '../layout';
import { pfcConfigure, pfcRefreshDue } from '../pfc';
import { dcqcnCpConfigure, qcnCpConfigure } from '../qcn_cp';
import { dcqcnNpConfigure, qcnRpAdvance, qcnRpConfigure } from '../qcn_rp';
import {
  CREDIT_HALF, EV_ARRIVE, EV_CREDIT_REFRESH, EV_FLOW, EV_REFRESH, EV_RP_TIMER, EV_RTO, EV_STORM,
  EV_TX_DONE, EV_WAKE, EV_WATCHDOG, FOREVER, INDEX_MASK, anyCredit, count, cpRec, creditAging, creditMaskAt,
  creditRec, ctr, dcqcn, flowAt, flows, freeList, hdr, poolEnd, poolNext, hostQueue, mix, modeAt, nFlows, routeColumns,
  nPorts, nStorms, nh, nodes, now, owns, part, pathLen, paths, pktAt, pool, portAt, ports, qcnMask, revPaths, route, storms,
  wdCap, wdPolls, wdlog,
} from './arena';
import { ARR, MAIN, TX, evDone, evNext, evOverflow, evPayloadAt, evPush, evReset, evTake, evTopTime } from './events';
import { arrive, tryTransmit } from './link';
import { armRefresh, creditRefresh, sendPendingPause, tracePaths } from './mmu';
import { armRp, deliverArrived, flowEvent, rateChanged } from './nic';
import { rngNext, rngSeed } from '../rng';
import { timingSetup } from './timing';
import { rtoEvent } from './transport';
import { sendControl } from './queues';
import { watchdogPoll } from './watchdog';

/**
 * Reads the header the host wrote at `base`, links the packet free list, configures the kernels,
 * traces the flows' paths and seeds the events. Returns 0; 1 if the event heap is too small, 2 if a
 * flow's path is longer than the path table's rows (both host sizing bugs).
 */
export function simInit(base: i32): i32 {
  const setup = simSetup(base);
  if (setup != 0) return setup;
  // Packet pool: records handed out in order, then recycled through a free list (arena.ts).
  const poolCap = load<i32>(hdr + SH_POOL_CAP);
  linkPool(0, poolCap);
  // Heap ARR: at most one arrival per packet record; TX: at most one transmitter-done per port.
  evReset(<usize>load<i32>(hdr + SH_HEAP), load<i32>(hdr + SH_HEAP_CAP), nPorts + 1, poolCap);
  seedEvents();
  return evOverflow;
}

/** Reads the table addresses and fabric-wide parameters from the header at `base` into this instance's globals. */
export function simAttach(base: i32): void {
  hdr = <usize>base;
  nPorts = load<i32>(hdr + SH_NPORTS);
  nFlows = load<i32>(hdr + SH_NFLOWS);
  routeColumns = load<i32>(hdr + SH_NHOSTS);
  ports = <usize>load<i32>(hdr + SH_PORTS);
  nodes = <usize>load<i32>(hdr + SH_NODES);
  flows = <usize>load<i32>(hdr + SH_FLOWS);
  pool = <usize>load<i32>(hdr + SH_POOL);
  route = <usize>load<i32>(hdr + SH_ROUTE);
  nh = <usize>load<i32>(hdr + SH_NH);
  paths = <usize>load<i32>(hdr + SH_PATHS);
  pathLen = load<i32>(hdr + SH_PATH_LEN);
  revPaths = load<i32>(hdr + SH_REV_PATHS) != 0;
  mix = <usize>load<i32>(hdr + SH_MIX);
  ctr = <usize>load<i32>(hdr + SH_COUNTERS);
  wdlog = <usize>load<i32>(hdr + SH_WDLOG);
  wdCap = load<i32>(hdr + SH_WDLOG_CAP);
  storms = <usize>load<i32>(hdr + SH_STORMS);
  nStorms = load<i32>(hdr + SH_NSTORMS);
  qcnMask = load<i32>(hdr + SH_QCN_MASK);
  creditAging = load<i64>(hdr + SH_CREDIT_AGING);
  hostQueue = load<i32>(hdr + SH_HOSTQ);
  wdPolls = <usize>load<i32>(hdr + SH_WD_POLLS);
  dcqcn = load<i32>(hdr + SH_QCN_PROFILE) == 1;
  now = 0;
  eventsRun = 0;
  touchAhead = <i64>nPorts * <i64>SP_SIZE > TOUCH_AHEAD_PORT_BYTES;
  // Credit priorities of any port: written by simSetup into each port record.
  anyCredit = 0;
  for (let p = 0; p < nPorts; p++) anyCredit |= creditMaskAt(portAt(p));
}

/** Gives the packet records [lo, hi) to this instance, none used yet (arena.ts poolNext). */
export function linkPool(lo: i32, hi: i32): void {
  freeList = -1;
  poolNext = lo;
  poolEnd = hi;
}

/**
 * Configures every record the host wrote (ports, kernels, flows, sink lists) and traces the flows'
 * paths: everything but the packet pool and the events. Returns 0, or 2 if a flow's path is longer
 * than the path table's rows.
 */
export function simSetup(base: i32): i32 {
  simAttach(base);
  const seed = <u32>load<i32>(hdr + SH_SEED);
  for (let p = 0; p < nPorts; p++) {
    const pa = portAt(p);
    for (let tc = 0; tc < 8; tc++) {
      store<i32>(pa + SP_QHEAD + (tc << 2), -1);
      store<i32>(pa + SP_QTAIL + (tc << 2), -1);
    }
    store<i32>(pa + SP_CTRL_HEAD, -1);
    store<i32>(pa + SP_CTRL_TAIL, -1);
    for (let tc = 0; tc < 8; tc++) store<i32>(pa + SP_NIC_RING + (tc << 2), -1);
    store<i64>(pa + SP_REFRESH_EV, FOREVER);
    const wdDetect = load<i64>(pa + SP_WD_DETECT);
    for (let pr = 0; pr < 8; pr++) store<i64>(pa + SP_WD_LEFT + (<usize>pr << 3), wdDetect);
    // Modes of this port's priorities: the lossless and credit masks.
    let lossless = 0, credit = 0;
    for (let pr = 0; pr < 8; pr++) {
      const m = modeAt(pa, pr);
      if (m != FC_LOSSY) lossless |= 1 << pr;
      if (m == FC_CREDIT) credit |= 1 << pr;
    }
    store<i32>(pa + SP_LOSSLESS, lossless);
    store<i32>(pa + SP_CREDIT_MASK, credit);
    anyCredit |= credit; // simAttach found none: the masks are written here
    let packed = 0;
    for (let pr = 0; pr < 8; pr++) packed |= (<i32>load<u8>(pa + SP_ETS + ETS_PRIO_TC + pr) & 7) << (3 * pr);
    store<i32>(pa + SP_PRIO_TC, packed);
    timingSetup(p, seed); // this port's clock and its stream (timing.ts)
    // Kernel records: the host wrote their config fields (host/sim/fabric.ts through host/core/kernels/*),
    // each kernel's configure derives the rest. ETS quanta are for the fabric's largest frame.
    pfcConfigure(pa + SP_PFC);
    etsConfigure(pa + SP_ETS, load<i32>(hdr + SH_MAX_FRAME));
    for (let tc = 0; tc < 8; tc++) {
      if (dcqcn) dcqcnCpConfigure(cpRec(pa, tc), seed, <u32>(p * 8 + tc));
      else qcnCpConfigure(cpRec(pa, tc), seed, <u32>(p * 8 + tc));
    }
    // Credit records, one per credit priority: this port's receiver half (its buffer) and sender
    // half. At link-up every sender holds one grant of the peer's whole buffer (CL at ABR 0).
    const peer = portAt(load<i32>(pa + SP_PEER));
    for (let m = credit; m != 0; m &= m - 1) {
      const pr = ctz(m);
      const cr = creditRec(pa, pr);
      creditConfigure(cr);
      const peerCap = load<i32>(creditRec(peer, pr) + CREDIT_CAPACITY);
      const ownCap = load<i32>(cr + CREDIT_CAPACITY);
      creditOnGrant(cr, peerCap < CREDIT_HALF ? peerCap : CREDIT_HALF, 0);
      store<i32>(pa + SP_CR_LASTCL + (pr << 2), ownCap < CREDIT_HALF ? ownCap : CREDIT_HALF);
    }
  }
  if (tracePaths() != 0) return 2;
  for (let f = 0; f < nFlows; f++) {
    const fa = flowAt(f);
    // The host wrote the reaction point's parameters into its record (host/core/kernels/qcn-rp.ts, from the
    // source host's qcn.rp) and the notification point's CNP spacing (from the receiver's).
    qcnRpConfigure(fa + SF_RP, seed, <u32>(SIM_ID_RP | f));
    if (dcqcn) dcqcnNpConfigure(fa + SF_NP);
    store<i64>(fa + SF_RP_EV_AT, FOREVER);
    store<i64>(fa + SF_RTO_AT, FOREVER);
    store<i64>(fa + SF_RTO_EV_AT, FOREVER);
    // The start, delayed by a uniform draw in [0, start_jitter) from the flow's own start stream.
    let start = load<i64>(fa + SF_START);
    const startJitter = load<i64>(fa + SF_START_JITTER);
    if (startJitter > 0) {
      store<u32>(STREAM, rngSeed(seed, <u32>(SIM_ID_START | f)));
      start += <i64>((<f64>rngNext(STREAM) / 4294967296.0) * <f64>startJitter);
      store<i64>(fa + SF_START, start);
    }
    store<i64>(fa + SF_NEXT_AT, start);
    store<i64>(fa + SF_FLOW_EV_AT, start);
  }
  // Priorities whose data frames to a host need no arrival event (see "Deliveries to hosts").
  for (let p = 0; p < nPorts; p++) {
    const pa = portAt(p);
    const peer = portAt(load<i32>(pa + SP_PEER));
    store<i32>(pa + SP_SINK_HEAD, -1);
    store<i32>(pa + SP_SINK_TAIL, -1);
    store<i32>(pa + SP_SINK_PRIOS, (load<i32>(peer + SP_FLAGS) & 1) != 0 ? ~creditMaskAt(peer) & 0xff : 0);
  }
  return 0;
}

/**
 * Queues the first event of every entity this instance owns (owns(): all of them in a serial run):
 * each flow's start, each storm's first XOFF, one poll per watchdog interval and the credit
 * re-grants (each partition polls and re-grants its own ports).
 */
export function seedEvents(): void {
  for (let f = 0; f < nFlows; f++) {
    const fa = flowAt(f);
    if (owns(load<i32>(fa + SF_PORT))) evPush(MAIN, load<i64>(fa + SF_FLOW_EV_AT), (EV_FLOW << 28) | <u32>f);
  }
  for (let s = 0; s < nStorms; s++) {
    const sa = storms + <usize>s * SS_SIZE;
    if (owns(load<i32>(sa + SS_PORT))) evPush(MAIN, load<i64>(sa + SS_START), (EV_STORM << 28) | <u32>s);
  }
  // One poll event per distinct poll interval; each poll visits the ports with that interval.
  const nPolls = load<i32>(hdr + SH_NWD_POLLS);
  for (let g = 0; g < nPolls; g++) evPush(MAIN, load<i64>(wdPolls + (<usize>g << 3)), (EV_WATCHDOG << 28) | <u32>g);
  if (anyCredit != 0 && creditAging > 0) evPush(MAIN, creditAging >> 1, EV_CREDIT_REFRESH << 28);
}

/** Target of the touch-ahead loads' stores (static, or a partition's scratch: stores must not be shared). */
let touched: usize = memory.data(8, 8);
export function useTouchTarget(at: usize): void { touched = at; }
/** One xorshift32 state for draws made once at init (start jitter). */
const STREAM: usize = memory.data(8, 8);
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
 * the other frame heaps and the children of this heap's root (the next event is among them unless
 * this one queues an earlier one). Their records' lines arrive while this event's own misses wait.
 */
@inline
function touchSoon(h: usize): void {
  if (h == ARR) { touch(evPayloadAt(ARR, 1)); touch(evPayloadAt(ARR, 2)); } else touch(evPayloadAt(ARR, 0));
  if (h == TX) { touch(evPayloadAt(TX, 1)); touch(evPayloadAt(TX, 2)); } else touch(evPayloadAt(TX, 0));
  if (h == MAIN) { touch(evPayloadAt(MAIN, 1)); touch(evPayloadAt(MAIN, 2)); } else touch(evPayloadAt(MAIN, 0));
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
      store<i32>(pa + SP_FLAGS, load<i32>(pa + SP_FLAGS) & ~2);
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

/** Number of free packet records (the host checks the pool is back to full after a drained run). */
export function simFreePackets(): i32 {
  let n = poolEnd - poolNext;
  for (let k = freeList; k >= 0; k = load<i32>(pktAt(k) + SK_NEXT)) n++;
  return n;
}

/**
 * Test seam (test/sim-order.test.ts): re-threads the free list of a pool nothing has taken from yet
 * (right after simInit) in the order k_i = (a i + b) mod capacity, a bijection when a and the
 * capacity are coprime (else a = 1 is used). No record index orders anything, so a run must not
 * change.
 */
export function simPermutePool(a: i32, b: i32): void {
  const cap = <i64>load<i32>(hdr + SH_POOL_CAP);
  if (cap <= 0) return;
  let x = <i64>(a & 0x7fffffff) % cap, y = cap;
  while (x != 0) { const r = y % x; y = x; x = r; }
  const step: i64 = y == 1 ? <i64>(a & 0x7fffffff) % cap : 1;
  const off = <i64>(b & 0x7fffffff) % cap;
  let k = <i32>off;
  freeList = k;
  poolNext = poolEnd; // every record is on the list
  for (let i: i64 = 1; i <= cap; i++) {
    const next = i < cap ? <i32>((step * i + off) % cap) : -1;
    store<i32>(pktAt(k) + SK_NEXT, next);
    k = next;
  }
}

/** Reserves `bytes` of arena after the static data, growing memory once; returns its address. */
export function simReserve(bytes: i32): i32 {
  const base = (__heap_base + 63) & ~<usize>63;
  const need = base + <usize>bytes;
  const have = <usize>memory.size() << 16;
  if (need > have) {
    const pages = <i32>((need - have + 0xffff) >> 16);
    if (memory.grow(pages) < 0) return 0;
  }
  return <i32>base;
}
