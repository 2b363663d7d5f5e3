// The per-packet pipeline of one egress port with 8 traffic classes (docs/design.md §3-4):
// 802.1Q classification (priority -> TC), 802.1Qbb PFC ingress accounting and pause obedience
// (assembly/pfc.ts), per-TC FIFOs, 802.1Qau congestion points (assembly/qcn_cp.ts), 802.1Qaz
// transmission selection (assembly/ets.ts) and serialisation at line rate (wire bytes = frame + 20).
//
// Input: a ring of IN_CAP arrivals (8 bytes each) processed in order:
//   word0 >= 0: a data frame, bits 0..13 frame bytes, 16..18 priority, 19..26 source id
//   word0 <  0: a PFC frame received from the link partner, bits 16..23 priority-enable vector,
//               bits 0..15 the time (quanta) for every enabled priority
//   word1 (u32): time since the previous arrival, ps
// Output: a ring of OUT_CAP control events (16 bytes, overwritten cyclically, PORT_OUT_HEAD counts):
//   kind word = 1 | pending << 8   a PFC frame to send upstream (pending: PFC_PENDING bits; the
//                                   times are in the PFC record's PFC_TX_TIME), arg = XOFF bits
//   kind word = 2 | tc << 8 | src << 16   a CNM for source src, arg = qf
//   then the i64 time, ps.
//
// Per arrival at time now (= previous + gap):
//   1. the link serves frames whose transmission starts at or before now: at each start time t
//      (= end of the previous frame, or the time the link went idle) ETS selects a TC among the
//      backlogged TCs not blocked at t, the head frame leaves its FIFO (PFC departure)
//      and occupies the wire for (bytes + 20) * ps_per_byte. If every backlogged TC is blocked and
//      a pause ends before now, the link resumes at that instant.
//   2. the arrival: a PFC frame restarts the pause timers (replace semantics, pfcReceivePfc); a
//      data frame is classified, dropped if its TC FIFO is full or PFC's limit refuses it,
//      otherwise enqueued and offered to its TC's CP; due XOFF refreshes fire; PFC frames and CNMs
//      go to the output ring.
//   3. an idle link becomes ready at now (the next frame starts no earlier than its arrival).
//
// State (layout.ts, PORT_*): one static port record embedding its ETS, PFC and 8 CP records; FIFO
// storage (8 x QUEUE_CAP u32); the arrival and event rings. Invariants: PORT_BACKLOG bit t ==
// (count[t] > 0); head_wire[t] == head frame bytes + 20 or 0; tx_free >= now after each arrival;
// PORT_BLOCKED is the blocked-TC mask for any time in [last check, PORT_PAUSE_EXPIRY); between
// batches, a CP's q is the PFC occupancy of its TC's priorities (the CP records take it at samples
// and batch ends), PORT_RX_FRAMES and PORT_TX_BYTES are up to date (they are counted per batch).
//
// The generator (portGenerate) draws arrivals from an xorshift32 (entity id 8 under the seed):
// priority uniform 0..7, frame 64..1500 B uniform, source 0..255, gap = wire time x U{44..75}/64
// (offered load ~1.08 of line rate), and with probability 1/512 instead a PFC frame with a random
// enable vector and time 0..1023 quanta. bench/native/port.c implements the same pipeline, byte
// for byte on the same layout; portChecksum hashes the state the same way (FNV-1a over words).
import {
  ETS_BW, ETS_PRIO_TC, ETS_TSA, IN_CAP, OUT_CAP, PFC_BLOCKED_UNTIL, PFC_TX_TIME, PORT_BACKLOG, PORT_BLOCKED, PORT_BYTES,
  PORT_CP, PORT_CP_MASK, PORT_ETS, PORT_EVENTS_OUT, PORT_GEN_RNG, PORT_HEAD_WIRE, PORT_NEXT_REFRESH, PORT_NOW,
  PORT_OUT_HEAD, PORT_PAUSE_EXPIRY, PORT_PFC, PORT_PFC_RX, PORT_PRIO_TC, PORT_PS_PER_BYTE, PORT_QUEUE_DROPS,
  PORT_Q_COUNT, PORT_Q_HEAD, PORT_RX_FRAMES, PORT_TC_TX_BYTES, PORT_TX_BYTES, PORT_TX_FRAMES, PORT_TX_FREE,
  QCN_CP_QF, QCN_CP_QUANT, QCN_CP_Q_EQ, QCN_CP_SIZE, QCN_CP_TTM, QCN_CP_Q, QCN_CP_W, QUEUE_CAP, TSA_ETS, TSA_STRICT, PFC_PENDING, PFC_REFRESH_PS,
  PFC_ENABLE, PFC_HEADROOM, PFC_MODE, PFC_PAUSE_TIME, PFC_PORT_UNIT, PFC_SPEED_BPS, PFC_UNITS, PFC_XOFF_TH, PFC_XON_TH, PFC_OCC,
} from './layout';
import { WIRE_OVERHEAD, etsClassify, etsConfigure, etsEmptied, etsSelect } from './ets';
import {
  PFC_MODE_PFC, pfcAdd, pfcBlockedMask, pfcBlockedTcs, pfcConfigure, pfcDrop, pfcNextRefresh, pfcOccWith, pfcOverLimit,
  pfcQueueXoff, pfcQueueXon, pfcReceivePfc, pfcRefreshDue, pfcRemove, pfcTakePending, pfcUnitOf, pfcXoffDue, pfcXonDue,
} from './pfc';
import { QUANT_LINEAR, qcnCpConfigure, qcnCpSample, qcnCpTick } from './qcn_cp';
import { rngNext, rngSeed } from './rng';

/** The pipeline's port record (PORT_*), its FIFO storage, arrival ring and control-event ring. */
export const PORT: usize = memory.data(PORT_BYTES, 16);
export const QUEUES: usize = memory.data(8 * QUEUE_CAP * 4, 16);
export const IN_RING: usize = memory.data(IN_CAP * 8, 16);
export const OUT_RING: usize = memory.data(OUT_CAP * 16, 16);
/** Eight u16 pause times handed to pfcReceivePfc for one received PFC frame. */
const PAUSE_TIMES: usize = memory.data(16, 16);
/**
 * Per TC the address of the CP record its frames are counted in: its QCN CP (PORT_CP_MASK), or for
 * a TC without one the sink below, so the per-packet path has no test. Rebuilt at every batch.
 */
const CP_OF_TC: usize = memory.data(8 * 4, 16);
/**
 * A CP record that never samples: its countdown restarts at i32.MAX every batch, more than the
 * bytes of IN_CAP frames (4096 x 16383), so qcnCpTick never goes below 0 on it. Outside the
 * port record: nothing reads it.
 */
const CP_SINK: usize = memory.data(QCN_CP_SIZE, 16);

const NEVER: i64 = i64.MAX_VALUE;
/** Entity id of the traffic generator's random stream (CPs use their TC number 0..7). */
const GEN_ENTITY: u32 = 8;

// Default configuration of the benchmark/differential port (docs/port.md, Parameters).
const SPEED_BPS: i64 = 100_000_000_000;
const PS_PER_BYTE: i32 = 80; // 8e12 / 100e9
const MAX_FRAME: i32 = 1518;
const PFC_ENABLE_MASK: i32 = 0x18; // priorities 3 and 4 lossless
const PAUSE_TIME: i32 = 0xFFFF;
const XOFF_BYTES: i32 = 30000;
const XON_BYTES: i32 = 15000;
const HEADROOM_BYTES: i32 = 20000;
const CP_TC_MASK: i32 = 0x07; // CPs on the ETS TCs 0..2
const CP_Q_EQ: i32 = 26000;
const CP_W: i32 = 2;

@inline function i32x(base: usize, field: i32, i: i32): usize {
  return base + <usize>field + (<usize>i << 2);
}

/** Writes one control event to the output ring. */
@inline
function emitEvent(kind: i32, arg: i32, t: i64): void {
  const head = load<i32>(PORT + PORT_OUT_HEAD);
  const e = OUT_RING + (<usize>(head & (OUT_CAP - 1)) << 4);
  store<i32>(e, kind);
  store<i32>(e, arg, 4);
  store<i64>(e, t, 8);
  store<i32>(PORT + PORT_OUT_HEAD, head + 1);
  store<i64>(PORT + PORT_EVENTS_OUT, load<i64>(PORT + PORT_EVENTS_OUT) + 1);
}

/** Sends any PFC frame the PFC kernel has queued (XOFF, refresh, XON). */
function flushPfc(t: i64): void {
  const pending = pfcTakePending(PORT + PORT_PFC);
  if (pending != 0) {
    let xoff = 0;
    for (let u = 0; u < 9; u++) {
      xoff |= <i32>(load<i32>(i32x(PORT + PORT_PFC, PFC_TX_TIME, u)) != 0) << u;
    }
    emitEvent(1 | (pending << 8), xoff & pending, t);
  }
}

/**
 * Recomputes the blocked-TC mask at time t and the time until which it holds (the PFC kernel's
 * cache interval). A per-event path (a PFC frame received, a pause ended): exported so that it
 * stays out of line and its constants and loops do not occupy registers in the per-packet loop.
 */
export function portRefreshBlocked(t: i64): void {
  const pfc = PORT + PORT_PFC;
  const prios = pfcBlockedMask(pfc, t);
  store<i32>(PORT + PORT_BLOCKED, pfcBlockedTcs(prios, load<i32>(PORT + PORT_PRIO_TC)));
  store<i64>(PORT + PORT_PAUSE_EXPIRY, load<i64>(pfc + PFC_BLOCKED_UNTIL));
}

/** Fires the XOFF refreshes due at `now` and moves the port's next-refresh time on. */
@inline
function refreshDue(now: i64): void {
  const pfc = PORT + PORT_PFC;
  pfcRefreshDue(pfc, now);
  store<i64>(PORT + PORT_NEXT_REFRESH, pfcNextRefresh(pfc));
}

/** The CP of `tc` samples the frame that ended its countdown (q from the PFC occupancies); a CNM goes to its source. */
@inline
function sampleCp(cp: usize, tc: i32, word: i32, now: i64): void {
  store<i32>(cp + QCN_CP_Q, queuedBytes(tc));
  if (qcnCpSample(cp)) emitEvent(2 | (tc << 8) | (((word >> 19) & 0xFF) << 16), load<i32>(cp + QCN_CP_QF), now);
}

/** XON for `unit`, sent at `t` (a departure brought it to <= xon; nothing else is pending then). */
@inline
function sendXon(unit: i32, t: i64): void {
  pfcQueueXon(PORT + PORT_PFC, unit);
  flushPfc(t);
}

/** XOFF for `unit` at `now`: its refresh is due one interval later; refreshes of other units due now join the same PFC frame. */
@inline
function sendXoff(unit: i32, now: i64): void {
  const pfc = PORT + PORT_PFC;
  pfcQueueXoff(pfc, unit, now);
  const refreshAt = now + load<i64>(pfc + PFC_REFRESH_PS);
  if (refreshAt < load<i64>(PORT + PORT_NEXT_REFRESH)) store<i64>(PORT + PORT_NEXT_REFRESH, refreshAt);
  if (now >= load<i64>(PORT + PORT_NEXT_REFRESH)) refreshDue(now);
  flushPfc(now);
}

/**
 * Step 1: transmissions that start at or before `now`, from the link's free time on; then the link
 * is ready at `now` at the earliest (step 3: nothing in step 2 reads the free time).
 */
@inline
function serveLink(now: i64): void {
  const ets = PORT + PORT_ETS;
  const pfc = PORT + PORT_PFC;
  let t = load<i64>(PORT + PORT_TX_FREE);
  if (t <= now) {
    do {
      if (t >= load<i64>(PORT + PORT_PAUSE_EXPIRY)) portRefreshBlocked(t);
      const tc = etsSelect(ets, load<i32>(PORT + PORT_BACKLOG), load<i32>(PORT + PORT_BLOCKED), PORT + PORT_HEAD_WIRE);
      if (tc < 0) {
        const resume = load<i64>(PORT + PORT_PAUSE_EXPIRY);
        if ((load<i32>(PORT + PORT_BACKLOG) & load<i32>(PORT + PORT_BLOCKED)) != 0 && resume <= now) {
          t = resume; // the link idles until the earliest pause ends
          continue;
        }
        t = now; // idle: ready at now (the loop only ends otherwise once t > now)
        break;
      }
      const headAt = i32x(PORT, PORT_Q_HEAD, tc);
      const countAt = i32x(PORT, PORT_Q_COUNT, tc);
      const head = load<i32>(headAt);
      const count = load<i32>(countAt) - 1;
      const fifo = QUEUES + (<usize>tc * <usize>QUEUE_CAP << 2);
      const entry = load<i32>(fifo + (<usize>head << 2));
      const bytes = entry & 0x3FFF;
      const prio = (entry >> 16) & 7;
      const nextHead = (head + 1) & (QUEUE_CAP - 1);
      store<i32>(headAt, nextHead);
      store<i32>(countAt, count);
      if (count == 0) {
        store<i32>(PORT + PORT_BACKLOG, load<i32>(PORT + PORT_BACKLOG) & ~(1 << tc));
        store<i32>(i32x(PORT, PORT_HEAD_WIRE, tc), 0);
        etsEmptied(ets, tc);
      } else {
        store<i32>(i32x(PORT, PORT_HEAD_WIRE, tc), (load<i32>(fifo + (<usize>nextHead << 2)) & 0x3FFF) + WIRE_OVERHEAD);
      }
      pfcRemove(pfc, prio, bytes);
      const unit = pfcUnitOf(pfc, prio);
      if (pfcXonDue(pfc, unit)) sendXon(unit, t);
      store<i64>(PORT + PORT_TX_FRAMES, load<i64>(PORT + PORT_TX_FRAMES) + 1);
      const tcBytes = PORT + PORT_TC_TX_BYTES + (<usize>tc << 3);
      store<i64>(tcBytes, load<i64>(tcBytes) + <i64>bytes);
      t += <i64>((bytes + WIRE_OVERHEAD) * load<i32>(PORT + PORT_PS_PER_BYTE));
    } while (t <= now);
  }
  store<i64>(PORT + PORT_TX_FREE, t);
}

/** Step 2 for a received PFC frame. */
@inline
function receivePfc(word: i32, now: i64): void {
  const time = word & 0xFFFF;
  for (let n = 0; n < 8; n++) store<u16>(PAUSE_TIMES + (<usize>n << 1), <u16>time);
  pfcReceivePfc(PORT + PORT_PFC, (word >> 16) & 0xFF, PAUSE_TIMES, now);
  store<i64>(PORT + PORT_PFC_RX, load<i64>(PORT + PORT_PFC_RX) + 1);
  portRefreshBlocked(now);
}

/**
 * Step 2 for a data frame. The PFC kernel's arrival is called by its parts (pfcArrive's
 * composition), so that a drop, an XOFF and a due refresh are each one branch on the hot path and
 * a PFC frame is flushed only after one of them queued it.
 */
@inline
function receiveFrame(word: i32, now: i64): void {
  const bytes = word & 0x3FFF;
  const prio = (word >> 16) & 7;
  const tc = etsClassify(PORT + PORT_ETS, prio);
  const countAt = i32x(PORT, PORT_Q_COUNT, tc);
  const count = load<i32>(countAt);
  if (count == QUEUE_CAP) {
    store<i64>(PORT + PORT_QUEUE_DROPS, load<i64>(PORT + PORT_QUEUE_DROPS) + 1);
    return;
  }
  const pfc = PORT + PORT_PFC;
  const unit = pfcUnitOf(pfc, prio);
  const occUnit = pfcOccWith(pfc, unit, bytes);
  if (pfcOverLimit(pfc, unit, occUnit)) {
    pfcDrop(pfc, prio, bytes);
    return;
  }
  pfcAdd(pfc, prio, bytes);
  const slot = (load<i32>(i32x(PORT, PORT_Q_HEAD, tc)) + count) & (QUEUE_CAP - 1);
  store<i32>(QUEUES + (<usize>tc * <usize>QUEUE_CAP << 2) + (<usize>slot << 2), word);
  store<i32>(countAt, count + 1);
  // Without a branch on whether the FIFO was empty (which follows the traffic, not a pattern): the
  // backlog bit is set either way, and the head frame's size written only if this frame is the head.
  store<i32>(PORT + PORT_BACKLOG, load<i32>(PORT + PORT_BACKLOG) | (1 << tc));
  const headWire = i32x(PORT, PORT_HEAD_WIRE, tc);
  store<i32>(headWire, select<i32>(bytes + WIRE_OVERHEAD, load<i32>(headWire), count == 0));
  const cp = load<u32>(CP_OF_TC + <usize>(tc << 2));
  if (qcnCpTick(cp, bytes) < 0) sampleCp(cp, tc, word, now);
  // After the CNM, as pfcArrive's XOFF would be sent.
  if (pfcXoffDue(pfc, unit, occUnit)) {
    sendXoff(unit, now);
  } else if (now >= load<i64>(PORT + PORT_NEXT_REFRESH)) {
    refreshDue(now);
    flushPfc(now);
  }
}

/**
 * Bytes queued in the FIFO of `tc`: the PFC occupancies of the priorities mapped to it (both count
 * every accepted frame from its arrival to its departure). A TC's CP queue length is exactly this,
 * so the CP records get it when they sample and at the end of each batch instead of per packet.
 */
function queuedBytes(tc: i32): i32 {
  let sum = 0;
  for (let p = 0; p < 8; p++) {
    if (etsClassify(PORT + PORT_ETS, p) == tc) sum += load<i32>(i32x(PORT + PORT_PFC, PFC_OCC, p));
  }
  return sum;
}

/** Frame bytes sent over all TCs (the sum of PORT_TC_TX_BYTES). */
@inline
function bytesSentByTcs(): i64 {
  let sum: i64 = 0;
  for (let tc = 0; tc < 8; tc++) sum += load<i64>(PORT + PORT_TC_TX_BYTES + (<usize>tc << 3));
  return sum;
}

/**
 * Processes arrivals 0..n-1 of the input ring (n <= IN_CAP). Returns the port's backlog mask.
 * Two counters are brought up to date once per batch rather than per packet: the data frames
 * received (arrivals minus PFC frames) and the bytes sent (the growth of the per-TC byte counters).
 */
export function portProcess(n: i32): i32 {
  const pfcFramesBefore = load<i64>(PORT + PORT_PFC_RX);
  const bytesBefore = bytesSentByTcs();
  const cpMask = load<i32>(PORT + PORT_CP_MASK);
  for (let tc = 0; tc < 8; tc++) {
    store<u32>(CP_OF_TC + (<usize>tc << 2), <u32>(((cpMask >> tc) & 1) != 0 ? PORT + PORT_CP + <usize>(tc * QCN_CP_SIZE) : CP_SINK));
  }
  store<i32>(CP_SINK + QCN_CP_TTM, i32.MAX_VALUE);
  let now = load<i64>(PORT + PORT_NOW);
  const end = IN_RING + (<usize>n << 3);
  for (let a = IN_RING; a < end; a += 8) {
    const word = load<i32>(a);
    now += <i64>load<u32>(a, 4);
    serveLink(now);
    if (word < 0) receivePfc(word, now);
    else receiveFrame(word, now);
  }
  const pfcFrames = load<i64>(PORT + PORT_PFC_RX) - pfcFramesBefore;
  store<i64>(PORT + PORT_RX_FRAMES, load<i64>(PORT + PORT_RX_FRAMES) + <i64>n - pfcFrames);
  store<i64>(PORT + PORT_TX_BYTES, load<i64>(PORT + PORT_TX_BYTES) + bytesSentByTcs() - bytesBefore);
  for (let tc = 0; tc < 8; tc++) {
    if (((cpMask >> tc) & 1) != 0) store<i32>(PORT + PORT_CP + <usize>(tc * QCN_CP_SIZE) + QCN_CP_Q, queuedBytes(tc));
  }
  store<i64>(PORT + PORT_NOW, now);
  return load<i32>(PORT + PORT_BACKLOG);
}

/** Fills arrivals 0..n-1 of the input ring from the generator (n <= IN_CAP). */
export function portGenerate(n: i32): void {
  const rng = PORT + PORT_GEN_RNG;
  const psPerByte = load<i32>(PORT + PORT_PS_PER_BYTE);
  for (let i = 0; i < n; i++) {
    const a = IN_RING + (<usize>i << 3);
    const r = rngNext(rng);
    const r2 = rngNext(rng);
    if ((r & 511) == 0) {
      store<i32>(a, <i32>(0x80000000 | ((r2 & 0xFF) << 16) | ((r2 >>> 8) & 0x3FF)));
      store<u32>(a, 0, 4);
    } else {
      const bytes = 64 + <i32>((r >>> 9) % 1437);
      store<i32>(a, bytes | (<i32>(r >>> 29) << 16) | (<i32>((r2 >>> 8) & 0xFF) << 19));
      store<u32>(a, <u32>(((bytes + WIRE_OVERHEAD) * psPerByte * (44 + <i32>(r2 & 31))) >> 6), 4);
    }
  }
}

/**
 * Resets the port to the default configuration (docs/port.md): 100G, ETS 40/40/20 on TCs 0..2 and
 * strict TCs 3..7 with prio_tc 0 0 1 1 2 2 3 3, max frame 1518; PFC on priorities 3 and 4 with
 * xoff 30000 B, xon 15000 B, headroom 20000 B on every priority; CPs (Qeq 26000, w 2, linear) on
 * TCs 0..2; generator and CPs seeded from `seed`.
 */
export function portInit(seed: u32): void {
  memory.fill(PORT, 0, <usize>PORT_BYTES);
  memory.fill(QUEUES, 0, <usize>(8 * QUEUE_CAP * 4));
  memory.fill(OUT_RING, 0, <usize>(OUT_CAP * 16));
  store<i32>(PORT + PORT_PS_PER_BYTE, PS_PER_BYTE);
  store<u32>(PORT + PORT_GEN_RNG, rngSeed(seed, GEN_ENTITY));
  store<i64>(PORT + PORT_NEXT_REFRESH, NEVER);
  store<i64>(PORT + PORT_PAUSE_EXPIRY, NEVER);
  const ets = PORT + PORT_ETS;
  let packed = 0;
  for (let p = 0; p < 8; p++) {
    store<u8>(ets + ETS_PRIO_TC + p, <u8>(p >> 1));
    packed |= (p >> 1) << (3 * p);
  }
  store<i32>(PORT + PORT_PRIO_TC, packed);
  for (let tc = 0; tc < 8; tc++) store<u8>(ets + ETS_TSA + tc, <u8>(tc < 3 ? TSA_ETS : TSA_STRICT));
  store<u8>(ets + ETS_BW, 40);
  store<u8>(ets + ETS_BW + 1, 40);
  store<u8>(ets + ETS_BW + 2, 20);
  etsConfigure(ets, MAX_FRAME);
  const pfc = PORT + PORT_PFC;
  // Kernel records by their configure protocol: config fields, then <kernel>Configure.
  store<i32>(pfc + PFC_MODE, PFC_MODE_PFC);
  store<i32>(pfc + PFC_ENABLE, PFC_ENABLE_MASK);
  store<i32>(pfc + PFC_PAUSE_TIME, PAUSE_TIME);
  store<i64>(pfc + PFC_SPEED_BPS, SPEED_BPS);
  for (let u = 0; u < PFC_UNITS; u++) {
    // Priorities 0..7 have thresholds; the port unit 8 (PAUSE mode only) stays disabled.
    const on = u < PFC_PORT_UNIT;
    store<i32>(pfc + PFC_XOFF_TH + (<usize>u << 2), on ? XOFF_BYTES : i32.MAX_VALUE);
    store<i32>(pfc + PFC_XON_TH + (<usize>u << 2), on ? XON_BYTES : 0);
    store<i32>(pfc + PFC_HEADROOM + (<usize>u << 2), on ? HEADROOM_BYTES : 0);
  }
  pfcConfigure(pfc);
  store<i32>(PORT + PORT_CP_MASK, CP_TC_MASK);
  for (let tc = 0; tc < 8; tc++) {
    const cp = PORT + PORT_CP + <usize>(tc * QCN_CP_SIZE);
    store<i32>(cp + QCN_CP_Q_EQ, CP_Q_EQ);
    store<i32>(cp + QCN_CP_W, CP_W);
    store<i32>(cp + QCN_CP_QUANT, QUANT_LINEAR);
    qcnCpConfigure(cp, seed, <u32>tc);
  }
}

/** Generates and processes `packets` arrivals in chunks of IN_CAP (the differential test's run). */
export function portRun(packets: i32): i32 {
  let left = packets;
  while (left > 0) {
    const n = left < IN_CAP ? left : IN_CAP;
    portGenerate(n);
    portProcess(n);
    left -= n;
  }
  return load<i32>(PORT + PORT_BACKLOG);
}

/** FNV-1a over the 32-bit words of the port record, the FIFO storage and the event ring. */
export function portChecksum(): u32 {
  let h: u32 = 2166136261;
  for (let p = PORT; p < PORT + <usize>PORT_BYTES; p += 4) h = (h ^ load<u32>(p)) * 16777619;
  for (let p = QUEUES; p < QUEUES + <usize>(8 * QUEUE_CAP * 4); p += 4) h = (h ^ load<u32>(p)) * 16777619;
  for (let p = OUT_RING; p < OUT_RING + <usize>(OUT_CAP * 16); p += 4) h = (h ^ load<u32>(p)) * 16777619;
  return h;
}

/** Benchmark set-up: portInit(seed) and one generated ring of IN_CAP arrivals, replayed by portProcess(n). */
export function portBenchSetup(seed: u32): void {
  portInit(seed);
  portGenerate(IN_CAP);
}
