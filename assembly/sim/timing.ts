// Fabric timing that real hardware has (docs/sim.md, "Timing"): every port's transmit clock runs
// off nominal by an offset drawn within the range IEEE 802.3 allows its PHY (+-100 ppm), which
// scales its serialisation times; a switch forwards a frame a pipeline latency (plus an optional
// uniform jitter) after its last bit arrived. Without them every sender keeps one phase against a
// bottleneck's departures for ever (Floyd and Jacobson, "On Traffic Phase Effects in
// Packet-Switched Gateways", 1991).
//
// State per port (assembly/sim/layout.ts): SP_PPB + SP_PPB_FRAC / 2^32 = ps per byte at the port's
// clock, SP_PPB_REM the fraction of a picosecond carried from the frames already sent; SP_FWD_LAT,
// SP_FWD_JITTER, SP_FWD_RNG: the latency of the switch the port sends into and the stream its jitter
// comes from (the receiving port's: the one link that feeds a port draws it, in send order, so a
// partitioned run draws the same values); SP_FWD_LAST the latest arrival that crossed a pipeline.
//
// Invariants: a port's serialisation times sum to floor(wire bytes sent x (SP_PPB + SP_PPB_FRAC /
// 2^32)) ps, nothing lost to rounding; frames that cross a pipeline arrive in send order, each later
// than the one before (strictly, so equal-time ties never depend on packet records); with range and
// latency 0 nothing here runs (SP_FLAG_TIMED clear) and serialisation is wire bytes x SP_PPB as before.
import { PKT_GRANT, PKT_PAUSE, PKT_PFC } from '../layout';
import {
  SIM_ID_PORT, SP_CLOCK_OFFSET, SP_CLOCK_RANGE, SP_FLAGS, SP_FLAG_TIMED, SP_FWD_JITTER, SP_FWD_LAST, SP_FWD_LAT,
  SP_FWD_RNG, SP_PEER, SP_PPB, SP_PPB_FRAC, SP_PPB_REM,
} from './layout';
import { rngNext, rngSeed } from '../rng';
import { portAt } from './arena';

/** Parts per 10^9: the unit of a clock offset. */
const BILLION: i64 = 1_000_000_000;

/**
 * Draws port p's clock offset from its own stream (uniform over [-range, +range] parts per 10^9,
 * the remainder of one 32-bit draw: a bias below 2^-12 for ranges up to 10^6) and turns its ps per
 * byte into the fixed-point ps per byte at that clock: nominal x 10^9 / (10^9 + offset), the integer
 * part in SP_PPB and the fraction, rounded down, in SP_PPB_FRAC. The stream's later draws are the
 * forwarding jitter of frames arriving at p, made by the port that sends to p (its peer).
 * Runs once per port at set-up; every port's record is written before any is used.
 */
export function timingSetup(p: i32, seed: u32): void {
  const pa = portAt(p);
  const peer = portAt(load<i32>(pa + SP_PEER));
  const state = peer + SP_FWD_RNG;
  store<u32>(state, rngSeed(seed, <u32>(SIM_ID_PORT | p)));
  const range = load<i32>(pa + SP_CLOCK_RANGE);
  let offset: i64 = 0;
  if (range > 0) offset = <i64>(rngNext(state) % <u32>(2 * range + 1)) - <i64>range;
  store<i32>(pa + SP_CLOCK_OFFSET, <i32>offset);
  const scaled = <i64>load<i32>(pa + SP_PPB) * BILLION;
  const den = BILLION + offset;
  store<i32>(pa + SP_PPB, <i32>(scaled / den));
  // The remainder is below den < 2^31, so remainder << 32 fits in 63 bits.
  store<u32>(pa + SP_PPB_FRAC, <u32>(((scaled % den) << 32) / den));
  store<u32>(pa + SP_PPB_REM, 0);
  store<i64>(pa + SP_FWD_LAST, 0);
  if (offset != 0 || load<i32>(pa + SP_FWD_LAT) != 0) store<i32>(pa + SP_FLAGS, load<i32>(pa + SP_FLAGS) | SP_FLAG_TIMED);
}

/**
 * `rate` bit/s as a source on port pa's NIC makes it: its rate limiters and arrival process count
 * time with the clock that drives its transmitter, so a line-rate source keeps pace with its own
 * port (truncated to whole bit/s: an error below 10^-9 of the rate).
 */
@inline
export function clockRate(pa: usize, rate: i64): i64 {
  return rate + (rate * <i64>load<i32>(pa + SP_CLOCK_OFFSET)) / BILLION;
}

/** Serialisation time of `wire` bytes at the port's clock, ps; carries the fraction left over. */
export function timedSerial(pa: usize, wire: i32): i64 {
  const acc = <u64>wire * <u64>load<u32>(pa + SP_PPB_FRAC) + <u64>load<u32>(pa + SP_PPB_REM);
  store<u32>(pa + SP_PPB_REM, <u32>acc);
  return <i64>wire * <i64>load<i32>(pa + SP_PPB) + <i64>(acc >> 32);
}

/**
 * When a frame that ends its propagation at `arriveAt` reaches the switch's forwarding decision:
 * after the pipeline latency plus a uniform draw in [0, jitter) from the receiving port's stream
 * (multiply-high of a 32-bit draw, no division), and after the frame sent before it on this link.
 * MAC control frames (PFC, PAUSE, credit grants) act in the receiving MAC, not the pipeline.
 */
@inline
export function timedArrival(pa: usize, kind: i32, arriveAt: i64): i64 {
  const latency = load<i32>(pa + SP_FWD_LAT);
  // No pipeline: a link into a host, which every frame's last hop is.
  return latency == 0 ? arriveAt : pipelineArrival(pa, kind, arriveAt, latency);
}

/** timedArrival through a switch's pipeline of `latency` ps. */
@inline
function pipelineArrival(pa: usize, kind: i32, arriveAt: i64, latency: i32): i64 {
  const k = kind & 0xff;
  if (k == PKT_PFC || k == PKT_PAUSE || k == PKT_GRANT) return arriveAt;
  let at = arriveAt + <i64>latency;
  const jitter = load<i32>(pa + SP_FWD_JITTER);
  if (jitter > 0) at += <i64>((<u64>rngNext(pa + SP_FWD_RNG) * <u64>jitter) >> 32);
  const last = load<i64>(pa + SP_FWD_LAST);
  if (at <= last) at = last + 1;
  store<i64>(pa + SP_FWD_LAST, at);
  return at;
}
