// Set-up of a fabric run (docs/sim.md, "Model"): reads the header and tables the host wrote into
// the arena (assembly/sim/layout.ts SH_*), configures every port, kernel and flow record from the
// fields the host filled in, links the packet pool and queues each entity's first event. Runs
// once per run, before the event loop (engine.ts); nothing here is on the per-packet path.
// A serial run calls simInit; a partitioned run calls simSetup once on the shared tables, then
// each partition simAttach, linkPool and seedEvents on its own slice (partition.ts).
import { creditConfigure, creditOnGrant } from '../credit';
import { etsConfigure } from '../ets';
import { CREDIT_CAPACITY, ETS_PRIO_TC, FC_CREDIT, FC_LOSSY } from '../layout';
import {
  SF_NP, SF_PORT, SF_RP, SF_RP_EV_AT, SF_START, SH_COUNTERS, SH_CREDIT_AGING, SH_FLOWS, SH_HEAP, SH_HEAP_CAP, SH_HOSTQ,
  SH_MAX_FRAME, SH_MIX, SH_NFLOWS, SH_NH, SH_NHOSTS, SH_NODES, SH_NPORTS, SH_NSTORMS, SH_NWD_POLLS, SH_PATHS,
  SH_PATH_LEN, SH_POOL, SH_POOL_CAP, SH_PORTS, SH_QCN_MASK, SH_QCN_PROFILE, SH_REV_PATHS, SH_ROUTE, SH_SEED, SH_STORMS,
  SH_WDLOG, SH_WDLOG_CAP, SH_WD_POLLS, SIM_ID_RP, SIM_ID_START, SK_NEXT, SF_FLOW_EV_AT, SF_NEXT_AT, SF_RTO_AT,
  SF_RTO_EV_AT, SF_START_JITTER, SP_CP_AT, SP_CREDIT_MASK, SP_CR_LASTCL, SP_CTRL_HEAD, SP_CTRL_TAIL, SP_ETS, SP_FLAGS,
  SP_LOSSLESS, SP_PAUSED_VALID, SP_PEER, SP_PFC, SP_PRIO_TC, SP_REFRESH_EV, SP_SINK_HEAD, SP_SINK_PRIOS,
  SP_SINK_TAIL, SP_WD_DETECT, SP_WD_POLL, SP_FLAG_WATCHED, SQ_HEAD, SQ_NIC_RING, SQ_TAIL, SP_WD_LEFT, SS_PORT, SS_SIZE, SS_START,
} from './layout';
import { pfcConfigure } from '../pfc';
import { dcqcnCpConfigure, qcnCpConfigure } from '../qcn_cp';
import { dcqcnNpConfigure, qcnRpConfigure } from '../qcn_rp';
import {
  CREDIT_HALF, EV_CREDIT_REFRESH, EV_FLOW, EV_STORM, EV_WATCHDOG, FOREVER, anyCredit, cpRec, creditAging, creditMaskAt,
  creditRec, ctr, dcqcn, flowAt, flows, freeList, hdr, poolEnd, poolNext, hostQueue, mix, modeAt, nFlows, routeColumns,
  nPorts, nStorms, nh, nodes, now, owns, pathLen, paths, pktAt, pool, portAt, ports, qcnMask, revPaths, route, storms,
  wdCap, wdPolls, wdlog,
} from './arena';
import { MAIN, evOverflow, evPush, evReset } from './events';
import { tracePaths } from './mmu';
import { tcQueue } from './queues';
import { rngNext, rngSeed } from '../rng';
import { timingSetup } from './timing';
import { loopReset } from './engine';

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
  // Arrivals (heap ARR, ARR_FIFO): at most one per packet record; FIFO TX: at most one transmitter-done per port.
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
  loopReset();
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
      const q = tcQueue(pa, tc);
      store<i32>(q + SQ_HEAD, -1);
      store<i32>(q + SQ_TAIL, -1);
      store<i32>(q + SQ_NIC_RING, -1);
    }
    store<i32>(pa + SP_CTRL_HEAD, -1);
    store<i32>(pa + SP_CTRL_TAIL, -1);
    store<i64>(pa + SP_REFRESH_EV, FOREVER);
    store<i64>(pa + SP_PAUSED_VALID, 0); // the first frame start asks the PFC kernel (link.ts pausedPrios)
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
    // Only the watchdog's polls read the frames sent per priority: an unwatched port does not count them.
    if (load<i32>(pa + SP_WD_POLL) >= 0) store<i32>(pa + SP_FLAGS, load<i32>(pa + SP_FLAGS) | SP_FLAG_WATCHED);
    timingSetup(p, seed); // this port's clock and its stream (timing.ts)
    // Kernel records: the host wrote their config fields (host/sim/fabric.ts through host/core/kernels/*),
    // each kernel's configure derives the rest. ETS quanta are for the fabric's largest frame.
    pfcConfigure(pa + SP_PFC);
    etsConfigure(pa + SP_ETS, load<i32>(hdr + SH_MAX_FRAME));
    // Congestion points: a switch port's in a fabric with QCN (the host gave it a table, SP_CP_AT).
    if (load<u32>(pa + SP_CP_AT) != 0) {
      for (let tc = 0; tc < 8; tc++) {
        if (dcqcn) dcqcnCpConfigure(cpRec(pa, tc), seed, <u32>(p * 8 + tc));
        else qcnCpConfigure(cpRec(pa, tc), seed, <u32>(p * 8 + tc));
      }
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

/** One xorshift32 state for draws made once at init (start jitter). */
const STREAM: usize = memory.data(8, 8);

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
