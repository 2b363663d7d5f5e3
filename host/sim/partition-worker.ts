// A worker thread of a partitioned run (host/sim/parallel.ts): its own instance of the shared core
// over the run's one memory, running one partition's events window by window (windows.ts) for
// every batch the main thread starts, until told to stop. It is started as soon as the run's
// memory is reserved, so its start-up overlaps the main thread's writing of the tables; it attaches
// once told they are written; meanwhile it writes the pages of its partition's port records first,
// so that their page faults are its own and not the main thread's. An error goes back to the main thread through `errors` (it reads it
// synchronously) and aborts the run.
import { workerData, type MessagePort } from 'node:worker_threads';
import { Core, useCompiledModule } from '../core/loader.js';
import { ABORT_WORKER, WindowLoop } from './windows.js';

export interface PartitionWorkerData {
  memory: WebAssembly.Memory;
  /** The compiled shared core (a worker need not compile it again). */
  module: WebAssembly.Module;
  base: number;
  /** Address of this partition's PT_ record. */
  record: number;
  ctl: number;
  parts: number;
  part: number;
  lookaheadPs: number;
  spins: number;
  errors: MessagePort;
  /** The port records (size bytes each) and the owner table (a byte per port). */
  portRecords: { at: number; size: number; count: number; owner: number };
}

const d = workerData as PartitionWorkerData;
const loop = new WindowLoop(d.memory.buffer as unknown as SharedArrayBuffer, d.ctl, d.parts, d.part, d.lookaheadPs, d.spins);
try {
  loop.faultRecords(touchOwnPortPages);
  useCompiledModule('shared', d.module);
  const core = new Core('shared', d.memory);
  if (loop.awaitTables()) run(core);
} catch (e) {
  d.errors.postMessage(e instanceof Error ? e.message : String(e));
  loop.abort(ABORT_WORKER);
}
d.errors.close();

/**
 * Writes 0 (what fresh memory holds) to a word of this partition's own port records on each page
 * they occupy: the page faults happen here. A page shared with another partition's record gets
 * the write in a word of this partition's record, never in the other's.
 */
function touchOwnPortPages(): void {
  const { at, size, count, owner } = d.portRecords;
  const buffer = d.memory.buffer as unknown as SharedArrayBuffer;
  const u8 = new Uint8Array(buffer);
  const i32 = new Int32Array(buffer);
  for (let p = 0; p < count; p++) {
    if (u8[owner + p] !== d.part) continue;
    const end = at + (p + 1) * size;
    for (let x = at + p * size; x < end; x += 4096 - (x % 4096)) i32[x >>> 2] = 0;
  }
}

/** Attaches to the written tables and runs batches until told to stop. */
function run(core: Core): void {
  core.fn<(b: number) => void>('simAttach')(d.base);
  if (core.fn<(r: number) => number>('simStartPartition')(d.record) !== 0) throw new Error(`partition ${d.part}: event heap too small at start (sizing bug)`);
  const engine = {
    runWindow: core.fn<(last: bigint) => number>('simRunWindow'),
    windowMin: core.fn<() => bigint>('simWindowMin'),
    drain: core.fn<() => number>('simDrain'),
    batchEnd: core.fn<(until: bigint) => void>('simBatchEnd'),
    etsSample: core.fn<() => void>('etsMeterSample'),
    eventsRun: core.fn<() => bigint>('simEventsRun'),
  };
  let seen = loop.batchGeneration();
  loop.ready();
  while (true) {
    const batch = loop.nextBatch(seen);
    if (batch === null) break;
    seen = batch.gen;
    if (!loop.runBatch(engine, batch.until, batch.sampleEts)) break;
  }
  loop.writeProfile();
}
