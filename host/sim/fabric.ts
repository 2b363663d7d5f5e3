// The fabric engine's tables (assembly/sim/): lays a normalised scenario out as flat records in one
// arena reserved once (header, nodes, ports, flows, packet pool, event heaps, routes, ...), calls
// simInit, and gives the driver zero-copy readers of the tables. buildFabric runs named phases one
// way down: the partitioning and the routes are computed once, the arena is planned from them
// (fabric-plan.ts: sizes are fixed there so a run never allocates), then each phase writes its own
// records: the header, nodes and ports, traffic, route tables, the kernels' parameters from each
// node's config (fabric-params.ts), and after simInit the partitions.
import { WIRE_OVERHEAD } from '../core/codes.js';
import { Core } from '../core/loader.js';
import type { Scenario } from '../scenario/scenario.js';
import { losslessPgs } from '../scenario/scenario.js';
import { layRoutes, planRoutes, type RoutePlan, type Routes } from './routes.js';
import { partitionFabric, type Partitioning } from './partition.js';
import { PartitionedEngine, type PartitionAreas } from './parallel.js';
import { etsWeightedMask } from './sample.js';
import { RECORD_CHUNKS, recordChunk } from './windows.js';
import { planArena, WDLOG_CAP, type ArenaLayout, type ArenaPlan, type CaptureLayout, type L, type PartitionOffsets, type TableOffsets } from './fabric-plan.js';
import { layoutConstants } from './layout-constants.js';
import { arenaWriter, fabricCredit, writeFlowKernels, writePortKernels, type ArenaWriter } from './fabric-params.js';

export { WDLOG_CAP, type ArenaPlan, type CaptureLayout, type L } from './fabric-plan.js';

/**
 * Whether any of `units` PFC units from `unit` on, of the PFC record at byte `rec`, has obeyed an
 * XOFF: a unit's paused time accrues only from then (assembly/pfc.ts restartPause counts each obeyed
 * XOFF in PFC_XOFF_RX, an i64 per unit), so a unit that obeyed none has paused for zero time. The
 * one statement of that rule for the paused-time readers (pausedPs here, the summary's port pass).
 */
export function obeyedXoff(i32: Int32Array, L: L, rec: number, unit: number, units: number): boolean {
  let words = 0;
  for (let w = (rec + L.PFC_XOFF_RX + 8 * unit) >>> 2, end = w + 2 * units; w < end; w++) words |= i32[w];
  return words !== 0;
}

/**
 * Every exported layout constant as a plain object, read once: the driver reads these on every
 * sample, and a lookup through the module's exports each time cost more than the reads themselves.
 * The values come from the module the build generates from the core (scripts/layout-h.mjs): one
 * object literal with fast properties, about 0.3 ms where reading the core's 435 globals and
 * defining them one by one took 3.5 ms of every run. The static regions' addresses, which differ
 * between the core's flavours, and a name the core does not export fall through to the prototype,
 * a proxy that asks this core and so fails with the name (a proxy around the whole object cost a
 * trap per read: 0.15 s of a k = 28 fat tree's set-up).
 */
function layout(core: Core): L {
  return layoutConstants(new Proxy({}, { get: (_t, k: string | symbol) => (typeof k === 'string' ? core.constant(k) : undefined) }));
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
 *
 * One way down, each phase reading the scenario and what the phases before it returned, and writing
 * its own tables: partitions (partition.ts: the owner of each port; their threads start) -> routes (routes.ts: ordinals,
 * forwarding tables, path length) -> arena plan (fabric-plan.ts: sizes and offsets; `admit`) ->
 * header -> nodes -> traffic (flows, storms) -> route tables -> flows' kernel parameters -> ports
 * and their kernel parameters (fabric-params.ts), partition 0's last -> simInit -> partition
 * records and threads -> the driver's readers.
 */
export function buildFabric(scn: Scenario, flavour: 'release' | 'debug' = 'release', threads = 1, capture?: CaptureLayout, admit?: (plan: ArenaPlan) => void): Fabric {
  const split = partitionFabric(scn, threads);
  const core = split.parts > 1 ? new Core('shared') : new Core(flavour);
  const L = layout(core);
  // The partitions' threads start first and wait for the arena: their start-up overlaps the set-up.
  const engine = split.parts > 1 ? new PartitionedEngine(core, split.parts, split.lookaheadPs, L) : null;
  try {
    const routing = planRoutes(scn);
    const arena = planArena(scn, routing, split, L, capture);
    // Refused runs stop here, before the arena is reserved.
    admit?.(arena.plan);
    const base = core.fn<(b: number) => number>('simReserve')(arena.plan.arenaBytes);
    if (base === 0) throw new Error(`cannot reserve ${arena.plan.arenaBytes} bytes for the simulator arena`);
    core.fixSize();
    const a = Object.fromEntries(Object.entries(arena.tables).map(([k, v]) => [k, base + v])) as TableOffsets;
    // Each worker first writes the pages of its own port records and then of partition 0's from the
    // end (parallel.ts claimRecords): the main thread writes the ports last, after everything else.
    if (engine) {
      core.u8.set(split.owner, base + arena.partitions!.owner);
      engine.attach(partitionAreas(scn, base, a, arena.partitions!));
    }
    const portsOf = Array.from({ length: split.parts }, () => [] as Scenario['ports']);
    for (const p of scn.ports) portsOf[split.owner[p.id]].push(p);
    const w = arenaWriter(core);
    writeHeader(w, L, scn, arena, a, routing, capture);
    writeNodes(w, L, scn, a, routing);
    writeTraffic(w, L, scn, a, routing);
    const routes = layRoutes(routing.routes, core.i32, a.route >>> 2);
    core.i32.set(routing.routes.nhWords, a.nh >>> 2);
    writeFlowKernels(w, L, scn, a.flows);
    for (let part = 1; part <= split.parts; part++) {
      const own = portsOf[part % split.parts]; // partition 0 last
      for (let c = 0; c < RECORD_CHUNKS; c++) {
        engine?.claimRecords(part % split.parts, c);
        const ports = recordChunk(own, c);
        writePortRecords(w, L, scn, a, ports, split.owner, capture);
        writePortKernels(w, L, scn, a, arena.kernelSlots, arena.wdPolls, ports);
      }
    }
    const init = core.fn<(b: number) => number>(split.parts > 1 ? 'simSetup' : 'simInit')(base);
    if (init === 1) throw new Error('simulator event queue too small at init');
    if (init === 2) throw new Error('a flow\'s path is longer than the path table\'s rows (sizing bug)');
    if (engine) startPartitions(w, L, scn, base, a, arena, split, engine);
    return fabricReaders(core, L, scn, base, a, arena.plan.arenaBytes, routing, routes, split, engine);
  } catch (e) {
    engine?.abandon();
    throw e;
  }
}

/**
 * The arena plan of a run of `scn` on `threads` threads (what buildFabric's `admit` sees), reserving
 * nothing and starting no thread.
 */
export function planFabric(scn: Scenario, threads = 1, capture?: CaptureLayout): ArenaPlan {
  const split = partitionFabric(scn, threads);
  const L = layout(new Core(split.parts > 1 ? 'shared' : 'release'));
  return planArena(scn, planRoutes(scn), split, L, capture).plan;
}

/** Header: table addresses and counts, and the fabric-wide parameters. */
function writeHeader(w: ArenaWriter, L: L, scn: Scenario, arena: ArenaLayout, a: TableOffsets, routing: RoutePlan, capture?: CaptureLayout): void {
  const { w32, w64 } = w;
  const h = a.hdr;
  const parts = arena.plan.parts;
  w32(h + L.SH_NPORTS, scn.ports.length); w32(h + L.SH_NNODES, scn.nodes.length); w32(h + L.SH_NFLOWS, scn.flows.length);
  w32(h + L.SH_NHOSTS, routing.routes.columns);
  w32(h + L.SH_POOL_CAP, arena.poolCap); w32(h + L.SH_HEAP_CAP, arena.heapCap);
  w32(h + L.SH_PORTS, a.ports); w32(h + L.SH_NODES, a.nodes); w32(h + L.SH_FLOWS, a.flows); w32(h + L.SH_POOL, a.pool);
  w32(h + L.SH_HEAP, a.heap); w32(h + L.SH_ROUTE, a.route); w32(h + L.SH_NH, a.nh); w32(h + L.SH_MIX, a.mix);
  w32(h + L.SH_PATHS, a.paths); w32(h + L.SH_PATH_LEN, routing.pathLen); w32(h + L.SH_REV_PATHS, arena.revPaths ? 1 : 0);
  w32(h + L.SH_COUNTERS, a.counters); w32(h + L.SH_WDLOG, a.wdlog); w32(h + L.SH_WDLOG_CAP, WDLOG_CAP);
  w32(h + L.SH_STORMS, a.storms); w32(h + L.SH_NSTORMS, scn.storms.length);
  w32(h + L.SH_QCN_MASK, scn.qcn.enable ? scn.qcn.priorities.reduce((m, p) => m | (1 << p), 0) : 0);
  w32(h + L.SH_SEED, scn.seed >>> 0); w32(h + L.SH_HOSTQ, scn.hostQueue);
  // simInit configures every port's ETS record (etsConfigure) for the fabric's largest frame.
  w32(h + L.SH_MAX_FRAME, scn.maxFrame);
  w64(h + L.SH_CREDIT_AGING, fabricCredit(scn).agingPs); // the period of the re-grant events
  w32(h + L.SH_QCN_PROFILE, scn.qcn.profile === 'dcqcn' ? 1 : 0);
  w32(h + L.SH_WD_POLLS, a.wdPolls); w32(h + L.SH_NWD_POLLS, arena.wdPolls.length);
  arena.wdPolls.forEach((ps, g) => w64(a.wdPolls + 8 * g, ps));
  // ETS share meter (assembly/sim/ets_meter.ts): the measured ports and their weighted TCs.
  w32(h + L.SH_ETS_METER, a.etsMeter); w32(h + L.SH_NETS_METER, arena.etsPorts.length); w32(h + L.SH_ETS_MIN_BYTES, 8 * (scn.maxFrame + WIRE_OVERHEAD));
  arena.etsPorts.forEach((p, i) => { w32(a.etsMeter + i * L.EM_SIZE + L.EM_PORT, p.id); w32(a.etsMeter + i * L.EM_SIZE + L.EM_WEIGHTED, etsWeightedMask(p)); });
  if (capture) {
    w32(h + L.SH_CAPTURE, a.capture);
    for (let r = 0; r < parts; r++) {
      const ring = a.capture + r * L.CG_SIZE;
      w32(ring + L.CG_CAP, capture.ringRecords); w32(ring + L.CG_RECORDS, a.capture + parts * L.CG_SIZE + r * capture.ringRecords * L.CR_SIZE);
    }
  }
}

/** Nodes: kind, ordinal and shared buffer of each. */
function writeNodes(w: ArenaWriter, L: L, scn: Scenario, a: TableOffsets, routing: RoutePlan): void {
  const { w32 } = w;
  for (const n of scn.nodes) {
    const na = a.nodes + n.id * L.SN_SIZE;
    w32(na + L.SN_KIND, n.isHost ? 0 : 1);
    w32(na + L.SN_ORD, n.isHost ? routing.hostOrd.get(n.id)! : routing.swOrd.get(n.id)!);
    if (n.buffer) {
      const lossless = losslessPgs(n.modes);
      const reserved = lossless > 0 ? n.buffer.headroom.reduce((x, y) => x + y, 0) * lossless : 0;
      w32(na + L.SN_SHARED_SIZE, Math.max(0, n.buffer.size - reserved));
      w32(na + L.SN_LOSSY_Q, n.buffer.lossyQueue);
    }
  }
}

/** The records of `ports`: each port's link, timing and flags. */
function writePortRecords(w: ArenaWriter, L: L, scn: Scenario, a: TableOffsets, ports: Scenario['ports'], owner: Uint8Array, capture?: CaptureLayout): void {
  const { w32, w64 } = w;
  const captured = new Set(capture?.ports ?? []);
  for (const p of ports) {
    const pa = a.ports + p.id * L.SP_SIZE;
    w32(pa + L.SP_NODE, p.node); w32(pa + L.SP_PEER, p.peer); w32(pa + L.SP_PPB, p.psPerByte);
    w32(pa + L.SP_FLAGS, (scn.nodes[p.node].isHost ? 1 : 0) | (owner[p.peer] !== owner[p.id] ? L.SP_FLAG_REMOTE_PEER : 0) | (captured.has(p.id) ? L.SP_FLAG_CAPTURE : 0));
    w64(pa + L.SP_DELAY, p.delay_ps);
    // Timing (assembly/sim/timing.ts): this port's clock range; the latency of the switch it sends into.
    const into = scn.nodes[p.peerNode];
    w32(pa + L.SP_CLOCK_RANGE, scn.timing.clockPpb); w32(pa + L.SP_FWD_LAT, into.latency_ps); w32(pa + L.SP_FWD_JITTER, into.latency_jitter_ps);
  }
}

/** Traffic: each flow's source, destination, frames, arrival process and transport; the storm sources. */
function writeTraffic(w: ArenaWriter, L: L, scn: Scenario, a: TableOffsets, routing: RoutePlan): void {
  const { w32, w64 } = w;
  // The core's seeding rule (assembly/rng.ts, docs/design.md §2) for the traffic sources the host writes.
  const rngSeed = w.core.fn<(seed: number, id: number) => number>('rng_seed_value');
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
    w32(fa + L.SF_DST_ORD, routing.routes.flowColumn[f.id]); w32(fa + L.SF_SRC_ORD, routing.hostOrd.get(f.src)!);
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
  }
  scn.storms.forEach((s, i) => {
    const sa = a.storms + i * L.SS_SIZE;
    w32(sa + L.SS_PORT, scn.nodes[s.host].ports[0]); w32(sa + L.SS_PRIO, s.priority);
    w64(sa + L.SS_START, s.start_ps); w64(sa + L.SS_STOP, s.stop_ps); w64(sa + L.SS_INTERVAL, s.interval_ps);
  });
}

/** The addresses the partitions' threads work on (parallel.ts). */
function partitionAreas(scn: Scenario, base: number, a: TableOffsets, P: PartitionOffsets): PartitionAreas {
  return {
    base, ports: a.ports, nPorts: scn.ports.length, owner: base + P.owner,
    records: P.part.map((x) => base + x.record), counters: P.part.map((x) => base + x.counters), wdlogs: P.part.map((x) => base + x.wdlog),
    ctl: base + P.ctl, runCounters: a.counters, runWdlog: a.wdlog, wdCap: WDLOG_CAP,
  };
}

/**
 * Partitions, after simSetup: the owner table, each partition's record (its counters, watchdog log,
 * heap, packet records), the rings between partitions; then the worker threads attach (parallel.ts).
 */
function startPartitions(w: ArenaWriter, L: L, scn: Scenario, base: number, a: TableOffsets, arena: ArenaLayout, split: Partitioning, engine: PartitionedEngine): void {
  const { core, w32 } = w;
  const P = arena.partitions!;
  const parts = split.parts;
  let poolLo = 0;
  P.part.forEach((x, part) => {
    const r = base + x.record;
    w32(r + L.PT_PART, part); w32(r + L.PT_NPARTS, parts); w32(r + L.PT_OWNER, base + P.owner);
    w32(r + L.PT_COUNTERS, base + x.counters); w32(r + L.PT_WDLOG, base + x.wdlog);
    w32(r + L.PT_HEAP, base + x.heap); w32(r + L.PT_HEAP_CAP, x.heapCap); w32(r + L.PT_TX_CAP, x.txCap);
    w32(r + L.PT_POOL_LO, poolLo); w32(r + L.PT_POOL_HI, poolLo + arena.poolShare[part]); w32(r + L.PT_RINGS, base + P.ringTable);
    poolLo += arena.poolShare[part];
  });
  P.rings.forEach((ring, pair) => {
    for (let par = 0; par < 2; par++) {
      const rg = base + P.ringTable + (pair * 2 + par) * L.RG_SIZE;
      w32(rg + L.RG_COUNT, 0); w32(rg + L.RG_CAP, ring ? ring.cap : 0); w32(rg + L.RG_ENTRIES, ring ? base + ring.at[par] : 0);
    }
  });
  const i32 = core.i32;
  const pollGroup = new Int32Array(scn.ports.length);
  scn.ports.forEach((p) => { pollGroup[p.id] = i32[(a.ports + p.id * L.SP_SIZE + L.SP_WD_POLL) >>> 2]; });
  engine.start(pollGroup);
}

/** The driver's view: zero-copy readers of the tables, and the run loop on one thread or several. */
function fabricReaders(core: Core, L: L, scn: Scenario, base: number, a: TableOffsets, arenaBytes: number, routing: RoutePlan, routes: Routes, split: Partitioning,
  engine: PartitionedEngine | null): Fabric {
  const memAfterInit = core.memoryBytes;
  const runUntil = core.fn<(t: bigint) => number>('simRunUntil');
  const etsMeterSample = core.fn<() => void>('etsMeterSample');
  const pfcPausedPs = core.fn<(rec: number, unit: number, now: bigint) => bigint>('pfcPausedPs');
  const pauseMode = scn.ports.map((p) => scn.nodes[p.node].modes.includes('pause'));
  const portAt = (p: number) => a.ports + p * L.SP_SIZE;
  const { SP_PFC, PFC_PORT_UNIT } = L;
  return {
    core, scn, base, arenaBytes, L, routes, swOrd: routing.swOrd,
    r32: (at: number) => core.i32[at >>> 2],
    // Two 32-bit halves instead of a BigInt: exact for the counters' range (< 2^53), no allocation.
    r64: (at: number) => { const i = core.i32; const w = at >>> 2; return (i[w] >>> 0) + i[w + 1] * 4294967296; },
    portAt,
    flowAt: (f: number) => a.flows + f * L.SF_SIZE,
    pausedPs: (p: number, now: number, pr: number) => {
      const rec = portAt(p) + SP_PFC;
      const unit = pauseMode[p] ? PFC_PORT_UNIT : pr;
      // Zero until the unit obeys an XOFF, read without a call into the core and a BigInt each way
      // (a sampled port is asked once per interval and priority).
      if (!obeyedXoff(core.i32, L, rec, unit, 1)) return 0;
      return Number(pfcPausedPs(rec, unit, BigInt(now)));
    },
    addr: { ports: a.ports, nodes: a.nodes, flows: a.flows, counters: a.counters, wdlog: a.wdlog, paths: a.paths, etsMeter: a.etsMeter },
    pathLen: routing.pathLen,
    threads: split.parts, lookaheadPs: split.lookaheadPs, threadsNote: split.note,
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
