// The main thread's side of a partitioned run (docs/sim.md, "One run on every core"): starts one
// worker thread per partition but the first (partition-worker.ts) as soon as the fabric is
// partitioned, before its routes are computed and its memory reserved, so their start-up overlaps
// the set-up; gives them the arena's addresses once it is reserved (attach: each then writes its
// own port records' pages first), lets them attach once the tables are written (start), runs
// partition 0 itself, and after each batch gathers what the partitions kept apart into the tables
// the driver reads: the counters (sums; the time reached) and the watchdog log (merged in the
// serial engine's order).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MessagePort, Worker } from 'node:worker_threads';
import { Core, coreModule, packageRoot } from '../core/loader.js';
import type { PartitionArena, PartitionWorkerData } from './partition-worker.js';
import { ABORT_HEAP, ABORT_RING, ABORT_WORKER, MAILBOX_ABANDONED, MAILBOX_POSTED, WindowLoop, type PartitionCore } from './windows.js';

/**
 * node:worker_threads, loaded by the first partitioned run (engines: Node >= 20.19 has
 * getBuiltinModule): a run on one thread, the common short one, does not pay its load.
 */
const workerThreads = () => process.getBuiltinModule('node:worker_threads');

/** The compiled worker (tsc's output: the CLI bundle and the tests both start this file). */
export function partitionWorkerFile(): string {
  return join(packageRoot(), 'dist', 'host', 'sim', 'partition-worker.js');
}

export interface PartitionAreas {
  base: number;
  /** The port records (L.SP_SIZE bytes each) and the owner table (a byte per port, written before the workers start). */
  ports: number;
  nPorts: number;
  owner: number;
  /** Address of each partition's PT_ record. */
  records: number[];
  /** Each partition's counters (SC_SIZE) and watchdog log (wdCap entries of SW_SIZE). */
  counters: number[];
  wdlogs: number[];
  ctl: number;
  /** The tables the driver reads: the whole run's counters and watchdog log. */
  runCounters: number;
  runWdlog: number;
  wdCap: number;
}

export class PartitionedEngine {
  private loop?: WindowLoop;
  private a?: PartitionAreas;
  private readonly workers: Worker[] = [];
  private readonly errors: MessagePort[] = [];
  /** Where each worker gets the arena's addresses, and the word that says they were sent (or the run given up). */
  private readonly arenaPorts: MessagePort[] = [];
  private readonly mailbox = new Int32Array(new SharedArrayBuffer(4));
  private readonly spins: number;
  private core0?: PartitionCore;
  /** Each port's watchdog poll group (the serial log's order within one instant), read at start. */
  private pollGroup: Int32Array = new Int32Array(0);
  private closed = false;

  /** Starts the workers; they make their core instance and wait for attach(). */
  constructor(private readonly core: Core, readonly parts: number, readonly lookaheadPs: number, private readonly L: Record<string, number>) {
    // Spin at barriers only when every thread can have a core of its own.
    this.spins = parts <= availableParallelism() ? 1 : 0;
    const file = partitionWorkerFile();
    if (!existsSync(file)) throw new Error(`${file} is missing: build dcbkit (npm run build) to run on several threads`);
    const { MessageChannel, Worker } = workerThreads();
    for (let w = 1; w < parts; w++) {
      const errors = new MessageChannel();
      const arena = new MessageChannel();
      const data: PartitionWorkerData = {
        memory: core.exports.memory, module: coreModule('shared'), parts, part: w, lookaheadPs, spins: this.spins,
        mailbox: this.mailbox.buffer as SharedArrayBuffer, arena: arena.port2, errors: errors.port2,
      };
      const worker = new Worker(new URL(pathToFileURL(file).href), { workerData: data, transferList: [errors.port2, arena.port2] });
      worker.unref();
      this.workers.push(worker);
      this.errors.push(errors.port1);
      this.arenaPorts.push(arena.port1);
    }
  }

  /**
   * The arena is reserved and its owner table written: each worker gets its addresses, and first
   * writes the pages of its own port records (claimRecords) while this thread writes the rest.
   */
  attach(a: PartitionAreas): void {
    this.a = a;
    const buffer = this.core.exports.memory.buffer as unknown as SharedArrayBuffer;
    this.loop = new WindowLoop(buffer, a.ctl, this.parts, 0, this.lookaheadPs, this.spins);
    this.arenaPorts.forEach((port, i) => {
      const arena: PartitionArena = { base: a.base, record: a.records[i + 1], ctl: a.ctl, portRecords: { at: a.ports, size: this.L.SP_SIZE, count: a.nPorts, owner: a.owner } };
      port.postMessage(arena);
      port.close();
    });
    Atomics.store(this.mailbox, 0, MAILBOX_POSTED);
    Atomics.notify(this.mailbox, 0);
  }

  /**
   * The tables and the partitions' records are written: every partition seeds its events (this
   * thread partition 0), and the run can start once all are ready. `pollGroup`: each port's
   * watchdog poll group.
   */
  start(pollGroup: Int32Array): void {
    this.pollGroup = pollGroup;
    this.loop!.tablesWritten();
    const { core } = this;
    if (core.fn<(r: number) => number>('simStartPartition')(this.a!.records[0]) !== 0) {
      this.abandon();
      throw new Error('partition 0: event heap too small at start (sizing bug)');
    }
    this.core0 = {
      runWindow: core.fn('simRunWindow'),
      windowMin: core.fn('simWindowMin'),
      drain: core.fn('simDrain'),
      batchEnd: core.fn('simBatchEnd'),
      etsSample: core.fn('etsMeterSample'),
      eventsRun: core.fn('simEventsRun'),
    };
    if (!this.loop!.waitReady(this.parts - 1, 60_000)) this.fail();
  }

  /**
   * Before the main thread writes chunk `chunk` of partition `part`'s port records: a worker has
   * written their pages first (the page faults on its thread), or none had begun and the main
   * thread writes them alone (windows.ts claimRecords).
   */
  claimRecords(part: number, chunk: number): void {
    if (!this.loop!.claimRecords(part, chunk)) this.fail();
  }

  /** Gives the run up before start() (the set-up failed): the workers exit without attaching. */
  abandon(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.loop) this.loop.abort(ABORT_WORKER);
    else {
      Atomics.store(this.mailbox, 0, MAILBOX_ABANDONED);
      Atomics.notify(this.mailbox, 0);
      for (const p of this.arenaPorts) p.close();
    }
    for (const e of this.errors) e.close();
  }

  /** Runs every partition through `until` ps (then each samples ETS shares if asked), then gathers counters and watchdog log. */
  runUntil(until: number, sampleEts: boolean): void {
    const loop = this.loop!;
    loop.startBatch(until, sampleEts);
    if (!this.core0 || !loop.runBatch(this.core0, until, sampleEts)) this.fail();
    this.gather();
  }

  /** Stops the workers (they exit once they see it). */
  close(): void {
    if (this.closed) return;
    if (!this.loop) return this.abandon();
    this.closed = true;
    this.loop.writeProfile();
    this.loop.stop();
    this.loop.awaitProfiles(10_000);
    for (const e of this.errors) e.close();
  }

  private fail(): never {
    const code = this.loop!.aborted();
    const { receiveMessageOnPort } = workerThreads();
    const said = this.errors.map((p) => receiveMessageOnPort(p)?.message).filter((m) => m !== undefined);
    this.close();
    if (code & ABORT_HEAP) throw new Error('simulator event queue overflow (sizing bug)');
    if (code & ABORT_RING) throw new Error('a partition ring overflowed (sizing bug)');
    if (code & ABORT_WORKER || said.length) throw new Error(`a partition worker failed: ${said.join('; ') || 'no message'}`);
    throw new Error('partition workers did not start');
  }

  /**
   * Counters: each is the sum over partitions (the time reached is the same in all). Watchdog log:
   * the serial engine logs in (time, poll group, port, priority) order, each partition in that
   * order over its own ports, so a merge by that key gives the serial log (its first wdCap entries).
   */
  private gather(): void {
    const { L } = this;
    const a = this.a!;
    const i64 = this.core.i64;
    for (let f = 0; f < L.SC_SIZE; f += 8) {
      let sum = 0n;
      for (const c of a.counters) sum += i64[(c + f) >>> 3];
      i64[(a.runCounters + f) >>> 3] = f === L.SC_NOW ? i64[(a.counters[0] + f) >>> 3] : sum;
    }
    const total = Number(i64[(a.runCounters + L.SC_WD_EVENTS) >>> 3]);
    if (total === 0) return;
    const i32 = this.core.i32;
    const entries: { t: bigint; group: number; port: number; word: number }[] = [];
    a.wdlogs.forEach((log, w) => {
      const n = Math.min(a.wdCap, Number(i64[(a.counters[w] + L.SC_WD_EVENTS) >>> 3]));
      for (let i = 0; i < n; i++) {
        const at = log + i * L.SW_SIZE;
        const port = i32[(at + 8) >>> 2];
        entries.push({ t: i64[at >>> 3], group: this.pollGroup[port], port, word: i32[(at + 12) >>> 2] });
      }
    });
    entries.sort((x, y) => (x.t < y.t ? -1 : x.t > y.t ? 1 : x.group - y.group || x.port - y.port || (x.word & 0xff) - (y.word & 0xff)));
    entries.slice(0, a.wdCap).forEach((e, i) => {
      const at = a.runWdlog + i * L.SW_SIZE;
      i64[at >>> 3] = e.t;
      i32[(at + 8) >>> 2] = e.port;
      i32[(at + 12) >>> 2] = e.word;
    });
  }
}
