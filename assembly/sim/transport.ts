// RoCE transport of a flow: one reliable-connection queue pair sending one message with go-back-N,
// the way RoCE NICs implement the InfiniBand RC transport (InfiniBand Architecture Specification
// Vol. 1, chapter 9.7, "Reliable service": PSNs, ACK coalescing, NAK-PSN-sequence-error, the local ACK
// timeout; RoCE v2 carries it over UDP/IP, Annex A17). docs/sim.md, "RoCE transport".
//
// Sender: frames carry consecutive PSNs 0, 1, ... of the message (every frame of the flow's `frames`
// size, the last one the remainder, at least 64 B). SND_NXT is the next PSN to send, SND_UNA the
// oldest unacknowledged, SND_MAX one past the highest ever sent (a PSN below it is a retransmission,
// counted in SF_RETX_BYTES). An ACK(n) acknowledges every PSN below n; a NACK(n) also rewinds SND_NXT to
// n (go back N). The retransmission timer runs while PSNs are outstanding, restarts when an ACK or NACK
// makes progress, and on expiry rewinds SND_NXT to SND_UNA.
// Receiver: RCV_NXT is the next PSN expected. An in-order frame is delivered and ACKed every
// `ack_every` frames and at the message end; the first frame past a gap draws one NACK(RCV_NXT) and is
// dropped, as are the frames after it until the gap is filled; a duplicate draws an ACK(RCV_NXT).
// ACK, NACK and CNP frames are 64-byte frames at the flow's ACK priority that travel the flow's path
// backwards through the switches' queues (admission, ETS, PFC), not the control-frame queue.
//
// Invariants: SND_UNA <= SND_NXT <= SND_MAX <= NPSN (NPSN -1: unlimited) after every event;
// RCV_NXT only grows and SF_DELIV is the bytes of PSNs below it; SF_RTO_EV_AT is the time of the one
// live RTO event (the timer's deadline SF_RTO_AT may be later: the event then re-queues itself).
import { PKT_ACK, PKT_CNP, PKT_DATA, PKT_NACK } from '../layout';
import {
  SF_ACK_EVERY, SF_ACK_PRIO, SF_DELIV, SF_DONE_AT, SF_FA, SF_LAST_DELIV, SF_NACKS, SF_NPSN, SF_RCV_NACKED, SF_RCV_NXT,
  SF_RCV_UNACKED, SF_RETX_BYTES, SF_RP, SF_RTO, SF_RTO_AT, SF_RTO_EV_AT, SF_SND_MAX, SF_SND_NXT, SF_SND_UNA, SF_STATE,
  SF_TAIL_BYTES, SF_TIMEOUTS, SK_B, SK_BYTES, SK_FLOW, SK_HOP, SK_KIND, SK_PORT, SK_PRIO, SP_ETS,
} from './layout';
import { dcqcnRpOnCnp } from '../qcn_rp';
import { EV_RTO, FOREVER, REV_BIT, ROCE_BIT, allocPacket, flowAt, now, pktAt } from './arena';
import { MAIN, evPush } from './events';
import { tryTransmit } from './link';
import { DONE, IN_RING, armRp, flowWake, rateChanged } from './nic';
import { enqueue } from './queues';

/** Every ACK, NACK and CNP frame is a minimum-size frame. */
const REVERSE_FRAME_BYTES: i32 = 64;

/** Whether the sender has a PSN to send (new, or resent after a rewind). */
@inline
export function roceHasData(fa: usize): bool {
  const n = load<i64>(fa + SF_NPSN);
  return n < 0 || load<i64>(fa + SF_SND_NXT) < n;
}

/** Bytes of the frame carrying PSN SND_NXT: the flow's frame size, the last one the message's remainder. */
@inline
export function roceNextBytes(fa: usize): i32 {
  return load<i64>(fa + SF_SND_NXT) == load<i64>(fa + SF_NPSN) - 1 ? load<i32>(fa + SF_TAIL_BYTES) : load<i32>(fa + SF_FA);
}

/** Starts (or restarts) the retransmission timer at now + RTO, keeping one live RTO event. */
@inline
function restartTimer(f: i32, fa: usize): void {
  const d = now + load<i64>(fa + SF_RTO);
  store<i64>(fa + SF_RTO_AT, d);
  if (load<i64>(fa + SF_RTO_EV_AT) == FOREVER) {
    store<i64>(fa + SF_RTO_EV_AT, d);
    evPush(MAIN, d, (EV_RTO << 28) | <u32>f);
  }
}

/** The sender puts PSN SND_NXT into packet ka (its size already chosen by roceNextBytes). */
export function roceTakeFrame(f: i32, fa: usize, ka: usize, bytes: i32): void {
  const psn = load<i64>(fa + SF_SND_NXT);
  store<i32>(ka + SK_KIND, PKT_DATA | ROCE_BIT);
  store<i32>(ka + SK_B, <i32>psn);
  store<i64>(fa + SF_SND_NXT, psn + 1);
  if (psn < load<i64>(fa + SF_SND_MAX)) store<i64>(fa + SF_RETX_BYTES, load<i64>(fa + SF_RETX_BYTES) + <i64>bytes);
  else store<i64>(fa + SF_SND_MAX, psn + 1);
  if (load<i64>(fa + SF_RTO_AT) == FOREVER) restartTimer(f, fa);
}

/**
 * Queues an ACK, NACK or CNP of flow f at its destination host's port p: a 64-byte frame at the
 * flow's ACK priority, in the TC queue that priority maps to, that travels the flow's path back.
 */
export function roceSendReverse(p: i32, pa: usize, kind: i32, f: i32, fa: usize, psn: i64): void {
  const k = allocPacket();
  if (k < 0) return; // counted as pool exhaustion; the sender's timer recovers
  const ka = pktAt(k);
  const prio = load<i32>(fa + SF_ACK_PRIO);
  store<i32>(ka + SK_FLOW, f);
  store<i32>(ka + SK_BYTES, REVERSE_FRAME_BYTES);
  store<i32>(ka + SK_PRIO, prio);
  store<i32>(ka + SK_KIND, kind | REV_BIT);
  store<i32>(ka + SK_PORT, p);
  store<i32>(ka + SK_HOP, 0);
  store<i32>(ka + SK_B, <i32>psn);
  enqueue(pa, <i32>load<u8>(pa + SP_ETS + prio), k, REVERSE_FRAME_BYTES);
  tryTransmit(p);
}

/** The receiver (host port p) gets data frame ka of flow f: deliver in order, ACK, NACK a gap, re-ACK a duplicate. */
export function roceReceiveData(p: i32, pa: usize, f: i32, fa: usize, ka: usize): void {
  const psn = <i64>load<i32>(ka + SK_B);
  const expected = load<i64>(fa + SF_RCV_NXT);
  if (psn == expected) {
    store<i64>(fa + SF_RCV_NXT, expected + 1);
    store<i32>(fa + SF_RCV_NACKED, 0);
    store<i64>(fa + SF_DELIV, load<i64>(fa + SF_DELIV) + <i64>load<i32>(ka + SK_BYTES));
    store<i64>(fa + SF_LAST_DELIV, now);
    const unacked = load<i32>(fa + SF_RCV_UNACKED) + 1;
    const last = expected + 1 == load<i64>(fa + SF_NPSN);
    if (last && load<i64>(fa + SF_DONE_AT) == 0) store<i64>(fa + SF_DONE_AT, now);
    if (last || unacked >= load<i32>(fa + SF_ACK_EVERY)) {
      store<i32>(fa + SF_RCV_UNACKED, 0);
      roceSendReverse(p, pa, PKT_ACK, f, fa, expected + 1);
    } else store<i32>(fa + SF_RCV_UNACKED, unacked);
  } else if (psn > expected) {
    if (load<i32>(fa + SF_RCV_NACKED) == 0) {
      store<i32>(fa + SF_RCV_NACKED, 1);
      store<i64>(fa + SF_NACKS, load<i64>(fa + SF_NACKS) + 1);
      roceSendReverse(p, pa, PKT_NACK, f, fa, expected);
    }
  } else {
    roceSendReverse(p, pa, PKT_ACK, f, fa, expected);
  }
}

/** An ACK, NACK or CNP of flow f reaches its source host. */
export function roceSenderReceive(ka: usize): void {
  const f = load<i32>(ka + SK_FLOW);
  const fa = flowAt(f);
  const kind = load<i32>(ka + SK_KIND) & 0xff;
  if (kind == PKT_CNP) {
    dcqcnRpOnCnp(fa + SF_RP, now);
    armRp(f, fa);
    rateChanged(f, fa);
    return;
  }
  const n = <i64>load<i32>(ka + SK_B);
  const una0 = load<i64>(fa + SF_SND_UNA);
  if (n < una0 || una0 == load<i64>(fa + SF_NPSN)) return; // older than what is acknowledged, or done
  const progress = n > una0;
  store<i64>(fa + SF_SND_UNA, n);
  // A NACK acknowledges the PSNs below n and asks for n again: go back to it.
  if (kind == PKT_NACK || load<i64>(fa + SF_SND_NXT) < n) store<i64>(fa + SF_SND_NXT, n);
  if (n == load<i64>(fa + SF_NPSN)) {
    // The whole message is acknowledged: the queue pair is done (a flow still in its ring leaves it
    // at its next visit, finding nothing to send).
    if (load<i32>(fa + SF_STATE) != IN_RING) store<i32>(fa + SF_STATE, DONE);
    store<i64>(fa + SF_RTO_AT, FOREVER);
    return;
  }
  if (n >= load<i64>(fa + SF_SND_MAX)) store<i64>(fa + SF_RTO_AT, FOREVER);
  else if (progress || kind == PKT_NACK) restartTimer(f, fa);
  if (kind == PKT_NACK) flowWake(f, fa);
}

/** RTO event at t: re-queue at a later deadline, or time out and go back to SND_UNA. */
export function rtoEvent(f: i32, t: i64): void {
  const fa = flowAt(f);
  if (load<i64>(fa + SF_RTO_EV_AT) != t) return;
  store<i64>(fa + SF_RTO_EV_AT, FOREVER);
  const d = load<i64>(fa + SF_RTO_AT);
  if (d == FOREVER || load<i64>(fa + SF_SND_UNA) == load<i64>(fa + SF_NPSN)) return;
  if (d > t) {
    store<i64>(fa + SF_RTO_EV_AT, d);
    evPush(MAIN, d, (EV_RTO << 28) | <u32>f);
    return;
  }
  store<i64>(fa + SF_TIMEOUTS, load<i64>(fa + SF_TIMEOUTS) + 1);
  store<i64>(fa + SF_SND_NXT, load<i64>(fa + SF_SND_UNA));
  store<i64>(fa + SF_RTO_AT, FOREVER);
  flowWake(f, fa);
}
