// The host NIC: traffic sources (fixed, uniform or weighted frame sizes, offered rate, on/off, flow
// size), the per-TC NIC queue a flow waits on, the QCN / DCQCN reaction point that paces each flow,
// and delivery of data frames to the destination host (docs/sim.md, Hosts and Deliveries to hosts).
//
// Invariants: a flow has at most one FLOW event and one RP_TIMER event queued (SF_RP_EV_AT holds
// the latter's time); bytes delivered and the last delivery time per flow are exact up to each batch end.
import { creditReceive } from '../credit';
import {
  PKT_CNP, PKT_DATA, QCN_RP_ACTIVE, SC_CNMS, SF_DELIV, SF_FA, SF_FB, SF_FKIND, SF_LAST_DELIV, SF_LEFT,
  SF_MIXN, SF_MIXOFF, SF_MIXTOT, SF_NEXT_AT, SF_NEXT_WAIT, SF_NP, SF_OFF, SF_ON, SF_PACE_BYTES, SF_PACE_PS,
  SF_PACE_RATE, SF_PORT, SF_PRIO, SF_RATE, SF_RNG, SF_RP, SF_RP_EV_AT, SF_SENT, SF_START, SF_STATE, SF_STOP,
  SF_TC, SK_ARRIVE_AT, SK_BYTES, SK_FLOW, SK_HOP, SK_KIND, SK_NEXT, SK_PORT, SK_PRIO, SP_QBYTES, SP_SINK_HEAD,
  SP_SINK_TAIL, SP_WAIT_HEAD,
} from '../layout';
import { dcqcnNpOnCe, qcnRpOnFrameSent } from '../qcn_rp';
import { rngNext } from '../rng';
import {
  CE_BIT, EV_FLOW, EV_RP_TIMER, allocPacket, count, creditMaskAt, creditRec, flowAt, freePacket, hostQueue,
  mix, now, pktAt, portAt, qcnMask, rpDeadline, rpRate,
} from './arena';
import { MAIN, evPush } from './events';
import { tryTransmit } from './link';
import { creditFreed } from './mmu';
import { enqueue, sendControl, wireBytes } from './queues';

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

export function hostReceive(p: i32, pa: usize, k: i32): void {
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
export function frameSize(fa: usize): i32 {
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

export function wakeWaitingFlow(p: i32, tc: i32): void {
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

export function flowEvent(f: i32, t: i64): void {
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
  store<i32>(ka + SK_HOP, 0);
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
