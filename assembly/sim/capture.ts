// Packet capture at the transmitters: a record of every frame that leaves a port whose SP_FLAGS has
// SP_FLAG_CAPTURE, written where the frame starts on the wire (link.ts startFrame), so the host can
// write the frames that left that port as a capture file (host/sim/capture.ts, docs/capture.md).
//
// What a record holds (CR_*, 32 bytes): the time the frame's first bit leaves (the start of its
// serialisation, ps), the port, the kind word (SK_KIND: kind, buffer account, CE, roce and reverse
// bits; the priority in bits 24..26), the frame bytes (FCS included), the flow, and the packet's
// SK_A and SK_B as they are at departure (PFC: enable bits and quanta; CNM: flow and qf; grant:
// priority and credit limit; roce data: the PSN; ACK / NACK: the PSN expected next). That is all the
// host needs to rebuild the frame's bytes, and nothing of it depends on which instance ran the port.
//
// Layout: SH_CAPTURE points at one ring header (CG_*) per partition (one in a serial run); the
// instance of partition `part` writes only ring `part`, and only for the ports it owns, so a ring
// has one writer. The host drains every ring after each batch (resetting CG_COUNT) and sizes the
// batches so that a ring cannot fill: CG_LOST counts records that found it full, and the host
// stops the run with an error if it is ever non-zero.
// Cost when no port is captured: the flag test in startFrame on the SP_FLAGS word it loads anyway.
import {
  CG_CAP, CG_COUNT, CG_LOST, CG_RECORDS, CG_SIZE, CR_A, CR_B, CR_BYTES, CR_FLOW, CR_KIND, CR_PORT, CR_PRIO_SHIFT,
  CR_SIZE, CR_TIME, SH_CAPTURE, SK_A, SK_B, SK_BYTES, SK_FLOW, SK_KIND, SK_PRIO,
} from './layout';
import { hdr, now, part } from './arena';

/** Appends the departure of packet record ka from port p, starting now, to this partition's ring. */
export function captureDeparture(p: i32, ka: usize): void {
  const ring = <usize>load<i32>(hdr + SH_CAPTURE) + <usize>part * CG_SIZE;
  const n = load<i32>(ring + CG_COUNT);
  if (n >= load<i32>(ring + CG_CAP)) {
    store<i32>(ring + CG_LOST, load<i32>(ring + CG_LOST) + 1);
    return;
  }
  const r = <usize>load<i32>(ring + CG_RECORDS) + <usize>n * CR_SIZE;
  store<i64>(r + CR_TIME, now);
  store<i32>(r + CR_PORT, p);
  store<i32>(r + CR_KIND, load<i32>(ka + SK_KIND) | (load<i32>(ka + SK_PRIO) << CR_PRIO_SHIFT));
  store<i32>(r + CR_BYTES, load<i32>(ka + SK_BYTES));
  store<i32>(r + CR_FLOW, load<i32>(ka + SK_FLOW));
  store<i32>(r + CR_A, load<i32>(ka + SK_A));
  store<i32>(r + CR_B, load<i32>(ka + SK_B));
  store<i32>(ring + CG_COUNT, n + 1);
}
