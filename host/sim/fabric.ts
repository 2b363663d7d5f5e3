// The fabric engine's tables (assembly/sim/): lays a normalised scenario out as flat records in one
// arena reserved once (header, nodes, ports, flows, packet pool, event heaps, routes, ...), writes
// every record's parameters from its own node's config (ETS and the PFC kernel per port, the QCN
// reaction point per flow through host/core/kernels/qcn-rp.ts), calls simInit, and gives the driver
// zero-copy readers of the tables. Sizes are fixed here so a run never allocates.
import { CONTROL_FRAME_BYTES, FC_CODE, WD_ACTION_CODE, WIRE_OVERHEAD } from '../core/codes.js';
import { Core } from '../core/loader.js';
import { dcqcnKernelFields, NO_DCQCN_FIELDS, writeNpParams, writeRpParams, type RpParams } from '../core/kernels/qcn-rp.js';
import { PFC_UNIT_OFF, PORT_UNIT, writePfcParams, type PfcParams } from '../core/kernels/pfc.js';
import { writeCreditParams } from '../core/kernels/credit.js';
import { writeDcqcnCpParams, writeQcnCpParams } from '../core/kernels/qcn-cp.js';
import { losslessPgs, type NormNode, type Scenario } from '../scenario/scenario.js';
import type { QcnRpConfig } from '../config/types.js';
import { computeRoutes, hopScratch, longestFlowPath, nodeOrdinals, type Routes } from './routes.js';
import { partitionFabric, smallestFrameTime } from './partition.js';
import { PartitionedEngine } from './parallel.js';
import { controlBytes } from './windows.js';
import { etsMeasuredPorts, etsWeightedMask } from './sample.js';

/** Watchdog log entries the arena holds (summary.ts reads at most this many). */
export const WDLOG_CAP = 4096;
const POOL_MAX = 4_000_000;

/** Layout constant names read from the core (assembly/layout.ts, section sim). */
export type L = Record<string, number>;
/**
 * Every exported layout constant as a plain object, read once: the driver reads these on every
 * sample, and a lookup through the module's exports each time cost more than the reads themselves.
 * A name the core does not export is an error at its first use, as before.
 */
function layout(core: Core): L {
  const known: L = {};
  for (const [name, g] of Object.entries(core.exports)) if (g instanceof WebAssembly.Global && /^[A-Z]/.test(name)) known[name] = Number(g.value);
  // Known names are own properties (plain loads, cached by V8); a name the core lacks falls through
  // to the prototype, a proxy that asks the core and so fails with its name. A proxy around the whole
  // object cost a trap per read: 0.15 s of a k = 28 fat tree's set-up.
  Object.setPrototypeOf(known, new Proxy({}, { get: (_t, k: string | symbol) => (typeof k === 'string' ? core.constant(k) : undefined) }));
  return known;
}

/** Ports whose departures the engine records, and the records each partition's ring holds (host/sim/capture.ts). */
export interface CaptureLayout {
  ports: readonly number[];
  ringRecords: number;
}

export interface Fabric {
  core: Core;
  scn: Scenario;
  base: number;
  arenaBytes: number;
  addr: { ports: number; nodes: number; flows: number; counters: number; wdlog: number; paths: number; etsMeter: number };
  /** Row stride of the path table (addr.paths): each flow's egress port at its 1st, 2nd, ... switch. */
  pathLen: number;
  L: L;
  /** The forwarding tables the engine was given (host/sim/routes.ts), and the switch ordinals they use. */
  routes: Routes;
  swOrd: Map<number, number>;
  /** Runs to tPs; `sampleEts` closes an ETS share sampling interval there (sample.ts EtsShareMeter). */
  runUntil(tPs: number, sampleEts?: boolean): void;
  /** Partitions (threads) the run uses, its window (ps; 0 on one thread), and why fewer than asked for. */
  threads: number;
  lookaheadPs: number;
  threadsNote?: string;
  /** Ends the run's worker threads (a no-op on one thread); the tables stay readable. */
  close(): void;
  /** Zero-copy reads of the arena (views re-derived if memory moved). */
  r32(at: number): number;
  r64(at: number): number;
  portAt(p: number): number;
  flowAt(f: number): number;
  /**
   * Paused time of priority pr at port p up to `now`: the PFC kernel's own pfcPausedPs (closed
   * intervals plus the running one); on a port in PAUSE mode the port unit pauses every priority.
   */
  pausedPs(p: number, now: number, pr: number): number;
}

/**
 * Builds the engine's tables for `scn` in a fresh core instance (memory grows here, once). With
 * `threads` > 1 the fabric is partitioned (partition.ts) and, unless it cannot be split, run by
 * that many threads over one shared memory (parallel.ts); the tables read the same either way.
 * `admit` sees the arena's plan before it is reserved and may throw to refuse the run.
 */
/** The arena's size and its two big tables, known before it is reserved (the memory budget reads it). */
export interface ArenaPlan {
  arenaBytes: number;
  /** Packet records and their size; event-heap entries (16 bytes each); partitions. */
  poolRecords: number;
  recordBytes: number;
  heapEntries: number;
  parts: number;
}

export function buildFabric(scn: Scenario, flavour: 'release' | 'debug' = 'release', threads = 1, capture?: CaptureLayout, admit?: (plan: ArenaPlan) => void): Fabric {
  const plan = partitionFabric(scn, threads);
  const parts = plan.parts;
  const owner = plan.owner;
  const core = parts > 1 ? new Core('shared') : new Core(flavour);
  const L = layout(core);
  // The core's seeding rule (assembly/rng.ts, docs/design.md §2) for the traffic sources the host writes.
  const rngSeed = core.fn<(seed: number, id: number) => number>('rng_seed_value');
  const nPorts = scn.ports.length;
  const nNodes = scn.nodes.length;
  const nFlows = scn.flows.length;
  const { hostOrd, swOrd } = nodeOrdinals(scn);
  const nHosts = hostOrd.size;
  const nSw = swOrd.size;

  // Routes: shortest-path ECMP sets per destination host, plus a column per pinned flow (routes.ts).
  const routes = computeRoutes(scn, hostOrd, swOrd);
  const { route, nhWords, columns, flowColumn } = routes;
  // Per-flow path rows (simInit fills them): one load per hop instead of the route lookup.
  const pathLen = Math.max(1, longestFlowPath(scn, routes, hopScratch(scn, swOrd)));

  // Packet pool: everything the switch buffers and NIC queues can hold, frames in flight on every
  // link, plus control frames; sized at init so a run never allocates.
  // A partitioned run gives each partition the records its own part of that needs: its ports, its
  // switches' buffers and host queues, and the frames in flight toward its ports.
  const minWire = scn.minFrame + WIRE_OVERHEAD;
  const poolShare = new Array<number>(parts).fill(1024);
  const partOfNode = (n: { ports: number[] }) => (n.ports.length ? owner[n.ports[0]] : 0);
  for (const p of scn.ports) poolShare[owner[p.id]] += 64;
  for (const n of scn.nodes) if (n.buffer) poolShare[partOfNode(n)] += Math.ceil((n.buffer.size + n.buffer.headroom.reduce((a, b) => a + b, 0) * 8) / scn.minFrame);
  for (const p of scn.ports) {
    const into = scn.nodes[p.peerNode];
    poolShare[owner[p.peer]] += Math.ceil((p.delay_ps + into.latency_ps + into.latency_jitter_ps) / (minWire * p.psPerByte)) + 2;
  }
  for (const n of scn.nodes) if (n.isHost) poolShare[partOfNode(n)] += 8 * Math.ceil(scn.hostQueue / scn.minFrame + 1);
  const poolEst = poolShare.reduce((x, y) => x + y, 0);
  const poolCap = Math.min(POOL_MAX, poolEst);
  if (poolCap < poolEst) {
    for (let w = 0; w < parts; w++) poolShare[w] = Math.floor((poolShare[w] * poolCap) / poolEst);
    poolShare[parts - 1] += poolCap - poolShare.reduce((x, y) => x + y, 0);
  }
  // Per flow: its FLOW, RP timer and RTO events, plus FLOW events a rate change left stale.
  const heapCapOf = (pool: number, ports: number, flows: number, storms: number) => pool + ports * 16 + flows * 8 + storms + 64;
  const heapCap = parts > 1 ? 0 : heapCapOf(poolCap, nPorts, nFlows, scn.storms.length);
  // roce flows' ACKs travel their path back: a second row per flow in the path table.
  const revPaths = scn.flows.some((f) => f.transport === 'roce');
  const pathRows = revPaths ? 2 * nFlows : nFlows;
  const mixEntries = scn.flows.reduce((a, f) => a + f.frames.mix.length, 0);
  const etsPorts = etsMeasuredPorts(scn);
  // The distinct watchdog poll intervals: one poll event each (usually one for the whole fabric).
  const wdPolls = [...new Set(scn.nodes.filter((n) => !n.isHost && n.watchdog).map((n) => n.watchdog!.poll_interval))].filter((x) => x > 0);

  let off = 0;
  const take = (bytes: number) => { const at = off; off += Math.ceil(bytes / 64) * 64; return at; };
  const o = {
    hdr: take(L.SH_SIZE), nodes: take(nNodes * L.SN_SIZE), ports: take(nPorts * L.SP_SIZE), flows: take(nFlows * L.SF_SIZE),
    pool: take(poolCap * L.SK_SIZE), heap: take(heapCap * 16), route: take(nSw * columns * 4), nh: take(nhWords.length * 4),
    paths: take(pathRows * pathLen * 4 + 4), mix: take(mixEntries * 8 + 8), wdPolls: take(wdPolls.length * 8 + 8), counters: take(L.SC_SIZE), wdlog: take(WDLOG_CAP * L.SW_SIZE), storms: take(scn.storms.length * L.SS_SIZE + 8),
    etsMeter: take(etsPorts.length * L.EM_SIZE + 8),
    // Packet capture (assembly/sim/capture.ts): one ring per partition, records after the headers.
    capture: take(capture ? parts * (L.CG_SIZE + capture.ringRecords * L.CR_SIZE) : 8),
  };
  // Partitioned: the owner table, each partition's record, counters, watchdog log and heaps, the
  // rings between partitions (each holds what one window can send: a frame per smallest-frame time
  // of every cut port, plus one) and the window loop's control block.
  const pa0 = parts > 1 ? layoutPartitions() : null;
  function layoutPartitions() {
    const own = (w: number) => scn.ports.filter((p) => owner[p.id] === w).length;
    const flowsOf = (w: number) => scn.flows.filter((f) => owner[scn.nodes[f.src].ports[0]] === w).length;
    const stormsOf = (w: number) => scn.storms.filter((x) => owner[scn.nodes[x.host].ports[0]] === w).length;
    const ringCap = new Array<number>(parts * parts).fill(0);
    for (const p of scn.ports) {
      const from = owner[p.id], to = owner[p.peer];
      if (from !== to) ringCap[from * parts + to] += Math.floor(plan.lookaheadPs / smallestFrameTime(scn, p.id)) + 2;
    }
    const part = Array.from({ length: parts }, (_, w) => {
      const heapCap = heapCapOf(poolShare[w], own(w), flowsOf(w), stormsOf(w)) + wdPolls.length;
      return { record: take(L.PT_SIZE), counters: take(L.SC_SIZE), wdlog: take(WDLOG_CAP * L.SW_SIZE), heap: take(heapCap * 16), heapCap, txCap: own(w) + 1 };
    });
    const ringTable = take(parts * parts * 2 * L.RG_SIZE);
    const rings = ringCap.map((cap) => (cap > 0 ? { cap, at: [take(cap * L.RG_ENTRY), take(cap * L.RG_ENTRY)] } : null));
    return { owner: take(nPorts), part, ringTable, rings, ctl: take(controlBytes(parts)) };
  }
  const arenaBytes = off;
  // Refused runs stop here, before the arena is reserved.
  admit?.({ arenaBytes, poolRecords: poolCap, recordBytes: L.SK_SIZE, heapEntries: pa0 ? pa0.part.reduce((n, x) => n + x.heapCap, 0) : heapCap, parts });
  const base = core.fn<(b: number) => number>('simReserve')(arenaBytes);
  if (base === 0) throw new Error(`cannot reserve ${arenaBytes} bytes for the simulator arena`);
  const a = Object.fromEntries(Object.entries(o).map(([k, v]) => [k, base + v])) as typeof o;
  const i32 = core.i32;
  const i64 = core.i64;
  const u8 = core.u8;
  const w32 = (at: number, v: number) => { i32[at >>> 2] = v | 0; };
  const w64 = (at: number, v: number) => { i64[at >>> 3] = v >= Number.MAX_SAFE_INTEGER ? 0x7fffffffffffffffn : BigInt(Math.round(v)); };

  // Header.
  const h = a.hdr;
  w32(h + L.SH_NPORTS, nPorts); w32(h + L.SH_NNODES, nNodes); w32(h + L.SH_NFLOWS, nFlows); w32(h + L.SH_NHOSTS, columns);
  w32(h + L.SH_POOL_CAP, poolCap); w32(h + L.SH_HEAP_CAP, heapCap);
  w32(h + L.SH_PORTS, a.ports); w32(h + L.SH_NODES, a.nodes); w32(h + L.SH_FLOWS, a.flows); w32(h + L.SH_POOL, a.pool);
  w32(h + L.SH_HEAP, a.heap); w32(h + L.SH_ROUTE, a.route); w32(h + L.SH_NH, a.nh); w32(h + L.SH_MIX, a.mix);
  w32(h + L.SH_PATHS, a.paths); w32(h + L.SH_PATH_LEN, pathLen); w32(h + L.SH_REV_PATHS, revPaths ? 1 : 0);
  w32(h + L.SH_COUNTERS, a.counters); w32(h + L.SH_WDLOG, a.wdlog); w32(h + L.SH_WDLOG_CAP, WDLOG_CAP);
  w32(h + L.SH_STORMS, a.storms); w32(h + L.SH_NSTORMS, scn.storms.length);
  const qcnMask = scn.qcn.enable ? scn.qcn.priorities.reduce((m, p) => m | (1 << p), 0) : 0;
  w32(h + L.SH_QCN_MASK, qcnMask);
  w32(h + L.SH_SEED, scn.seed >>> 0); w32(h + L.SH_HOSTQ, scn.hostQueue);
  // simInit configures every port's ETS record (etsConfigure) for the fabric's largest frame.
  w32(h + L.SH_MAX_FRAME, scn.maxFrame);
  // Credit unit and aging are fabric-wide (checkScenario requires every credit node to agree); they
  // go into each credit record below.
  const creditNode = scn.nodes.find((n) => n.modes.includes('credit')) ?? scn.nodes[0];
  const creditUnit = creditNode.dcb.creditUnit;
  const creditAgingPs = BigInt(Math.round(creditNode.dcb.creditAgingPs));
  w64(h + L.SH_CREDIT_AGING, creditNode.dcb.creditAgingPs); // the period of the re-grant events
  const dcqcn = scn.qcn.profile === 'dcqcn';
  w32(h + L.SH_QCN_PROFILE, dcqcn ? 1 : 0);
  w32(h + L.SH_WD_POLLS, a.wdPolls); w32(h + L.SH_NWD_POLLS, wdPolls.length);
  wdPolls.forEach((ps, g) => w64(a.wdPolls + 8 * g, ps));

  // ETS share meter (assembly/sim/ets_meter.ts): the measured ports and their weighted TCs.
  w32(h + L.SH_ETS_METER, a.etsMeter); w32(h + L.SH_NETS_METER, etsPorts.length); w32(h + L.SH_ETS_MIN_BYTES, 8 * (scn.maxFrame + WIRE_OVERHEAD));
  etsPorts.forEach((p, i) => { w32(a.etsMeter + i * L.EM_SIZE + L.EM_PORT, p.id); w32(a.etsMeter + i * L.EM_SIZE + L.EM_WEIGHTED, etsWeightedMask(p)); });
  if (capture) {
    w32(h + L.SH_CAPTURE, a.capture);
    for (let w = 0; w < parts; w++) {
      const ring = a.capture + w * L.CG_SIZE;
      w32(ring + L.CG_CAP, capture.ringRecords); w32(ring + L.CG_RECORDS, a.capture + parts * L.CG_SIZE + w * capture.ringRecords * L.CR_SIZE);
    }
  }
  const captured = new Set(capture?.ports ?? []);

  // Nodes.
  for (const n of scn.nodes) {
    const na = a.nodes + n.id * L.SN_SIZE;
    w32(na + L.SN_KIND, n.isHost ? 0 : 1);
    w32(na + L.SN_ORD, n.isHost ? hostOrd.get(n.id)! : swOrd.get(n.id)!);
    if (n.buffer) {
      const lossless = losslessPgs(n.modes);
      const reserved = lossless > 0 ? n.buffer.headroom.reduce((x, y) => x + y, 0) * lossless : 0;
      w32(na + L.SN_SHARED_SIZE, Math.max(0, n.buffer.size - reserved));
      w32(na + L.SN_LOSSY_Q, n.buffer.lossyQueue);
    }
  }
  // Ports.
  for (const p of scn.ports) {
    const pa = a.ports + p.id * L.SP_SIZE;
    const node = scn.nodes[p.node];
    w32(pa + L.SP_NODE, p.node); w32(pa + L.SP_PEER, p.peer); w32(pa + L.SP_PPB, p.psPerByte);
    w32(pa + L.SP_FLAGS, (node.isHost ? 1 : 0) | (owner[p.peer] !== owner[p.id] ? L.SP_FLAG_REMOTE_PEER : 0) | (captured.has(p.id) ? L.SP_FLAG_CAPTURE : 0)); w64(pa + L.SP_DELAY, p.delay_ps);
    // Timing (assembly/sim/timing.ts): this port's clock range; the latency of the switch it sends into.
    const into = scn.nodes[p.peerNode];
    w32(pa + L.SP_CLOCK_RANGE, scn.timing.clockPpb); w32(pa + L.SP_FWD_LAT, into.latency_ps); w32(pa + L.SP_FWD_JITTER, into.latency_jitter_ps);
    const k = node.ports.indexOf(p.id);
    const headroom = node.buffer ? node.buffer.headroom[k] : 0;
    // This node's own flow control and watchdog; the kernel records by their configure protocols
    // (host/core/kernels/*; simInit calls each kernel's configure): PFC from the node's modes, thresholds
    // and pause time with this port's headroom, the port's own congestion points, and its credit
    // receiver buffer: the port's headroom (about one round trip, Reinemo et al. 2010), hosts alike.
    w32(pa + L.SP_MODES, node.modes.reduce((word, m, pr) => word | (FC_CODE[m] << (4 * pr)), 0));
    writePfcParams(core, pa + L.SP_PFC, pfcParamsOf(node, headroom, p.psPerByte));
    const crBytes = node.buffer ? headroom : hostCreditBytes(p, node.dcb.mtu);
    const credit = { k: L.SIM_CREDIT_BITS, unitBytes: creditUnit, capacityUnits: Math.floor(crBytes / node.dcb.creditUnit), agingPs: creditAgingPs };
    for (let pr = 0; pr < 8; pr++) writeCreditParams(core, pa + L.SP_CREDIT + pr * L.CREDIT_SIZE, credit);
    const wd = node.isHost ? null : node.watchdog;
    w32(pa + L.SP_WD_POLL, wd && wd.poll_interval > 0 ? wdPolls.indexOf(wd.poll_interval) : -1);
    w32(pa + L.SP_WD_ACTION, wd ? WD_ACTION_CODE[wd.action] : 0);
    w64(pa + L.SP_WD_DETECT, wd?.detection_time ?? 0); w64(pa + L.SP_WD_RESTORE, wd?.restoration_time ?? 0);
    const cp = p.qcn;
    for (let tc = 0; tc < 8; tc++) {
      const rec = pa + L.SP_CP + tc * L.QCN_CP_SIZE;
      if (dcqcn) writeDcqcnCpParams(core, rec, { kmin: cp.kmin, kmax: cp.kmax, pmax_q16: Math.round((cp.pmax * 65536) / 100) });
      else writeQcnCpParams(core, rec, { q_eq: cp.q_eq, w: cp.w, quantiser: 'linear' });
    }
    const ets = pa + L.SP_ETS;
    for (let x = 0; x < 8; x++) {
      u8[ets + L.ETS_PRIO_TC + x] = p.dcb.prioTc[x];
      u8[ets + L.ETS_TSA + x] = p.dcb.tsa[x];
      u8[ets + L.ETS_BW + x] = p.dcb.bw[x];
    }
  }
  // Flows.
  let mixAt = 0;
  for (const f of scn.flows) {
    const fa = a.flows + f.id * L.SF_SIZE;
    const srcPort = scn.ports[scn.nodes[f.src].ports[0]];
    w32(fa + L.SF_SRC, f.src); w32(fa + L.SF_DST, f.dst); w32(fa + L.SF_PRIO, f.priority); w32(fa + L.SF_PORT, srcPort.id);
    w32(fa + L.SF_FKIND, f.frames.kind); w32(fa + L.SF_FA, f.frames.a); w32(fa + L.SF_FB, f.frames.b);
    w32(fa + L.SF_MIXOFF, mixAt); w32(fa + L.SF_MIXN, f.frames.mix.length);
    let cum = 0;
    for (const m of f.frames.mix) {
      cum += m.weight;
      w32(a.mix + 8 * mixAt, m.bytes); w32(a.mix + 8 * mixAt + 4, cum);
      mixAt++;
    }
    w32(fa + L.SF_MIXTOT, Math.max(1, cum));
    w32(fa + L.SF_RNG, rngSeed(scn.seed >>> 0, (L.SIM_ID_SOURCE | f.id) >>> 0));
    w32(fa + L.SF_DST_ORD, flowColumn[f.id]); w32(fa + L.SF_SRC_ORD, hostOrd.get(f.src)!);
    w32(fa + L.SF_TC, srcPort.dcb.prioTc[f.priority]);
    w64(fa + L.SF_START, f.start_ps); w64(fa + L.SF_STOP, f.stop_ps); w64(fa + L.SF_LEFT, f.size > 0 ? f.size : -1);
    w64(fa + L.SF_START_JITTER, f.start_jitter_ps);
    // No rate: no arrival process, the flow sends as fast as its NIC's scheduler serves it.
    w64(fa + L.SF_RATE, f.rate_bps > 0 ? Math.min(f.rate_bps, srcPort.bps) : 0);
    w32(fa + L.SF_GAPS, f.interarrival === 'poisson' ? L.GAPS_POISSON : L.GAPS_CONSTANT);
    w32(fa + L.SF_QUANTUM, (scn.maxFrame + WIRE_OVERHEAD) * f.weight);
    if (f.transport === 'roce') {
      // One message of `size` bytes (unlimited without one) in frames of the flow's size, the last the remainder.
      const frame = f.frames.a;
      const npsn = f.size > 0 ? Math.ceil(f.size / frame) : -1;
      w32(fa + L.SF_TRANSPORT, L.TRANSPORT_ROCE);
      w64(fa + L.SF_NPSN, npsn);
      w32(fa + L.SF_TAIL_BYTES, npsn > 0 ? Math.max(64, f.size - (npsn - 1) * frame) : frame);
      w32(fa + L.SF_ACK_PRIO, f.ack_priority); w32(fa + L.SF_ACK_EVERY, f.ack_every); w64(fa + L.SF_RTO, f.rto_ps);
    }
    w64(fa + L.SF_ON, f.on_ps); w64(fa + L.SF_OFF, f.off_ps); w64(fa + L.SF_LINE_BPS, srcPort.bps);
    writeRpParams(core, fa + L.SF_RP, rpParamsOf(scn.nodes[f.src].qcn.rp, Math.min(srcPort.bps, Number.MAX_SAFE_INTEGER), L));
    const np = scn.nodes[f.dst].qcn.rp;
    if (np.profile === 'dcqcn') writeNpParams(core, fa + L.SF_NP, np.cnp_interval_ps);
  }
  // Routes.
  i32.set(route, a.route >>> 2);
  i32.set(nhWords, a.nh >>> 2);
  // Storm sources.
  scn.storms.forEach((s, i) => {
    const sa = a.storms + i * L.SS_SIZE;
    w32(sa + L.SS_PORT, scn.nodes[s.host].ports[0]); w32(sa + L.SS_PRIO, s.priority);
    w64(sa + L.SS_START, s.start_ps); w64(sa + L.SS_STOP, s.stop_ps); w64(sa + L.SS_INTERVAL, s.interval_ps);
  });

  const init = core.fn<(b: number) => number>(parts > 1 ? 'simSetup' : 'simInit')(base);
  if (init === 1) throw new Error('simulator event queue too small at init');
  if (init === 2) throw new Error('a flow\'s path is longer than the path table\'s rows (sizing bug)');
  let engine: PartitionedEngine | null = null;
  if (pa0) {
    const P = pa0;
    u8.set(owner, base + P.owner);
    let poolLo = 0;
    P.part.forEach((x, w) => {
      const r = base + x.record;
      w32(r + L.PT_PART, w); w32(r + L.PT_NPARTS, parts); w32(r + L.PT_OWNER, base + P.owner);
      w32(r + L.PT_COUNTERS, base + x.counters); w32(r + L.PT_WDLOG, base + x.wdlog);
      w32(r + L.PT_HEAP, base + x.heap); w32(r + L.PT_HEAP_CAP, x.heapCap); w32(r + L.PT_TX_CAP, x.txCap);
      w32(r + L.PT_POOL_LO, poolLo); w32(r + L.PT_POOL_HI, poolLo + poolShare[w]); w32(r + L.PT_RINGS, base + P.ringTable);
      poolLo += poolShare[w];
    });
    P.rings.forEach((ring, pair) => {
      for (let par = 0; par < 2; par++) {
        const rg = base + P.ringTable + (pair * 2 + par) * L.RG_SIZE;
        w32(rg + L.RG_COUNT, 0); w32(rg + L.RG_CAP, ring ? ring.cap : 0); w32(rg + L.RG_ENTRIES, ring ? base + ring.at[par] : 0);
      }
    });
    const pollGroup = new Int32Array(nPorts);
    scn.ports.forEach((p) => { pollGroup[p.id] = i32[(a.ports + p.id * L.SP_SIZE + L.SP_WD_POLL) >>> 2]; });
    engine = new PartitionedEngine(core, parts, plan.lookaheadPs, {
      base, records: P.part.map((x) => base + x.record), counters: P.part.map((x) => base + x.counters), wdlogs: P.part.map((x) => base + x.wdlog),
      ctl: base + P.ctl, runCounters: a.counters, runWdlog: a.wdlog, wdCap: WDLOG_CAP, pollGroup,
    }, L);
  }
  const memAfterInit = core.memoryBytes;
  const runUntil = core.fn<(t: bigint) => number>('simRunUntil');
  const etsMeterSample = core.fn<() => void>('etsMeterSample');
  const pfcPausedPs = core.fn<(rec: number, unit: number, now: bigint) => bigint>('pfcPausedPs');
  const pauseMode = scn.ports.map((p) => scn.nodes[p.node].modes.includes('pause'));
  const portAt = (p: number) => a.ports + p * L.SP_SIZE;
  return {
    core, scn, base, arenaBytes, L, routes, swOrd,
    r32: (at: number) => core.i32[at >>> 2],
    // Two 32-bit halves instead of a BigInt: exact for the counters' range (< 2^53), no allocation.
    r64: (at: number) => { const i = core.i32; const w = at >>> 2; return (i[w] >>> 0) + i[w + 1] * 4294967296; },
    portAt,
    flowAt: (f: number) => a.flows + f * L.SF_SIZE,
    pausedPs: (p: number, now: number, pr: number) =>
      Number(pfcPausedPs(portAt(p) + L.SP_PFC, pauseMode[p] ? L.PFC_PORT_UNIT : pr, BigInt(now))),
    addr: { ports: a.ports, nodes: a.nodes, flows: a.flows, counters: a.counters, wdlog: a.wdlog, paths: a.paths, etsMeter: a.etsMeter },
    pathLen,
    threads: parts, lookaheadPs: plan.lookaheadPs, threadsNote: plan.note,
    close: () => engine?.close(),
    runUntil(tPs: number, sampleEts = false) {
      if (engine) engine.runUntil(tPs, sampleEts);
      else {
        if (runUntil(BigInt(tPs)) !== 0) throw new Error('simulator event queue overflow (sizing bug)');
        if (sampleEts) etsMeterSample();
      }
      if (core.memoryBytes !== memAfterInit) throw new Error('linear memory grew during the run');
    },
  };
}

/**
 * Reaction-point parameters of a flow from its source host's qcn.rp (docs/config.md), which
 * checkScenario gave the fabric's profile; simInit then calls the kernels' configure
 * (host/core/kernels/qcn-rp.ts). Fields of the other profile are 0.
 */
function rpParamsOf(rp: QcnRpConfig, lineBps: number, L: L): RpParams {
  const common = { line_bps: lineBps, bc_bytes: rp.bc_bytes, timer_ps: rp.timer_ps, th: rp.th, ai_bps: rp.ai_bps, hai_bps: rp.hai_bps, min_bps: rp.min_bps };
  if (rp.profile === 'qau-pc') {
    const flags = (rp.extra_fast_recovery ? L.QCN_RP_F_EXTRA_FR : 0) | L.QCN_RP_F_JITTER | L.QCN_RP_F_HALVING;
    return { profile: 'qau-pc', ...common, gd_shift: rp.gd_shift, min_dec_num: rp.min_dec_num, flags, ...NO_DCQCN_FIELDS };
  }
  return { profile: 'dcqcn', ...common, ...dcqcnKernelFields(rp, (name) => L[name]) };
}

/**
 * PFC parameters of a port of `node`: the kernel's mode from the node's per-priority modes (PAUSE
 * when any priority uses it, else PFC when any does), its PFC priorities, and the node's XOFF / XON
 * thresholds with this port's headroom on the flow-controlled units (unit 8 in PAUSE mode, else each
 * PFC priority); the other units take no part.
 */
function pfcParamsOf(node: NormNode, headroom: number, psPerByte: number): PfcParams {
  const mode = node.modes.includes('pause') ? 'pause' : node.modes.includes('pfc') ? 'pfc' : 'off';
  const enable = [0, 1, 2, 3, 4, 5, 6, 7].filter((pr) => node.modes[pr] === 'pfc');
  // A host has no ingress buffer to account, so none of its units takes part.
  const buffer = node.buffer;
  const controlled = buffer === null ? [] : mode === 'pause' ? [PORT_UNIT] : enable;
  const units = Array.from({ length: PORT_UNIT + 1 }, (_, u) => buffer !== null && controlled.includes(u)
    ? { xoff: buffer.xoff, xon: buffer.xon, headroom }
    : PFC_UNIT_OFF);
  return {
    mode, enable, pauseTime: node.dcb.pauseTime, speedBps: 8_000_000_000_000n / BigInt(psPerByte),
    xoff: units.map((x) => x.xoff), xon: units.map((x) => x.xon), headroom: units.map((x) => x.headroom),
  };
}

function hostCreditBytes(p: { bps: number; delay_ps: number; psPerByte: number }, mtu: number): number {
  // One round trip of the link plus two maximum frames, the credit-FC buffer rule (Reinemo et al. 2010).
  return Math.ceil((2 * p.delay_ps) / p.psPerByte) + 2 * (mtu + WIRE_OVERHEAD) + 2 * (CONTROL_FRAME_BYTES + WIRE_OVERHEAD);
}
