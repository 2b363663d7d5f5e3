// Egress queues of a simulator port: one FIFO of packet records per TC (its queue record at SP_TCQ:
// SQ_HEAD/SQ_TAIL, linked by SK_NEXT) with byte counts, the TC backlog bitmap and the head frame's wire size that ETS selection
// reads; control frames (PFC, PAUSE, CNM, grants, CNPs) in their own FIFO ahead of data (docs/sim.md,
// "Control frames are real frames").
//
// Invariants: bit t of SP_BACKLOG is set iff TC t's FIFO is non-empty; its SQ_BYTES is the sum of its
// frames' bytes (a port's total is their sum, summed by its reader: no per-frame total to keep);
// SP_HEADWIRE[t] is the head frame's wire bytes.
import { etsEmptied } from '../ets';
import { WIRE_OVERHEAD } from '../layout';
import {
  SK_A, SK_B, SK_BYTES, SK_FLOW, SK_KIND, SK_NEXT, SK_PRIO, SP_BACKLOG, SP_CTRL_HEAD, SP_CTRL_TAIL, SP_ETS,
  SP_HEADWIRE, SP_TCQ, SQ_BYTES, SQ_HEAD, SQ_SIZE, SQ_TAIL,
} from './layout';
import { CONTROL_FRAME, allocPacket, pktAt, portAt } from './arena';
import { tryTransmit } from './link';

@inline
export function wireBytes(bytes: i32): i32 { return bytes + WIRE_OVERHEAD; }

/** Address of TC tc's queue record (SQ_*) in port record pa. */
@inline
export function tcQueue(pa: usize, tc: i32): usize { return pa + SP_TCQ + <usize>(tc * SQ_SIZE); }

/** Appends packet k to egress queue tc of port pa. */
@inline
export function enqueue(pa: usize, tc: i32, k: i32, bytes: i32): void {
  const ka = pktAt(k);
  store<i32>(ka + SK_NEXT, -1);
  const q = tcQueue(pa, tc);
  const tail = load<i32>(q + SQ_TAIL);
  if (tail < 0) {
    store<i32>(q + SQ_HEAD, k);
    store<i32>(pa + SP_HEADWIRE + (<usize>tc << 2), wireBytes(bytes));
    store<i32>(pa + SP_BACKLOG, load<i32>(pa + SP_BACKLOG) | (1 << tc));
  } else {
    store<i32>(pktAt(tail) + SK_NEXT, k);
  }
  store<i32>(q + SQ_TAIL, k);
  store<i32>(q + SQ_BYTES, load<i32>(q + SQ_BYTES) + bytes);
}

/** Removes the head of queue tc of port pa and returns it. */
@inline
export function dequeue(pa: usize, tc: i32): i32 {
  const q = tcQueue(pa, tc);
  const k = load<i32>(q + SQ_HEAD);
  const ka = pktAt(k);
  const next = load<i32>(ka + SK_NEXT);
  const bytes = load<i32>(ka + SK_BYTES);
  store<i32>(q + SQ_HEAD, next);
  if (next < 0) {
    store<i32>(q + SQ_TAIL, -1);
    store<i32>(pa + SP_BACKLOG, load<i32>(pa + SP_BACKLOG) & ~(1 << tc));
    etsEmptied(pa + SP_ETS, tc);
  } else {
    store<i32>(pa + SP_HEADWIRE + (<usize>tc << 2), wireBytes(load<i32>(pktAt(next) + SK_BYTES)));
  }
  store<i32>(q + SQ_BYTES, load<i32>(q + SQ_BYTES) - bytes);
  return k;
}

/** Queues a control frame (PFC, PAUSE, CNM, grant) on port p; it goes before data frames. */
export function sendControl(p: i32, kind: i32, a: i32, b: i32, flow: i32): void {
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
