// The simulator's state: where the arena tables are (read from the header the host wrote, docs/design.md
// §3), the packet pool's free list, the clock, the engine's event and packet codes, and one-line
// accessors for the records of assembly/sim/layout.ts (SH_, SN_, SP_, SK_, SF_, SC_).
//
// engine.ts (simInit, the event loop) and partition.ts write these globals; every other module only
// reads them. Globals are per instance: in a partitioned run each worker's instance has its own.
// Invariants: every packet record is either on the free list or referenced once (a queue, the wire,
// a sink list, an ARRIVE event); nothing allocates after simInit and memory never grows.
import {
  CREDIT_SIZE, QCN_CP_SIZE, QCN_RP_ACTIVE, QCN_RP_ALPHA_DEADLINE, QCN_RP_CR, QCN_RP_DEADLINE, CONTROL_FRAME_BYTES,
} from '../layout';
import {
  SC_POOL_EXHAUSTED, SF_RP, SF_SIZE, SK_NEXT, SK_SIZE, SN_SIZE, SP_CP_AT, SP_CREDIT_AT, SP_CREDIT_MASK, SP_MODES, SP_SIZE,
  SP_FLAG_CAPTURE, SP_FLAG_REMOTE_PEER, SIM_CREDIT_BITS,
} from './layout';

// Event types. The number is also the event's class in the order of equal-time events (events.ts:
// key = class << 28 | entity), so at one instant transmitter-done events run first, then arrivals.
export const EV_TX_DONE: u32 = 1;
export const EV_ARRIVE: u32 = 2;
export const EV_FLOW: u32 = 3;
export const EV_WAKE: u32 = 4;
export const EV_REFRESH: u32 = 5;
export const EV_RP_TIMER: u32 = 6;
export const EV_STORM: u32 = 7;
export const EV_WATCHDOG: u32 = 8;
export const EV_CREDIT_REFRESH: u32 = 9;
export const EV_RTO: u32 = 10;
export const INDEX_MASK: u32 = 0x0fffffff;

// Packet kinds (PKT_*), flow-control modes (FC_*) and watchdog actions (WD_*) are layout codes.
/** Kind bit of a data frame marked Congestion Experienced by a dcqcn CP. */
export const CE_BIT: i32 = 1 << 16;
/** Kind bit of a roce data frame: its receiver acts on its arrival (ACK, NACK), so it needs an arrival event. */
export const ROCE_BIT: i32 = 1 << 17;
/** Kind bit of a frame that travels its flow's path backwards through the switch queues (roce ACK, NACK, CNP). */
export const REV_BIT: i32 = 1 << 18;
// Buffer account of a queued packet (kind bits 8..15).
export const A_NONE: i32 = 0;
export const A_LOSSY: i32 = 1;
export const A_LOSSLESS: i32 = 2;
export const A_CREDIT: i32 = 4;
export const CONTROL_FRAME: i32 = CONTROL_FRAME_BYTES;
export const CREDIT_K: i32 = SIM_CREDIT_BITS;
export const CREDIT_HALF: i32 = 1 << (CREDIT_K - 1);
export const CREDIT_MASK: i32 = (1 << CREDIT_K) - 1;
export const FOREVER: i64 = 0x7fffffffffffffff;

export let hdr: usize = 0;
export let ports: usize = 0;
export let nodes: usize = 0;
export let flows: usize = 0;
export let pool: usize = 0;
export let route: usize = 0;
/** Each flow's egress port at each switch of its path (SH_PATHS), `pathLen` entries per flow. */
export let paths: usize = 0;
export let pathLen: i32 = 0;
/** Whether the path table also holds reverse rows (nFlows + f: flow f's path back from its destination). */
export let revPaths: bool = false;
export let nh: usize = 0;
export let mix: usize = 0;
export let ctr: usize = 0;
export let wdlog: usize = 0;
export let storms: usize = 0;
export let nPorts: i32 = 0;
export let nFlows: i32 = 0;
export let routeColumns: i32 = 0;
export let nStorms: i32 = 0;
export let wdCap: i32 = 0;
export let freeList: i32 = -1;
/**
 * Records [poolNext, poolEnd) have never been used. They are handed out in order once the free
 * list is empty, so a run's memory holds only the pages of the records it needed at its busiest
 * (a free list threaded through every record at init made the whole pool resident). The order
 * records are handed out in is the same as a free list of [lo, hi) threaded in order.
 */
export let poolNext: i32 = 0;
export let poolEnd: i32 = 0;
export let now: i64 = 0;
export let qcnMask: i32 = 0;
export let creditAging: i64 = 0;
export let hostQueue: i32 = 0;
/** Credit priorities of any port (credit re-grant events run only when some port has one). */
export let anyCredit: i32 = 0;
export let wdPolls: usize = 0;
export let dcqcn: bool = false;
/** Eight u16 PFC time fields handed to pfcReceivePfc (16 bytes: static, or a partition's scratch). */
export let pfcTimes: usize = memory.data(16, 8);
/** Partitioned run (partition.ts): this instance's partition and their number (1: a serial run). */
export let part: i32 = 0;
export let nParts: i32 = 1;
/** u8 per port: the partition that owns it (partitioned runs only). */
export let owner: usize = 0;
/** SP_FLAGS bit: the port's peer is in another partition (its frames cross through a ring). */
export const F_REMOTE_PEER: i32 = SP_FLAG_REMOTE_PEER;
/** SP_FLAGS bit: the port's departures are recorded (capture.ts). */
export const F_CAPTURE: i32 = SP_FLAG_CAPTURE;
/** SP_FLAGS bit 1: a transmitter-done event for the port is queued (link.ts; the engine's own, set and cleared during a run). */
export const F_DONE_QUEUED: i32 = 2;

/** Whether this instance runs port p's events (always in a serial run). */
@inline export function owns(p: i32): bool { return nParts == 1 || <i32>load<u8>(owner + <usize>p) == part; }
@inline export function portAt(p: i32): usize { return ports + <usize>p * SP_SIZE; }
@inline export function nodeAt(n: i32): usize { return nodes + <usize>n * SN_SIZE; }
@inline export function flowAt(f: i32): usize { return flows + <usize>f * SF_SIZE; }
@inline export function pktAt(k: i32): usize { return pool + <usize>k * SK_SIZE; }
/** Entry `hop` of flow f's path row: its egress port at the hop-th switch (SH_PATHS). */
@inline export function pathAt(f: i32, hop: i32): usize { return paths + ((<usize>f * <usize>pathLen + <usize>hop) << 2); }
/** Congestion point of TC tc of the port at pa: only switch ports of a fabric with QCN have them (SP_CP_AT). */
@inline export function cpRec(pa: usize, tc: i32): usize { return <usize>load<u32>(pa + SP_CP_AT) + <usize>(tc * QCN_CP_SIZE); }
/** QCN reaction point of flow record fa: current rate limit (0 while idle) and timer deadline. */
@inline export function rpRate(fa: usize): i64 { return load<i32>(fa + SF_RP + QCN_RP_ACTIVE) != 0 ? load<i64>(fa + SF_RP + QCN_RP_CR) : 0; }
@inline export function rpDeadline(fa: usize): i64 {
  const d = load<i64>(fa + SF_RP + QCN_RP_DEADLINE);
  if (!dcqcn) return d;
  const a = load<i64>(fa + SF_RP + QCN_RP_ALPHA_DEADLINE);
  return a < d ? a : d;
}
/** Credit record of priority pr of the port at pa: only ports with a credit priority at either end of their link have them (SP_CREDIT_AT). */
@inline export function creditRec(pa: usize, pr: i32): usize { return <usize>load<u32>(pa + SP_CREDIT_AT) + <usize>(pr * CREDIT_SIZE); }
/** Flow-control mode of priority prio on the port at pa (its node's config). */
@inline export function modeAt(pa: usize, prio: i32): i32 { return (load<i32>(pa + SP_MODES) >> (prio << 2)) & 15; }
@inline export function creditMaskAt(pa: usize): i32 { return load<i32>(pa + SP_CREDIT_MASK); }
@inline export function count(field: i32, by: i64): void { store<i64>(ctr + field, load<i64>(ctr + field) + by); }

@inline
export function allocPacket(): i32 {
  let k = freeList;
  if (k >= 0) freeList = load<i32>(pktAt(k) + SK_NEXT);
  else if (poolNext < poolEnd) k = poolNext++;
  else count(SC_POOL_EXHAUSTED, 1);
  return k;
}

@inline
export function freePacket(k: i32): void {
  store<i32>(pktAt(k) + SK_NEXT, freeList);
  freeList = k;
}
