// Discrete-event simulator of a DCB fabric (hosts, switches, full-duplex links), DESIGN.md §4.
//
// Model. Time is integer picoseconds. A port transmits one frame at a time: serialisation takes
// (frame + 20) x ps-per-byte, then the frame propagates for the link delay and arrives whole at the
// peer (store and forward). Switches admit a frame at its ingress port's priority group (PG):
// lossy priorities tail-drop on the egress queue limit or a full shared pool; PFC/PAUSE
// priorities fill the shared pool up to the XOFF threshold, then their PG's headroom, and are
// dropped (counted) only beyond it; credit priorities never overflow because senders hold credit.
// Egress ports keep one FIFO per TC and select with ETS. PFC, PAUSE, credit grants and CNMs are
// real 64-byte frames: they wait for the frame on the wire, serialise, propagate and act at arrival.
//
// State lives in the arena tables of assembly/layout.ts (SH_, SN_, SP_, SK_, SF_, SC_); nothing
// allocates after simInit and memory never grows during a run.
//
// Events (payload = type << 28 | index):
//   TX_DONE(port)  ARRIVE(packet)  FLOW(flow)  WAKE(port)  REFRESH(port * 16 + pg)
//   RP_TIMER(flow) STORM(storm)    WATCHDOG(poll interval index)  CREDIT_REFRESH(0)
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
import {
  SH_NPORTS, SH_NFLOWS, SH_NHOSTS, SH_POOL_CAP, SH_HEAP_CAP, SH_PORTS, SH_NODES, SH_FLOWS,
  SH_POOL, SH_HEAP, SH_ROUTE, SH_NH, SH_MIX, SH_COUNTERS, SH_WDLOG, SH_WDLOG_CAP, SH_STORMS, SH_NSTORMS,
  SH_QCN_MASK, SH_SEED, SH_HOSTQ, SH_CREDIT_UNIT, SH_QCN_PROFILE, SH_WD_POLLS, SH_NWD_POLLS, SF_NP,
  SP_MODES, SP_LOSSLESS, SP_CREDIT_MASK, SP_PAUSE_TIME, SP_WD_ACTION, SP_WD_POLL, SP_WD_DETECT, SP_WD_RESTORE,
  SP_Q_EQ, SP_W, SP_KMIN, SP_KMAX, SP_PMAX_Q16, SP_SINK_PRIOS, SP_SINK_HEAD, SP_SINK_TAIL, SK_ARRIVE_AT,
  SF_P_BC, SF_P_TH, SF_P_GD, SF_P_MINDEC, SF_P_FLAGS, SF_P_G_Q10, SF_P_TIMER, SF_P_AI, SF_P_HAI, SF_P_MIN,
  SF_P_ALPHA_PS, SF_P_CNP_PS, SF_PACE_BYTES, SF_PACE_RATE, SF_PACE_PS,
  SN_ORD, SN_SHARED_SIZE, SN_SHARED_USED, SN_XOFF, SN_XON, SN_LOSSY_Q, SN_SIZE,
  SP_NODE, SP_PEER, SP_PPB, SP_FLAGS, SP_DELAY, SP_HEADROOM, SP_BACKLOG, SP_QHEAD, SP_QTAIL, SP_QBYTES,
  SP_HEADWIRE, SP_CTRL_HEAD, SP_CTRL_TAIL, SP_QTOTAL, SP_PRIO_TC, SP_UNSAT,
  SP_WD_IGNORE, SP_TX_BYTES_TC, SP_TX_PKTS, SP_PFC_RX,
  SP_WD_DROP, SP_WD_STORM, SP_WD_LEFT, SP_WD_LAST_TX, SP_WD_LAST_RX, 
  SP_CR_LASTCL, SP_CREDIT, SH_CREDIT_AGING, SP_CR_CAP, SP_WAIT_HEAD, SP_WAKE_AT, SP_REFRESH_EV, SP_BUSY_UNTIL, SP_ETS, SP_CP,
  SIM_ID_RP, SP_PFC, SP_SIZE, PFC_PAUSED_UNTIL, PFC_TX_TIME, PFC_PORT_UNIT, PFC_PENDING,
  SK_NEXT, SK_FLOW, SK_BYTES, SK_PRIO, SK_PORT, SK_KIND, SK_A, SK_B, SK_SIZE,
  SF_SRC, SF_DST, SF_PRIO, SF_PORT, SF_FKIND, SF_FA, SF_FB, SF_MIXOFF, SF_MIXN, SF_MIXTOT, SF_RNG,
  SF_STATE, SF_NEXT_WAIT, SF_DST_ORD, SF_SRC_ORD, SF_TC, SF_START, SF_STOP, SF_LEFT, SF_RATE, SF_ON,
  SF_OFF, SF_NEXT_AT, SF_SENT, SF_DELIV, SF_LAST_DELIV, SF_RP_EV_AT, SF_RP, SF_LINE_BPS, SF_SIZE,
  SC_HOPS, SC_EVENTS, SC_DROP_LOSSLESS, SC_DROP_LOSSY, SC_DROP_PRIO, SC_STORM_XOFF, SC_PAUSE_FRAMES,
  SC_CNMS, SC_POOL_EXHAUSTED, SC_WD_EVENTS, SC_GRANTS, SC_NOW, SW_SIZE,
  SS_PORT, SS_PRIO, SS_START, SS_STOP, SS_INTERVAL, SS_SIZE,
} from '../layout';
import { evReset, evPush, evTake, evDone, evNext, evTopTime, evOverflow, MAIN, TX, ARR } from './events';
import { etsConfigure, etsSelect, etsEmptied } from '../ets';
import { ETS_WEIGHTED_MASK, ETS_MAX_WIRE, ETS_PRIO_TC } from '../layout';
import { qcnCpInit, qcnCpEnqueue, qcnCpDequeue } from '../qcn_cp';
import { qcnRpInit, qcnRpOnCnm, qcnRpOnFrameSent, qcnRpAdvance, dcqcnRpConfigure, dcqcnRpOnCnp, dcqcnNpInit, dcqcnNpOnCe } from '../qcn_rp';
import { dcqcnCpInit, dcqcnCpEnqueue, dcqcnCpDequeue } from '../qcn_cp';
import {
  QCN_CP_SIZE, QCN_CP_QF, QCN_RP_ACTIVE, QCN_RP_CR, QCN_RP_DEADLINE, QCN_RP_F_EXTRA_FR, QCN_RP_F_JITTER,
  QCN_RP_F_HALVING, QCN_RP_ALPHA_DEADLINE,
} from '../layout';
import { rngNext } from '../rng';
import {
  pfcArrive, pfcDepart, pfcNextRefresh, pfcRefreshDue, pfcTakePending, pfcReceivePfc, pfcReceivePause,
  pfcBlockedMask, pfcBlockedTcs, pfcInit, pfcSetThresholds, PFC_MODE_OFF, PFC_MODE_PFC, PFC_MODE_PAUSE,
} from '../pfc';
import { creditInit, creditUnits, creditTrySend, creditOnGrant, creditAvailable, creditReceive, creditDrain, creditGrantValue } from '../credit';
import {
  CREDIT_SIZE, PKT_DATA, PKT_PFC, PKT_PAUSE, PKT_CNM, PKT_GRANT, PKT_CNP, FC_LOSSY, FC_PFC, FC_PAUSE, FC_CREDIT, WD_DROP, WD_ALERT,
} from '../layout';

// Event types.
const EV_TX_DONE: u32 = 1;
const EV_ARRIVE: u32 = 2;
const EV_FLOW: u32 = 3;
const EV_WAKE: u32 = 4;
const EV_REFRESH: u32 = 5;
const EV_RP_TIMER: u32 = 6;
const EV_STORM: u32 = 7;
const EV_WATCHDOG: u32 = 8;
const EV_CREDIT_REFRESH: u32 = 9;
const INDEX_MASK: u32 = 0x0fffffff;

// Packet kinds (PKT_*), flow-control modes (FC_*) and watchdog actions (WD_*) are layout codes.
/** Kind bit of a data frame marked Congestion Experienced by a dcqcn CP. */
const CE_BIT: i32 = 1 << 16;
// Buffer account of a queued packet (kind bits 8..15).
const A_NONE: i32 = 0;
const A_LOSSY: i32 = 1;
const A_LOSSLESS: i32 = 2;
const A_CREDIT: i32 = 4;
const CONTROL_FRAME: i32 = 64;
const CREDIT_K: i32 = 16;
const CREDIT_HALF: i32 = 1 << (CREDIT_K - 1);
const CREDIT_MASK: i32 = (1 << CREDIT_K) - 1;
const FOREVER: i64 = 0x7fffffffffffffff;

let hdr: usize = 0;
let ports: usize = 0;
let nodes: usize = 0;
let flows: usize = 0;
let pool: usize = 0;
let route: usize = 0;
let nh: usize = 0;
let mix: usize = 0;
let ctr: usize = 0;
let wdlog: usize = 0;
let storms: usize = 0;
let nPorts: i32 = 0;
let nFlows: i32 = 0;
let nHosts: i32 = 0;
let nStorms: i32 = 0;
let wdCap: i32 = 0;
let freeList: i32 = -1;
let now: i64 = 0;
let qcnMask: i32 = 0;
let creditUnit: i32 = 64;
let creditAging: i64 = 0;
let hostQueue: i32 = 0;
/** Credit priorities of any port (credit re-grant events run only when some port has one). */
let anyCredit: i32 = 0;
let wdPolls: usize = 0;
let dcqcn: bool = false;
/** Eight u16 PFC time fields handed to pfcReceivePfc (static, 16 bytes). */
const PFC_TIMES: usize = memory.data(16, 8);

@inline function portAt(p: i32): usize { return ports + <usize>p * SP_SIZE; }
@inline function nodeAt(n: i32): usize { return nodes + <usize>n * SN_SIZE; }
@inline function flowAt(f: i32): usize { return flows + <usize>f * SF_SIZE; }
@inline function pktAt(k: i32): usize { return pool + <usize>k * SK_SIZE; }
@inline function cpRec(pa: usize, tc: i32): usize { return pa + SP_CP + <usize>(tc * QCN_CP_SIZE); }
/** QCN reaction point of flow record fa: current rate limit (0 while idle) and timer deadline. */
@inline function rpRate(fa: usize): i64 { return load<i32>(fa + SF_RP + QCN_RP_ACTIVE) != 0 ? load<i64>(fa + SF_RP + QCN_RP_CR) : 0; }
@inline function rpDeadline(fa: usize): i64 {
  const d = load<i64>(fa + SF_RP + QCN_RP_DEADLINE);
  if (!dcqcn) return d;
  const a = load<i64>(fa + SF_RP + QCN_RP_ALPHA_DEADLINE);
  return a < d ? a : d;
}
@inline function creditRec(pa: usize, pr: i32): usize { return pa + SP_CREDIT + <usize>(pr * CREDIT_SIZE); }
/** Flow-control mode of priority prio on the port at pa (its node's config). */
@inline function modeAt(pa: usize, prio: i32): i32 { return (load<i32>(pa + SP_MODES) >> (prio << 2)) & 15; }
@inline function creditMaskAt(pa: usize): i32 { return load<i32>(pa + SP_CREDIT_MASK); }
@inline function count(field: i32, by: i64): void { store<i64>(ctr + field, load<i64>(ctr + field) + by); }

/** Reads the header the host wrote at `base`, links the packet free list, seeds the events. */
export function simInit(base: i32): i32 {
  hdr = <usize>base;
  nPorts = load<i32>(hdr + SH_NPORTS);
  nFlows = load<i32>(hdr + SH_NFLOWS);
  nHosts = load<i32>(hdr + SH_NHOSTS);
  ports = <usize>load<i32>(hdr + SH_PORTS);
  nodes = <usize>load<i32>(hdr + SH_NODES);
  flows = <usize>load<i32>(hdr + SH_FLOWS);
  pool = <usize>load<i32>(hdr + SH_POOL);
  route = <usize>load<i32>(hdr + SH_ROUTE);
  nh = <usize>load<i32>(hdr + SH_NH);
  mix = <usize>load<i32>(hdr + SH_MIX);
  ctr = <usize>load<i32>(hdr + SH_COUNTERS);
  wdlog = <usize>load<i32>(hdr + SH_WDLOG);
  wdCap = load<i32>(hdr + SH_WDLOG_CAP);
  storms = <usize>load<i32>(hdr + SH_STORMS);
  nStorms = load<i32>(hdr + SH_NSTORMS);
  qcnMask = load<i32>(hdr + SH_QCN_MASK);
  creditUnit = load<i32>(hdr + SH_CREDIT_UNIT);
  creditAging = load<i64>(hdr + SH_CREDIT_AGING);
  hostQueue = load<i32>(hdr + SH_HOSTQ);
  wdPolls = <usize>load<i32>(hdr + SH_WD_POLLS);
  const nPolls = load<i32>(hdr + SH_NWD_POLLS);
  const seed = <u32>load<i32>(hdr + SH_SEED);
  dcqcn = load<i32>(hdr + SH_QCN_PROFILE) == 1;
  anyCredit = 0;
  now = 0;
  // Packet pool: a free list threaded through SK_NEXT.
  const poolCap = load<i32>(hdr + SH_POOL_CAP);
  for (let k = 0; k < poolCap; k++) store<i32>(pktAt(k) + SK_NEXT, k + 1 < poolCap ? k + 1 : -1);
  freeList = poolCap > 0 ? 0 : -1;
  // Heap ARR: at most one arrival per packet record; TX: at most one transmitter-done per port.
  evReset(<usize>load<i32>(hdr + SH_HEAP), load<i32>(hdr + SH_HEAP_CAP), nPorts + 1, load<i32>(hdr + SH_POOL_CAP));
  for (let p = 0; p < nPorts; p++) {
    const pa = portAt(p);
    for (let tc = 0; tc < 8; tc++) {
      store<i32>(pa + SP_QHEAD + (tc << 2), -1);
      store<i32>(pa + SP_QTAIL + (tc << 2), -1);
    }
    store<i32>(pa + SP_CTRL_HEAD, -1);
    store<i32>(pa + SP_CTRL_TAIL, -1);
    store<i32>(pa + SP_WAIT_HEAD, -1);
    store<i64>(pa + SP_REFRESH_EV, FOREVER);
    const wdDetect = load<i64>(pa + SP_WD_DETECT);
    for (let pr = 0; pr < 8; pr++) store<i64>(pa + SP_WD_LEFT + (<usize>pr << 3), wdDetect);
    // Modes of this port's priorities: the lossless and credit masks, and the PFC kernel's mode
    // (PAUSE if any priority uses PAUSE, else PFC if any uses PFC).
    let lossless = 0, credit = 0, pfcEnable = 0, pfcMode = PFC_MODE_OFF;
    for (let pr = 0; pr < 8; pr++) {
      const m = modeAt(pa, pr);
      if (m != FC_LOSSY) lossless |= 1 << pr;
      if (m == FC_CREDIT) credit |= 1 << pr;
      if (m == FC_PFC) { pfcEnable |= 1 << pr; if (pfcMode == PFC_MODE_OFF) pfcMode = PFC_MODE_PFC; }
      if (m == FC_PAUSE) pfcMode = PFC_MODE_PAUSE;
    }
    store<i32>(pa + SP_LOSSLESS, lossless);
    store<i32>(pa + SP_CREDIT_MASK, credit);
    anyCredit |= credit;
    let packed = 0;
    for (let pr = 0; pr < 8; pr++) packed |= (<i32>load<u8>(pa + SP_ETS + ETS_PRIO_TC + pr) & 7) << (3 * pr);
    store<i32>(pa + SP_PRIO_TC, packed);
    // PFC kernel record: mode and thresholds from the node (xoff, xon) and this port's headroom.
    const rec = pa + SP_PFC;
    const speed = <i64>8_000_000_000_000 / <i64>load<i32>(pa + SP_PPB);
    pfcInit(rec, pfcMode, pfcEnable, load<i32>(pa + SP_PAUSE_TIME), speed);
    const na = nodeAt(load<i32>(pa + SP_NODE));
    const xoff = load<i32>(na + SN_XOFF);
    const xon = load<i32>(na + SN_XON);
    const hdrm = load<i32>(pa + SP_HEADROOM);
    if (pfcMode == PFC_MODE_PAUSE) pfcSetThresholds(rec, PFC_PORT_UNIT, xoff, xon, hdrm);
    else for (let m = pfcEnable; m != 0; m &= m - 1) pfcSetThresholds(rec, ctz(m), xoff, xon, hdrm);
    // The host wrote the largest frame (MTU) into the ETS record's max-wire field; derive quanta.
    etsConfigure(pa + SP_ETS, load<i32>(pa + SP_ETS + ETS_MAX_WIRE));
    for (let tc = 0; tc < 8; tc++) {
      if (dcqcn) dcqcnCpInit(cpRec(pa, tc), load<i32>(pa + SP_KMIN), load<i32>(pa + SP_KMAX), load<i32>(pa + SP_PMAX_Q16), seed, <u32>(p * 8 + tc));
      else qcnCpInit(cpRec(pa, tc), load<i32>(pa + SP_Q_EQ), load<i32>(pa + SP_W), 0, seed, <u32>(p * 8 + tc));
    }
    // Credit kernel records, one per credit priority: this port's receiver half (its buffer) and
    // sender half. At link-up every sender holds one grant of the peer's whole buffer (CL at ABR 0).
    const peerCap = load<i32>(portAt(load<i32>(pa + SP_PEER)) + SP_CR_CAP);
    const ownCap = load<i32>(pa + SP_CR_CAP);
    for (let m = credit; m != 0; m &= m - 1) {
      const pr = ctz(m);
      const cr = creditRec(pa, pr);
      creditInit(cr, CREDIT_K, creditUnit, ownCap, creditAging);
      creditOnGrant(cr, peerCap < CREDIT_HALF ? peerCap : CREDIT_HALF, 0);
      store<i32>(pa + SP_CR_LASTCL + (pr << 2), ownCap < CREDIT_HALF ? ownCap : CREDIT_HALF);
    }
  }
  for (let f = 0; f < nFlows; f++) {
    const fa = flowAt(f);
    // Reaction point parameters from the source host's qcn.rp (802.1Q MIB defaults for qau-pc).
    qcnRpInit(fa + SF_RP, load<i64>(fa + SF_LINE_BPS), load<i32>(fa + SF_P_BC), load<i64>(fa + SF_P_TIMER), load<i32>(fa + SF_P_TH),
      load<i64>(fa + SF_P_AI), load<i64>(fa + SF_P_HAI), load<i32>(fa + SF_P_GD), load<i32>(fa + SF_P_MINDEC),
      load<i64>(fa + SF_P_MIN), load<i32>(fa + SF_P_FLAGS), seed, <u32>(SIM_ID_RP | f));
    if (dcqcn) {
      dcqcnRpConfigure(fa + SF_RP, load<i64>(fa + SF_P_ALPHA_PS), load<i32>(fa + SF_P_G_Q10), 1024);
      dcqcnNpInit(fa + SF_NP, load<i64>(fa + SF_P_CNP_PS));
    }
    store<i64>(fa + SF_RP_EV_AT, FOREVER);
    evPush(MAIN, load<i64>(fa + SF_START), (EV_FLOW << 28) | <u32>f);
  }
  // Priorities whose data frames to a host need no arrival event (see "Deliveries to hosts").
  for (let p = 0; p < nPorts; p++) {
    const pa = portAt(p);
    const peer = portAt(load<i32>(pa + SP_PEER));
    store<i32>(pa + SP_SINK_HEAD, -1);
    store<i32>(pa + SP_SINK_TAIL, -1);
    store<i32>(pa + SP_SINK_PRIOS, (load<i32>(peer + SP_FLAGS) & 1) != 0 ? ~creditMaskAt(peer) & 0xff : 0);
  }
  for (let s = 0; s < nStorms; s++) evPush(MAIN, load<i64>(storms + <usize>s * SS_SIZE + SS_START), (EV_STORM << 28) | <u32>s);
  // One poll event per distinct poll interval; each poll visits the ports with that interval.
  for (let g = 0; g < nPolls; g++) evPush(MAIN, load<i64>(wdPolls + (<usize>g << 3)), (EV_WATCHDOG << 28) | <u32>g);
  if (anyCredit != 0 && creditAging > 0) evPush(MAIN, creditAging >> 1, EV_CREDIT_REFRESH << 28);
  return evOverflow;
}


// ----------------------------------------------------------------------------------------------
// Packets and queues
// ----------------------------------------------------------------------------------------------

@inline
function allocPacket(): i32 {
  const k = freeList;
  if (k >= 0) freeList = load<i32>(pktAt(k) + SK_NEXT);
  else count(SC_POOL_EXHAUSTED, 1);
  return k;
}

@inline
function freePacket(k: i32): void {
  store<i32>(pktAt(k) + SK_NEXT, freeList);
  freeList = k;
}

@inline
function wireBytes(bytes: i32): i32 { return bytes + 20; }

/** Appends packet k to egress queue tc of port pa. */
@inline
function enqueue(pa: usize, tc: i32, k: i32, bytes: i32): void {
  const ka = pktAt(k);
  store<i32>(ka + SK_NEXT, -1);
  const tailAt = pa + SP_QTAIL + (<usize>tc << 2);
  const tail = load<i32>(tailAt);
  if (tail < 0) {
    store<i32>(pa + SP_QHEAD + (<usize>tc << 2), k);
    store<i32>(pa + SP_HEADWIRE + (<usize>tc << 2), wireBytes(bytes));
    store<i32>(pa + SP_BACKLOG, load<i32>(pa + SP_BACKLOG) | (1 << tc));
  } else {
    store<i32>(pktAt(tail) + SK_NEXT, k);
  }
  store<i32>(tailAt, k);
  const qb = pa + SP_QBYTES + (<usize>tc << 2);
  store<i32>(qb, load<i32>(qb) + bytes);
  store<i32>(pa + SP_QTOTAL, load<i32>(pa + SP_QTOTAL) + bytes);
}

/** Removes the head of queue tc of port pa and returns it. */
@inline
function dequeue(pa: usize, tc: i32): i32 {
  const headAt = pa + SP_QHEAD + (<usize>tc << 2);
  const k = load<i32>(headAt);
  const ka = pktAt(k);
  const next = load<i32>(ka + SK_NEXT);
  const bytes = load<i32>(ka + SK_BYTES);
  store<i32>(headAt, next);
  if (next < 0) {
    store<i32>(pa + SP_QTAIL + (<usize>tc << 2), -1);
    store<i32>(pa + SP_BACKLOG, load<i32>(pa + SP_BACKLOG) & ~(1 << tc));
    etsEmptied(pa + SP_ETS, tc);
  } else {
    store<i32>(pa + SP_HEADWIRE + (<usize>tc << 2), wireBytes(load<i32>(pktAt(next) + SK_BYTES)));
  }
  const qb = pa + SP_QBYTES + (<usize>tc << 2);
  store<i32>(qb, load<i32>(qb) - bytes);
  store<i32>(pa + SP_QTOTAL, load<i32>(pa + SP_QTOTAL) - bytes);
  return k;
}

/** Queues a control frame (PFC, PAUSE, CNM, grant) on port p; it goes before data frames. */
function sendControl(p: i32, kind: i32, a: i32, b: i32, flow: i32): void {
  const k = allocPacket();
  if (k < 0) return;
  const ka = pktAt(k);
  store<i32>(ka + SK_NEXT, -1);
  store<i32>(ka + SK_FLOW, flow);
  store<i32>(ka + SK_BYTES, CONTROL_FRAME);
  store<i32>(ka + SK_PRIO, 7);
  store<i32>(ka + SK_KIND, kind);
  store<i32>(ka + SK_A, a);
  store<i32>(ka + SK_B, b);
  const pa = portAt(p);
  const tail = load<i32>(pa + SP_CTRL_TAIL);
  if (tail < 0) store<i32>(pa + SP_CTRL_HEAD, k);
  else store<i32>(pktAt(tail) + SK_NEXT, k);
  store<i32>(pa + SP_CTRL_TAIL, k);
  tryTransmit(p);
}

// ----------------------------------------------------------------------------------------------
// Transmission
// ----------------------------------------------------------------------------------------------

/**
 * Puts packet k on the wire of port p: busy for its serialisation, arrives after propagation. The
 * transmitter-done event is queued only when more frames wait (or when one is queued later, see
 * tryTransmit): an idle port after its last frame needs no event.
 */
@inline
function startFrame(p: i32, pa: usize, k: i32): void {
  const bytes = load<i32>(pktAt(k) + SK_BYTES);
  const end = now + <i64>wireBytes(bytes) * <i64>load<i32>(pa + SP_PPB);
  store<i64>(pa + SP_BUSY_UNTIL, end);
  const ka = pktAt(k);
  store<i32>(ka + SK_PORT, load<i32>(pa + SP_PEER));
  const arriveAt = end + load<i64>(pa + SP_DELAY);
  const kind = load<i32>(ka + SK_KIND);
  if (((load<i32>(pa + SP_SINK_PRIOS) >> load<i32>(ka + SK_PRIO)) & 1) != 0 && (kind & 0xff) == PKT_DATA && (kind & CE_BIT) == 0) {
    // A data frame into a host: delivered from the sink list, no event (see "Deliveries to hosts").
    deliverArrived(pa, now);
    store<i64>(ka + SK_ARRIVE_AT, arriveAt);
    store<i32>(ka + SK_NEXT, -1);
    const tail = load<i32>(pa + SP_SINK_TAIL);
    if (tail < 0) store<i32>(pa + SP_SINK_HEAD, k);
    else store<i32>(pktAt(tail) + SK_NEXT, k);
    store<i32>(pa + SP_SINK_TAIL, k);
  } else {
    evPush(ARR, arriveAt, (EV_ARRIVE << 28) | <u32>k);
  }
  const flags = load<i32>(pa + SP_FLAGS);
  if ((flags & 2) == 0 && (load<i32>(pa + SP_BACKLOG) != 0 || load<i32>(pa + SP_CTRL_HEAD) >= 0)) {
    store<i32>(pa + SP_FLAGS, flags | 2);
    evPush(TX, end, (EV_TX_DONE << 28) | <u32>p);
  }
  count(SC_HOPS, 1);
}

/** TCs that may not start a frame now: paused priorities (PFC kernel), and credit heads without credit. */
function blockedTcs(p: i32, pa: usize, backlog: i32): i32 {
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
      const head = pktAt(load<i32>(pa + SP_QHEAD + (<usize>tc << 2)));
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

function tryTransmit(p: i32): void {
  const pa = portAt(p);
  const busyUntil = load<i64>(pa + SP_BUSY_UNTIL);
  if (busyUntil > now) {
    const flags = load<i32>(pa + SP_FLAGS);
    if ((flags & 2) == 0) {
      store<i32>(pa + SP_FLAGS, flags | 2);
      evPush(TX, busyUntil, (EV_TX_DONE << 28) | <u32>p);
    }
    return;
  }
  const ctrl = load<i32>(pa + SP_CTRL_HEAD);
  if (ctrl >= 0) {
    const next = load<i32>(pktAt(ctrl) + SK_NEXT);
    store<i32>(pa + SP_CTRL_HEAD, next);
    if (next < 0) store<i32>(pa + SP_CTRL_TAIL, -1);
    startFrame(p, pa, ctrl);
    return;
  }
  const backlog = load<i32>(pa + SP_BACKLOG);
  if (backlog == 0) return;
  // Nothing paused and no credit priority (the usual case): nothing is blocked, no call.
  const blocked = (pfcBlockedMask(pa + SP_PFC, now) | creditMaskAt(pa)) == 0 ? 0 : blockedTcs(p, pa, backlog);
  const ets = pa + SP_ETS;
  if ((load<i32>(ets + ETS_WEIGHTED_MASK) & ~(backlog & ~blocked)) != 0) store<i32>(pa + SP_UNSAT, 1);
  const tc = etsSelect(ets, backlog, blocked, pa + SP_HEADWIRE);
  if (tc < 0) return;
  const k = dequeue(pa, tc);
  const ka = pktAt(k);
  const bytes = load<i32>(ka + SK_BYTES);
  const pr = load<i32>(ka + SK_PRIO);
  const tb = pa + SP_TX_BYTES_TC + (<usize>tc << 3);
  store<i64>(tb, load<i64>(tb) + <i64>wireBytes(bytes));
  const tp = pa + SP_TX_PKTS + (<usize>pr << 3);
  store<i64>(tp, load<i64>(tp) + 1);
  if (((creditMaskAt(pa) >> pr) & 1) != 0) creditTrySend(creditRec(pa, pr), bytes, now); // checked in blockedTcs
  const node = load<i32>(pa + SP_NODE);
  // Busy before release, which may queue control frames and call tryTransmit again.
  store<i64>(pa + SP_BUSY_UNTIL, now + <i64>wireBytes(bytes) * <i64>load<i32>(pa + SP_PPB));
  if ((load<i32>(pa + SP_FLAGS) & 1) != 0) {
    // Host NIC: room in this TC queue again, so a waiting flow may continue.
    wakeWaitingFlow(p, tc);
  } else {
    release(node, k, tc, pa);
  }
  startFrame(p, pa, k);
}

// ----------------------------------------------------------------------------------------------
// Switch buffer accounting and PFC / PAUSE generation (ingress side)
// ----------------------------------------------------------------------------------------------

/** Frees the buffer a departing packet held, updating QCN and sending XON when a PG drains. */
@inline
function release(node: i32, k: i32, tc: i32, outPa: usize): void {
  const ka = pktAt(k);
  const bytes = load<i32>(ka + SK_BYTES);
  const pr = load<i32>(ka + SK_PRIO);
  const acct = (load<i32>(ka + SK_KIND) >> 8) & 0xff;
  const na = nodeAt(node);
  const inP = load<i32>(ka + SK_PORT);
  const ia = portAt(inP);
  if (((qcnMask >> pr) & 1) != 0) {
    if (dcqcn) dcqcnCpDequeue(cpRec(outPa, tc), bytes);
    else qcnCpDequeue(cpRec(outPa, tc), bytes);
  }
  if (acct == A_LOSSY) {
    store<i32>(na + SN_SHARED_USED, load<i32>(na + SN_SHARED_USED) - bytes);
  } else if (acct == A_LOSSLESS) {
    store<i32>(na + SN_SHARED_USED, load<i32>(na + SN_SHARED_USED) - bytes);
    const rec = ia + SP_PFC;
    pfcDepart(rec, pr, bytes);
    if (load<i32>(rec + PFC_PENDING) != 0) sendPendingPause(inP, rec);
  } else if (acct == A_CREDIT) {
    creditFreed(inP, pr, bytes);
  }
}

/**
 * Turns what the PFC kernel queued on ingress port p (XOFF, refresh, XON) into one PFC frame (bits
 * 0..7) and/or one PAUSE frame (bit 8) on that port's transmitter, and keeps one refresh event queued.
 * A frame's times are pause_time (XOFF) or 0 (XON): A = enable vector | XOFF vector << 8, B = pause_time.
 */
function sendPendingPause(p: i32, rec: usize): void {
  const pending = pfcTakePending(rec);
  if (pending == 0) return;
  const prios = pending & 0xff;
  if (prios != 0) {
    let xoffs = 0;
    for (let m = prios; m != 0; m &= m - 1) {
      const n = ctz(m);
      if (load<i32>(rec + PFC_TX_TIME + (<usize>n << 2)) != 0) xoffs |= 1 << n;
    }
    sendControl(p, PKT_PFC, prios | (xoffs << 8), load<i32>(portAt(p) + SP_PAUSE_TIME), -1);
  }
  if ((pending & 0x100) != 0) sendControl(p, PKT_PAUSE, 0, load<i32>(rec + PFC_TX_TIME + (<usize>PFC_PORT_UNIT << 2)), -1);
  armRefresh(p, portAt(p), rec);
}

/** One queued refresh event per port, at the kernel's earliest refresh deadline. */
@inline
function armRefresh(p: i32, pa: usize, rec: usize): void {
  const next = pfcNextRefresh(rec);
  if (next < load<i64>(pa + SP_REFRESH_EV)) {
    store<i64>(pa + SP_REFRESH_EV, next);
    evPush(MAIN, next, (EV_REFRESH << 28) | <u32>p);
  }
}

/** Keeps exactly one timer event queued per engaged reaction point, at or before its deadline. */
@inline
function armRp(f: i32, fa: usize): void {
  if (load<i32>(fa + SF_RP + QCN_RP_ACTIVE) == 0) return;
  const d = rpDeadline(fa);
  if (load<i64>(fa + SF_RP_EV_AT) > d) {
    store<i64>(fa + SF_RP_EV_AT, d);
    evPush(MAIN, d, (EV_RP_TIMER << 28) | <u32>f);
  }
}

/** Credit receiver: bytes left the buffer of (port p, priority pr); grant more when worthwhile. */
function creditFreed(p: i32, pr: i32, bytes: i32): void {
  const pa = portAt(p);
  const cr = creditRec(pa, pr);
  creditDrain(cr, bytes);
  const cl = creditGrantValue(cr);
  const lastAt = pa + SP_CR_LASTCL + (<usize>pr << 2);
  // Grant once an eighth of the buffer has been freed since the last grant (limits grant traffic).
  if (((cl - load<i32>(lastAt)) & CREDIT_MASK) >= (load<i32>(pa + SP_CR_CAP) >> 3)) {
    store<i32>(lastAt, cl);
    count(SC_GRANTS, 1);
    sendControl(p, PKT_GRANT, pr, cl, -1);
  }
}

/**
 * Every half aging time each receiver re-grants its current limit, so a sender's credit never ages
 * out while the receiver has room (grants are otherwise sent only as the buffer drains).
 */
function creditRefresh(): void {
  for (let p = 0; p < nPorts; p++) {
    const pa = portAt(p);
    for (let m = creditMaskAt(pa); m != 0; m &= m - 1) {
      const pr = ctz(m);
      const cl = creditGrantValue(creditRec(pa, pr));
      store<i32>(pa + SP_CR_LASTCL + (<usize>pr << 2), cl);
      count(SC_GRANTS, 1);
      sendControl(p, PKT_GRANT, pr, cl, -1);
    }
  }
}

/** Drops packet k of priority pr, counted lossless when `lossless` (its ingress port's mode). */
@inline
function dropPacket(k: i32, pr: i32, lossless: bool): void {
  if (lossless) count(SC_DROP_LOSSLESS, 1);
  else count(SC_DROP_LOSSY, 1);
  count(SC_DROP_PRIO + (pr << 3), 1);
  freePacket(k);
}

/** ECMP next hop from switch `node` toward host ordinal `dstOrd`, hashed on the flow. */
@inline
function nextHop(node: i32, dstOrd: i32, flow: i32): i32 {
  const ord = load<i32>(nodeAt(node) + SN_ORD);
  const off = load<i32>(route + ((<usize>ord * <usize>nHosts + <usize>dstOrd) << 2));
  const n = load<i32>(nh + (<usize>off << 2));
  if (n == 1) return load<i32>(nh + (<usize>(off + 1) << 2));
  let h = <u32>flow * 0x9E3779B1 ^ <u32>node * 0x85EBCA6B;
  h ^= h >> 16;
  h *= 0x7FEB352D;
  h ^= h >> 15;
  return load<i32>(nh + (<usize>(off + 1 + <i32>(h % <u32>n)) << 2));
}

/** A data frame arrives at switch port `inP`: admission, PFC/PAUSE generation, QCN, enqueue. */
@inline
function switchReceive(inP: i32, k: i32): void {
  const ia = portAt(inP);
  const node = load<i32>(ia + SP_NODE);
  const na = nodeAt(node);
  const ka = pktAt(k);
  const bytes = load<i32>(ka + SK_BYTES);
  const pr = load<i32>(ka + SK_PRIO);
  const f = load<i32>(ka + SK_FLOW);
  const out = nextHop(node, load<i32>(flowAt(f) + SF_DST_ORD), f);
  const oa = portAt(out);
  const tc = <i32>load<u8>(oa + SP_ETS + pr);
  const mode = modeAt(ia, pr);
  if (((load<i32>(oa + SP_WD_DROP) >> pr) & 1) != 0) { dropPacket(k, pr, mode != FC_LOSSY); return; }
  let acct = A_NONE;
  if (mode == FC_LOSSY) {
    const qb = load<i32>(oa + SP_QBYTES + (<usize>tc << 2));
    const used = load<i32>(na + SN_SHARED_USED);
    if (qb + bytes > load<i32>(na + SN_LOSSY_Q) || used + bytes > load<i32>(na + SN_SHARED_SIZE)) {
      dropPacket(k, pr, false);
      return;
    }
    store<i32>(na + SN_SHARED_USED, used + bytes);
    acct = A_LOSSY;
  } else if (mode == FC_CREDIT) {
    if (creditReceive(creditRec(ia, pr), bytes) == 0) { dropPacket(k, pr, true); return; } // overrun: never while senders obey
    acct = A_CREDIT;
  } else {
    // PFC / PAUSE: the kernel admits up to xoff + headroom per unit and queues XOFF at xoff.
    const rec = ia + SP_PFC;
    if (pfcArrive(rec, pr, bytes, now) == 0) { dropPacket(k, pr, true); return; }
    store<i32>(na + SN_SHARED_USED, load<i32>(na + SN_SHARED_USED) + bytes);
    acct = A_LOSSLESS;
    if (load<i32>(rec + PFC_PENDING) != 0) sendPendingPause(inP, rec);
  }
  store<i32>(ka + SK_KIND, (load<i32>(ka + SK_KIND) & CE_BIT) | PKT_DATA | (acct << 8));
  store<i32>(ka + SK_PORT, inP);
  enqueue(oa, tc, k, bytes);
  if (((qcnMask >> pr) & 1) != 0) {
    const cp = cpRec(oa, tc);
    if (dcqcn) {
      // DCQCN: the CP marks CE (RED-like on the queue); the receiver's NP answers with CNPs.
      if (dcqcnCpEnqueue(cp, bytes)) store<i32>(ka + SK_KIND, load<i32>(ka + SK_KIND) | CE_BIT);
    } else if (qcnCpEnqueue(cp, bytes)) {
      const qf = load<i32>(cp + QCN_CP_QF);
      count(SC_CNMS, 1);
      const fa = flowAt(f);
      // The CNM goes back toward the flow's source, first hop chosen like any frame to that host.
      sendControl(nextHop(node, load<i32>(fa + SF_SRC_ORD), f), PKT_CNM, f, qf, f);
    }
  }
  tryTransmit(out);
}

// ----------------------------------------------------------------------------------------------
// Arrivals of frames
// ----------------------------------------------------------------------------------------------

/** A PFC or PAUSE frame acts on the transmitter of the port that received it (PFC kernel, egress side). */
function receivePause(p: i32, pa: usize, kind: i32, a: i32, b: i32): void {
  const rec = pa + SP_PFC;
  let enable = a & 0xff;
  if (kind == PKT_PFC) {
    for (let n = 0; n < 8; n++) store<u16>(PFC_TIMES + (<usize>n << 1), <u16>(((a >> (8 + n)) & 1) != 0 ? b : 0));
    pfcReceivePfc(rec, enable, PFC_TIMES, now);
  } else {
    enable = 0xff;
    pfcReceivePause(rec, b, now);
  }
  for (let m = enable; m != 0; m &= m - 1) {
    const rx = pa + SP_PFC_RX + (<usize>ctz(m) << 3);
    store<i64>(rx, load<i64>(rx) + 1);
  }
  count(SC_PAUSE_FRAMES, 1);
  // An XON (or a shorter pause) may unblock the transmitter now.
  tryTransmit(p);
}

function arrive(k: i32): void {
  const ka = pktAt(k);
  const p = load<i32>(ka + SK_PORT);
  const pa = portAt(p);
  const kind = load<i32>(ka + SK_KIND) & 0xff;
  if (kind == PKT_DATA) {
    if ((load<i32>(pa + SP_FLAGS) & 1) != 0) {
      hostReceive(p, pa, k);
    } else {
      switchReceive(p, k);
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

/** Delivers the frames of port pa's sink list that have arrived at its host by `upTo`, in order. */
@inline
function deliverArrived(pa: usize, upTo: i64): void {
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

function hostReceive(p: i32, pa: usize, k: i32): void {
  const ka = pktAt(k);
  const f = load<i32>(ka + SK_FLOW);
  const bytes = load<i32>(ka + SK_BYTES);
  const fa = flowAt(f);
  store<i64>(fa + SF_DELIV, load<i64>(fa + SF_DELIV) + <i64>bytes);
  store<i64>(fa + SF_LAST_DELIV, now);
  const pr = load<i32>(ka + SK_PRIO);
  if ((load<i32>(ka + SK_KIND) & CE_BIT) != 0 && dcqcnNpOnCe(fa + SF_NP, now)) {
    count(SC_CNMS, 1);
    sendControl(p, PKT_CNP, f, 0, f);
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

@inline
function frameSize(fa: usize): i32 {
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

function wakeWaitingFlow(p: i32, tc: i32): void {
  // Waiting flows of a host port are kept in one list; wake the first whose TC drained.
  const pa = portAt(p);
  if (load<i32>(pa + SP_QBYTES + (<usize>tc << 2)) >= hostQueue) return;
  for (let f = load<i32>(pa + SP_WAIT_HEAD), prev = -1; f >= 0; prev = f, f = load<i32>(flowAt(f) + SF_NEXT_WAIT)) {
    const fa = flowAt(f);
    if (load<i32>(fa + SF_TC) == tc) {
      const next = load<i32>(fa + SF_NEXT_WAIT);
      if (prev < 0) store<i32>(pa + SP_WAIT_HEAD, next);
      else store<i32>(flowAt(prev) + SF_NEXT_WAIT, next);
      store<i32>(fa + SF_STATE, 1);
      store<i64>(fa + SF_NEXT_AT, now);
      evPush(MAIN, now, (EV_FLOW << 28) | <u32>f);
      return;
    }
  }
}

function flowEvent(f: i32, t: i64): void {
  const fa = flowAt(f);
  const state = load<i32>(fa + SF_STATE);
  if (state == 3 || state == 2) return;
  if (state == 1 && t != load<i64>(fa + SF_NEXT_AT)) return; // superseded
  if (now >= load<i64>(fa + SF_STOP) || load<i64>(fa + SF_LEFT) == 0) { store<i32>(fa + SF_STATE, 3); return; }
  store<i32>(fa + SF_STATE, 1);
  // On/off sources stay silent during the off part of each period.
  const on = load<i64>(fa + SF_ON);
  if (on > 0) {
    const period = on + load<i64>(fa + SF_OFF);
    const phase = (now - load<i64>(fa + SF_START)) % period;
    if (phase >= on) {
      const at = now + (period - phase);
      store<i64>(fa + SF_NEXT_AT, at);
      evPush(MAIN, at, (EV_FLOW << 28) | <u32>f);
      return;
    }
  }
  const p = load<i32>(fa + SF_PORT);
  const pa = portAt(p);
  const tc = load<i32>(fa + SF_TC);
  if (load<i32>(pa + SP_QBYTES + (<usize>tc << 2)) >= hostQueue) {
    store<i32>(fa + SF_STATE, 2);
    store<i32>(fa + SF_NEXT_WAIT, load<i32>(pa + SP_WAIT_HEAD));
    store<i32>(pa + SP_WAIT_HEAD, f);
    return;
  }
  const k = allocPacket();
  if (k < 0) {
    // Packet pool exhausted (counted): try again a microsecond later.
    store<i64>(fa + SF_NEXT_AT, now + 1_000_000);
    evPush(MAIN, now + 1_000_000, (EV_FLOW << 28) | <u32>f);
    return;
  }
  let bytes = frameSize(fa);
  const left = load<i64>(fa + SF_LEFT);
  if (left > 0 && <i64>bytes > left) bytes = <i32>(left > 64 ? left : 64);
  if (left > 0) store<i64>(fa + SF_LEFT, left - <i64>bytes > 0 ? left - <i64>bytes : 0);
  const ka = pktAt(k);
  store<i32>(ka + SK_FLOW, f);
  store<i32>(ka + SK_BYTES, bytes);
  store<i32>(ka + SK_PRIO, load<i32>(fa + SF_PRIO));
  store<i32>(ka + SK_KIND, PKT_DATA);
  store<i32>(ka + SK_PORT, p);
  enqueue(pa, tc, k, bytes);
  store<i64>(fa + SF_SENT, load<i64>(fa + SF_SENT) + <i64>bytes);
  if (((qcnMask >> load<i32>(fa + SF_PRIO)) & 1) != 0) {
    qcnRpOnFrameSent(fa + SF_RP, now, bytes, 0);
    armRp(f, fa);
  }
  // Next frame after one frame time at the offered rate, limited by the reaction point.
  let rate = load<i64>(fa + SF_RATE);
  const cr = rpRate(fa);
  if (cr > 0 && cr < rate) rate = cr;
  // Frame time at that rate; the division is cached per flow (sizes and rates repeat).
  let gap = load<i64>(fa + SF_PACE_PS);
  if (rate != load<i64>(fa + SF_PACE_RATE) || bytes != load<i32>(fa + SF_PACE_BYTES)) {
    gap = (<i64>wireBytes(bytes) * 8_000_000_000_000) / rate;
    store<i64>(fa + SF_PACE_PS, gap);
    store<i64>(fa + SF_PACE_RATE, rate);
    store<i32>(fa + SF_PACE_BYTES, bytes);
  }
  const at = now + gap;
  store<i64>(fa + SF_NEXT_AT, at);
  if (load<i64>(fa + SF_LEFT) != 0) evPush(MAIN, at, (EV_FLOW << 28) | <u32>f);
  else store<i32>(fa + SF_STATE, 3);
  tryTransmit(p);
}

// ----------------------------------------------------------------------------------------------
// PFC watchdog (SONiC pfcwd semantics, reference pfc-credit-dcbx.md §3)
// ----------------------------------------------------------------------------------------------

function logWatchdog(p: i32, pr: i32, event: i32): void {
  const n = <i32>load<i64>(ctr + SC_WD_EVENTS);
  if (n < wdCap) {
    const at = wdlog + <usize>n * SW_SIZE;
    store<i64>(at, now);
    store<i32>(at + 8, p);
    store<i32>(at + 12, pr | (event << 8));
  }
  count(SC_WD_EVENTS, 1);
}

/**
 * One poll of the ports whose watchdog polls at interval `group`: a lossless queue with frames,
 * paused and without transmissions for detection_time is stormed. Each port acts with its own
 * switch's detection and restoration times and action.
 */
function watchdogPoll(group: i32): void {
  const wdPoll = load<i64>(wdPolls + (<usize>group << 3));
  for (let p = 0; p < nPorts; p++) {
    const pa = portAt(p);
    if (load<i32>(pa + SP_WD_POLL) != group) continue;
    const wdDetect = load<i64>(pa + SP_WD_DETECT);
    const wdRestore = load<i64>(pa + SP_WD_RESTORE);
    const wdAction = load<i32>(pa + SP_WD_ACTION);
    for (let pr = 0; pr < 8; pr++) {
      if (modeAt(pa, pr) != FC_PFC) continue;
      const o = <usize>pr << 3;
      const tx = load<i64>(pa + SP_TX_PKTS + o);
      const rx = load<i64>(pa + SP_PFC_RX + o);
      const stormed = (load<i32>(pa + SP_WD_STORM) >> pr) & 1;
      let left = load<i64>(pa + SP_WD_LEFT + o);
      if (stormed == 0) {
        const tc = <i32>load<u8>(pa + SP_ETS + pr);
        const cond = load<i32>(pa + SP_QBYTES + (<usize>tc << 2)) > 0
          && ((pfcBlockedMask(pa + SP_PFC, now) >> pr) & 1) != 0 && tx == load<i64>(pa + SP_WD_LAST_TX + o);
        left = cond ? left - wdPoll : wdDetect;
        if (cond && left <= 0) {
          store<i32>(pa + SP_WD_STORM, load<i32>(pa + SP_WD_STORM) | (1 << pr));
          logWatchdog(p, pr, 1);
          if (wdAction != WD_ALERT) store<i32>(pa + SP_WD_IGNORE, load<i32>(pa + SP_WD_IGNORE) | (1 << pr));
          if (wdAction == WD_DROP) {
            store<i32>(pa + SP_WD_DROP, load<i32>(pa + SP_WD_DROP) | (1 << pr));
            flushPriority(p, pa, pr);
          }
          left = wdRestore;
          tryTransmit(p);
        }
      } else {
        left = rx == load<i64>(pa + SP_WD_LAST_RX + o) ? left - wdPoll : wdRestore;
        if (left <= 0) {
          const m = ~(1 << pr);
          store<i32>(pa + SP_WD_STORM, load<i32>(pa + SP_WD_STORM) & m);
          store<i32>(pa + SP_WD_IGNORE, load<i32>(pa + SP_WD_IGNORE) & m);
          store<i32>(pa + SP_WD_DROP, load<i32>(pa + SP_WD_DROP) & m);
          logWatchdog(p, pr, 2);
          left = wdDetect;
        }
      }
      store<i64>(pa + SP_WD_LEFT + o, left);
      store<i64>(pa + SP_WD_LAST_TX + o, tx);
      store<i64>(pa + SP_WD_LAST_RX + o, rx);
    }
  }
}

/** Watchdog action drop: the stormed priority's queued frames are discarded (and counted). */
function flushPriority(p: i32, pa: usize, pr: i32): void {
  const tc = <i32>load<u8>(pa + SP_ETS + pr);
  let n = 0;
  let k = load<i32>(pa + SP_QHEAD + (<usize>tc << 2));
  while (k >= 0) { n++; k = load<i32>(pktAt(k) + SK_NEXT); }
  const node = load<i32>(pa + SP_NODE);
  for (let i = 0; i < n; i++) {
    const q = dequeue(pa, tc);
    release(node, q, tc, pa);
    // Lossless unless its ingress port admitted it as lossy (the buffer account it held).
    dropPacket(q, load<i32>(pktAt(q) + SK_PRIO), ((load<i32>(pktAt(q) + SK_KIND) >> 8) & 0xff) != A_LOSSY);
  }
}

// ----------------------------------------------------------------------------------------------
// Main loop
// ----------------------------------------------------------------------------------------------

/**
 * Processes every event due at or before `until` ps; returns 0, or 1 if the event heap overflowed.
 * The host calls this once per sampling interval and reads the tables in between.
 */
export function simRunUntil(until: i64): i32 {
  let events: i64 = 0;
  while (true) {
    const h = evNext();
    if (h == 0) break;
    const t = evTopTime(h);
    if (t > until) break;
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
        pfcRefreshDue(rec, t);
        sendPendingPause(idx, rec);
        armRefresh(idx, pa, rec);
      }
    } else if (type == EV_RP_TIMER) {
      const fa = flowAt(idx);
      if (load<i64>(fa + SF_RP_EV_AT) == t) {
        store<i64>(fa + SF_RP_EV_AT, FOREVER);
        qcnRpAdvance(fa + SF_RP, t);
        armRp(idx, fa);
      }
    } else if (type == EV_STORM) {
      const sa = storms + <usize>idx * SS_SIZE;
      if (now < load<i64>(sa + SS_STOP)) {
        const p = load<i32>(sa + SS_PORT);
        count(SC_STORM_XOFF, 1);
        const bit = 1 << load<i32>(sa + SS_PRIO);
        sendControl(p, PKT_PFC, bit | (bit << 8), load<i32>(portAt(p) + SP_PAUSE_TIME), -1);
        evPush(MAIN, now + load<i64>(sa + SS_INTERVAL), (EV_STORM << 28) | <u32>idx);
      }
    } else if (type == EV_CREDIT_REFRESH) {
      creditRefresh();
      evPush(MAIN, now + (creditAging >> 1), EV_CREDIT_REFRESH << 28);
    } else if (type == EV_WATCHDOG) {
      watchdogPoll(idx);
      evPush(MAIN, now + load<i64>(wdPolls + (<usize>idx << 3)), (EV_WATCHDOG << 28) | <u32>idx);
    }
    evDone();
  }
  if (until > now) now = until;
  for (let p = 0; p < nPorts; p++) {
    const pa = portAt(p);
    if (load<i32>(pa + SP_SINK_HEAD) >= 0) deliverArrived(pa, until);
  }
  store<i64>(ctr + SC_EVENTS, load<i64>(ctr + SC_EVENTS) + events);
  store<i64>(ctr + SC_NOW, now);
  return evOverflow;
}

/** Number of free packet records (the host checks the pool is back to full after a drained run). */
export function simFreePackets(): i32 {
  let n = 0;
  for (let k = freeList; k >= 0; k = load<i32>(pktAt(k) + SK_NEXT)) n++;
  return n;
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
