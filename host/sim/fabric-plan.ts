// The fabric engine's arena plan (assembly/sim/): how many records of each table a scenario needs
// and where each table starts, decided before anything is reserved, so the memory budget can refuse
// a run first and a run never allocates afterwards.
//
// Reads: the scenario, its routes (routes.ts: the forwarding tables' size and the path table's row
// length), its partitioning (partition.ts) and the core's record sizes. Writes nothing: returns the
// tables' offsets from the arena's start, each 64-byte aligned, in the order the arena holds them.
//
// The packet pool holds everything the switch buffers and NIC queues can hold, frames in flight on
// every link, plus control frames; a switch's share is at most what its links can deliver in the
// run's duration (a short run's buffers cannot fill); a partitioned run gives each partition the records its own part
// of that needs (its ports, its switches' buffers and host queues, the frames in flight toward its
// ports). Each event heap holds, per flow, its FLOW, RP timer and RTO events plus FLOW events a rate
// change left stale; beside the heaps, the FIFO of in-order arrivals (SIM_ARR_FIFO_MAX at most).
import { WIRE_OVERHEAD } from '../core/codes.js';
import type { Scenario } from '../scenario/scenario.js';
import type { Partitioning } from './partition.js';
import { smallestFrameTime } from './partition.js';
import type { RoutePlan } from './routes.js';
import { etsMeasuredPorts } from './sample.js';
import { portKernelSlots, type PortKernelSlots } from './fabric-params.js';
import { controlBytes } from './windows.js';

/** Watchdog log entries the arena holds (summary.ts reads at most this many). */
export const WDLOG_CAP = 4096;
const POOL_MAX = 4_000_000;

/** Layout constant names read from the core (assembly/sim/layout.ts). */
export type L = Record<string, number>;

/** Ports whose departures the engine records, and the records each partition's ring holds (host/sim/capture.ts). */
export interface CaptureLayout {
  ports: readonly number[];
  ringRecords: number;
}

/** The arena's size and its two big tables, known before it is reserved (the memory budget reads it). */
export interface ArenaPlan {
  arenaBytes: number;
  /** Packet records and their size; event-heap entries (16 bytes each); partitions. */
  poolRecords: number;
  recordBytes: number;
  heapEntries: number;
  parts: number;
}

/** Offsets of the serial engine's tables from the arena's start. */
export interface TableOffsets {
  hdr: number; nodes: number; ports: number; credits: number; cps: number; flows: number; pool: number; heap: number; route: number; nh: number;
  paths: number; mix: number; wdPolls: number; counters: number; wdlog: number; storms: number; etsMeter: number; capture: number;
}

/** A partition's own tables; the rings between two partitions (null where no link is cut). */
export interface PartitionOffsets {
  owner: number;
  part: { record: number; counters: number; wdlog: number; heap: number; heapCap: number; txCap: number }[];
  ringTable: number;
  rings: ({ cap: number; at: number[] } | null)[];
  ctl: number;
}

export interface ArenaLayout {
  plan: ArenaPlan;
  tables: TableOffsets;
  /** Partitioned runs only. */
  partitions: PartitionOffsets | null;
  poolCap: number;
  /** Packet records of each partition (one entry on one thread). */
  poolShare: number[];
  /** The serial engine's heap entries (0 when partitioned: each partition has its own). */
  heapCap: number;
  /** ACKs travel their flow's path back: a second path row per flow. */
  revPaths: boolean;
  /** The distinct watchdog poll intervals: one poll event each (usually one for the whole fabric). */
  wdPolls: number[];
  etsPorts: Scenario['ports'];
  /** Each port's slot in the credit and congestion-point tables (tables.credits, tables.cps). */
  kernelSlots: PortKernelSlots;
}

const heapCapOf = (pool: number, ports: number, flows: number, storms: number, fifoMax: number) =>
  pool + Math.min(pool, fifoMax) + ports * 16 + flows * 8 + storms + 64;
/** The arrival FIFO's bound; 0 for a core built before it (bench/engine-ab.ts runs older builds beside this one). */
const arrivalFifoMax = (L: L) => (Object.hasOwn(L, 'SIM_ARR_FIFO_MAX') ? L.SIM_ARR_FIFO_MAX : 0);

/** Packet records of each partition, scaled down together when the total passes POOL_MAX. */
function poolShares(scn: Scenario, split: Partitioning): { poolShare: number[]; poolCap: number } {
  const { parts, owner } = split;
  const minWire = scn.minFrame + WIRE_OVERHEAD;
  const poolShare = new Array<number>(parts).fill(1024);
  const partOfNode = (n: { ports: number[] }) => (n.ports.length ? owner[n.ports[0]] : 0);
  for (const p of scn.ports) poolShare[owner[p.id]] += 64;
  for (const n of scn.nodes) if (n.buffer) poolShare[partOfNode(n)] += Math.min(bufferRecords(n.buffer, scn.minFrame), arrivalsWithin(scn, n.ports));
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
  return { poolShare, poolCap };
}

/** Packet records a switch's full buffer holds: the shared buffer and each priority group's headroom, in data frames. */
function bufferRecords(buffer: NonNullable<Scenario['nodes'][number]['buffer']>, minFrame: number): number {
  return Math.ceil((buffer.size + buffer.headroom.reduce((a, b) => a + b, 0) * 8) / minFrame);
}

/**
 * Frames the links into `ports` can deliver over the whole run: every frame a switch holds arrived
 * during the run, at most one smallest frame per wire time on each link (the run's end included).
 * A short run's switches hold far fewer frames than their buffers could (a 1-us k = 8 tree: 0.1 M
 * against 1.1 M records), and the smaller arena spares V8 the full collection it starts when the
 * memory grows by tens of MB.
 */
function arrivalsWithin(scn: Scenario, ports: readonly number[]): number {
  let n = 0;
  for (const p of ports) n += Math.floor(scn.duration_ps / smallestFrameTime(scn, scn.ports[p].peer)) + 1;
  return n;
}

/** Sizes and places every table of the run's arena (see the file's header). */
export function planArena(scn: Scenario, routing: RoutePlan, split: Partitioning, L: L, capture?: CaptureLayout): ArenaLayout {
  const { parts } = split;
  const nPorts = scn.ports.length;
  const nFlows = scn.flows.length;
  const { poolShare, poolCap } = poolShares(scn, split);
  const heapCap = parts > 1 ? 0 : heapCapOf(poolCap, nPorts, nFlows, scn.storms.length, arrivalFifoMax(L));
  const revPaths = scn.flows.some((f) => f.transport === 'roce');
  const pathRows = revPaths ? 2 * nFlows : nFlows;
  const mixEntries = scn.flows.reduce((a, f) => a + f.frames.mix.length, 0);
  const etsPorts = etsMeasuredPorts(scn);
  const wdPolls = [...new Set(scn.nodes.filter((n) => !n.isHost && n.watchdog).map((n) => n.watchdog!.poll_interval))].filter((x) => x > 0);
  const kernelSlots = portKernelSlots(scn);

  let off = 0;
  const take = (bytes: number) => { const at = off; off += Math.ceil(bytes / 64) * 64; return at; };
  const tables: TableOffsets = {
    hdr: take(L.SH_SIZE), nodes: take(scn.nodes.length * L.SN_SIZE), ports: take(nPorts * L.SP_SIZE),
    credits: take(kernelSlots.credits * L.SP_CREDIT_TABLE), cps: take(kernelSlots.cps * L.SP_CP_TABLE), flows: take(nFlows * L.SF_SIZE),
    pool: take(poolCap * L.SK_SIZE), heap: take(heapCap * 16), route: take(routing.swOrd.size * routing.routes.columns * 4), nh: take(routing.routes.nhWords.length * 4),
    paths: take(pathRows * routing.pathLen * 4 + 4), mix: take(mixEntries * 8 + 8), wdPolls: take(wdPolls.length * 8 + 8), counters: take(L.SC_SIZE), wdlog: take(WDLOG_CAP * L.SW_SIZE), storms: take(scn.storms.length * L.SS_SIZE + 8),
    etsMeter: take(etsPorts.length * L.EM_SIZE + 8),
    // Packet capture (assembly/sim/capture.ts): one ring per partition, records after the headers.
    capture: take(capture ? parts * (L.CG_SIZE + capture.ringRecords * L.CR_SIZE) : 8),
  };
  // Partitioned: the owner table, each partition's record, counters, watchdog log and heaps, the
  // rings between partitions (each holds what one window can send: a frame per smallest-frame time
  // of every cut port, plus one) and the window loop's control block.
  let partitions: PartitionOffsets | null = null;
  if (parts > 1) {
    const { owner } = split;
    const own = (w: number) => scn.ports.filter((p) => owner[p.id] === w).length;
    const flowsOf = (w: number) => scn.flows.filter((f) => owner[scn.nodes[f.src].ports[0]] === w).length;
    const stormsOf = (w: number) => scn.storms.filter((x) => owner[scn.nodes[x.host].ports[0]] === w).length;
    const ringCap = new Array<number>(parts * parts).fill(0);
    for (const p of scn.ports) {
      const from = owner[p.id], to = owner[p.peer];
      if (from !== to) ringCap[from * parts + to] += Math.floor(split.lookaheadPs / smallestFrameTime(scn, p.id)) + 2;
    }
    const part = Array.from({ length: parts }, (_, w) => {
      const cap = heapCapOf(poolShare[w], own(w), flowsOf(w), stormsOf(w), arrivalFifoMax(L)) + wdPolls.length;
      return { record: take(L.PT_SIZE), counters: take(L.SC_SIZE), wdlog: take(WDLOG_CAP * L.SW_SIZE), heap: take(cap * 16), heapCap: cap, txCap: own(w) + 1 };
    });
    const ringTable = take(parts * parts * 2 * L.RG_SIZE);
    const rings = ringCap.map((cap) => (cap > 0 ? { cap, at: [take(cap * L.RG_ENTRY), take(cap * L.RG_ENTRY)] } : null));
    partitions = { owner: take(nPorts), part, ringTable, rings, ctl: take(controlBytes(parts)) };
  }
  const heapEntries = partitions ? partitions.part.reduce((n, x) => n + x.heapCap, 0) : heapCap;
  return {
    plan: { arenaBytes: off, poolRecords: poolCap, recordBytes: L.SK_SIZE, heapEntries, parts },
    tables, partitions, poolCap, poolShare, heapCap, revPaths, wdPolls, etsPorts, kernelSlots,
  };
}
