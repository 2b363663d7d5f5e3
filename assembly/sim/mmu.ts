// The switch memory management unit: admission of a received data frame against the shared pool,
// the egress queue limit (lossy) and the PFC kernel's per-(port, PG) accounting (XOFF at the
// threshold, XON at the lower one, drops only beyond the headroom), credit receiver accounting,
// forwarding (ECMP next hop), and the release of buffer when a frame leaves (docs/sim.md, Switches).
//
// Invariants: SN_SHARED_USED is the bytes of admitted frames still in the switch; a lossless frame
// is dropped only beyond xoff + headroom of its PG; a packet's account bits (A_*) say what to release.
import { creditDrain, creditGrantValue, creditReceive } from '../credit';
import {
  CREDIT_CAPACITY, FC_CREDIT, FC_LOSSY, PFC_PAUSE_TIME, PFC_PENDING, PFC_PORT_UNIT, PFC_TX_TIME, PKT_CNM, PKT_DATA,
  PKT_GRANT, PKT_PAUSE, PKT_PFC, QCN_CP_QF, TRANSPORT_ROCE,
} from '../layout';
import {
  SC_CNMS, SC_DROP_LOSSLESS, SC_DROP_LOSSY, SC_DROP_PRIO, SC_GRANTS, SF_DST_ORD, SF_PORT, SF_SRC_ORD, SF_TRANSPORT,
  SK_BYTES, SK_FLOW, SK_HOP, SK_KIND, SK_PORT, SK_PRIO, SN_KIND, SN_LOSSY_Q, SN_ORD, SN_SHARED_SIZE, SN_SHARED_USED,
  SP_CR_LASTCL, SP_ETS, SP_NODE, SP_PEER, SP_PFC, SP_REFRESH_EV, SP_WD_DROP, SQ_BYTES,
} from './layout';
import { pfcArrive, pfcDepart, pfcNextRefresh, pfcTakePending } from '../pfc';
import { dcqcnCpDequeue, dcqcnCpEnqueue, qcnCpDequeue, qcnCpEnqueue } from '../qcn_cp';
import {
  A_CREDIT, A_LOSSLESS, A_LOSSY, A_NONE, CE_BIT, CREDIT_MASK, EV_REFRESH, REV_BIT, count, cpRec, creditMaskAt,
  creditRec, dcqcn, flowAt, freePacket, modeAt, routeColumns, nFlows, nPorts, nh, nodeAt, now, owns, pathAt, pathLen, pktAt, portAt,
  qcnMask, revPaths, route,
} from './arena';
import { MAIN, evPush } from './events';
import { transmitUnlessBusy } from './link';
import { enqueue, sendControl, tcQueue } from './queues';

// ----------------------------------------------------------------------------------------------
// Switch buffer accounting and PFC / PAUSE generation (ingress side)
// ----------------------------------------------------------------------------------------------

/** Frees the buffer a departing packet held, updating QCN and sending XON when a PG drains. */
@inline
export function release(node: i32, k: i32, tc: i32, outPa: usize): void {
  const ka = pktAt(k);
  const bytes = load<i32>(ka + SK_BYTES);
  const pr = load<i32>(ka + SK_PRIO);
  const acct = (load<i32>(ka + SK_KIND) >> 8) & 0xff;
  const na = nodeAt(node);
  const inP = load<i32>(ka + SK_PORT);
  const ia = portAt(inP);
  if (((qcnMask >> pr) & 1) != 0 && (load<i32>(ka + SK_KIND) & 0xff) == PKT_DATA) {
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
export function sendPendingPause(p: i32, rec: usize): void {
  const pending = pfcTakePending(rec);
  if (pending == 0) return;
  const prios = pending & 0xff;
  if (prios != 0) {
    let xoffs = 0;
    for (let m = prios; m != 0; m &= m - 1) {
      const n = ctz(m);
      if (load<i32>(rec + PFC_TX_TIME + (<usize>n << 2)) != 0) xoffs |= 1 << n;
    }
    sendControl(p, PKT_PFC, prios | (xoffs << 8), load<i32>(rec + PFC_PAUSE_TIME), -1);
  }
  if ((pending & 0x100) != 0) sendControl(p, PKT_PAUSE, 0, load<i32>(rec + PFC_TX_TIME + (<usize>PFC_PORT_UNIT << 2)), -1);
  armRefresh(p, portAt(p), rec);
}

/** One queued refresh event per port, at the kernel's earliest refresh deadline. */
@inline
export function armRefresh(p: i32, pa: usize, rec: usize): void {
  const next = pfcNextRefresh(rec);
  if (next < load<i64>(pa + SP_REFRESH_EV)) {
    store<i64>(pa + SP_REFRESH_EV, next);
    evPush(MAIN, next, (EV_REFRESH << 28) | <u32>p);
  }
}

/** Credit receiver: bytes left the buffer of (port p, priority pr); grant more when worthwhile. */
export function creditFreed(p: i32, pr: i32, bytes: i32): void {
  const pa = portAt(p);
  const cr = creditRec(pa, pr);
  creditDrain(cr, bytes);
  const cl = creditGrantValue(cr);
  const lastAt = pa + SP_CR_LASTCL + (<usize>pr << 2);
  // Grant once an eighth of the buffer has been freed since the last grant (limits grant traffic).
  if (((cl - load<i32>(lastAt)) & CREDIT_MASK) >= (load<i32>(cr + CREDIT_CAPACITY) >> 3)) {
    store<i32>(lastAt, cl);
    count(SC_GRANTS, 1);
    sendControl(p, PKT_GRANT, pr, cl, -1);
  }
}

/**
 * Every half aging time each receiver re-grants its current limit, so a sender's credit never ages
 * out while the receiver has room (grants are otherwise sent only as the buffer drains).
 */
export function creditRefresh(): void {
  for (let p = 0; p < nPorts; p++) {
    if (!owns(p)) continue;
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
export function dropPacket(k: i32, pr: i32, lossless: bool): void {
  if (lossless) count(SC_DROP_LOSSLESS, 1);
  else count(SC_DROP_LOSSY, 1);
  count(SC_DROP_PRIO + (pr << 3), 1);
  freePacket(k);
}

/** ECMP next hop from switch `node` toward host ordinal `dstOrd`, hashed on the flow. */
@inline
export function nextHop(node: i32, dstOrd: i32, flow: i32): i32 {
  const ord = load<i32>(nodeAt(node) + SN_ORD);
  const off = load<i32>(route + ((<usize>ord * <usize>routeColumns + <usize>dstOrd) << 2));
  const n = load<i32>(nh + (<usize>off << 2));
  if (n == 1) return load<i32>(nh + (<usize>(off + 1) << 2));
  let h = <u32>flow * 0x9E3779B1 ^ <u32>node * 0x85EBCA6B;
  h ^= h >> 16;
  h *= 0x7FEB352D;
  h ^= h >> 15;
  return load<i32>(nh + (<usize>(off + 1 + <i32>(h % <u32>n)) << 2));
}

/**
 * Fills the path table: for each flow, the egress port nextHop picks at each switch from its source
 * host's port to its destination. A flow's frames all take that one path (the ECMP hash depends on
 * the flow and the switch only), so a frame's next hop is one load from a small table instead of a
 * walk through the route row, the next-hop set and the hash (docs/sim.md, "What limits the speed").
 * Returns 0, or 1 when a path is longer than the host's row stride (a sizing bug).
 */
export function tracePaths(): i32 {
  for (let f = 0; f < nFlows; f++) {
    const fa = flowAt(f);
    const last = tracePath(f, load<i32>(fa + SF_PORT), load<i32>(fa + SF_DST_ORD), f);
    if (last < 0) return 1;
    // A roce flow's ACKs, NACKs and CNPs go back from its destination's port toward its source.
    if (revPaths && load<i32>(fa + SF_TRANSPORT) == TRANSPORT_ROCE) {
      if (tracePath(nFlows + f, load<i32>(portAt(last) + SP_PEER), load<i32>(fa + SF_SRC_ORD), f) < 0) return 1;
    }
  }
  return 0;
}

/**
 * Fills path row `row` from port `p` toward route column `ord`, hashing on flow f; returns the last
 * port, whose peer is the host reached, or -1 when the path is longer than a row.
 */
function tracePath(row: i32, p: i32, ord: i32, f: i32): i32 {
  for (let hop = 0; hop <= pathLen; hop++) {
    const node = load<i32>(portAt(load<i32>(portAt(p) + SP_PEER)) + SP_NODE);
    if (load<i32>(nodeAt(node) + SN_KIND) == 0) return p; // a host: delivered
    if (hop == pathLen) break;
    p = nextHop(node, ord, f);
    store<i32>(pathAt(row, hop), p);
  }
  return -1;
}

/** A data frame arrives at switch port `inP`: admission, PFC/PAUSE generation, QCN, enqueue. */
@inline
export function switchReceive(inP: i32, k: i32): void {
  const ia = portAt(inP);
  const node = load<i32>(ia + SP_NODE);
  const na = nodeAt(node);
  const ka = pktAt(k);
  const bytes = load<i32>(ka + SK_BYTES);
  const pr = load<i32>(ka + SK_PRIO);
  const f = load<i32>(ka + SK_FLOW);
  const hop = load<i32>(ka + SK_HOP);
  const word = load<i32>(ka + SK_KIND);
  // A frame going back (roce ACK, NACK, CNP) follows its flow's reverse row.
  const out = load<i32>(pathAt((word & REV_BIT) != 0 ? nFlows + f : f, hop));
  store<i32>(ka + SK_HOP, hop + 1);
  const oa = portAt(out);
  const tc = <i32>load<u8>(oa + SP_ETS + pr);
  const mode = modeAt(ia, pr);
  if (((load<i32>(oa + SP_WD_DROP) >> pr) & 1) != 0) { dropPacket(k, pr, mode != FC_LOSSY); return; }
  let acct = A_NONE;
  if (mode == FC_LOSSY) {
    const qb = load<i32>(tcQueue(oa, tc) + SQ_BYTES);
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
  store<i32>(ka + SK_KIND, (word & ~0xff00) | (acct << 8));
  store<i32>(ka + SK_PORT, inP);
  enqueue(oa, tc, k, bytes);
  // Congestion points sample and mark data frames only.
  if (((qcnMask >> pr) & 1) != 0 && (word & 0xff) == PKT_DATA) {
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
  transmitUnlessBusy(out, oa);
}
