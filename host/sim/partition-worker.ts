// A worker thread of a partitioned run (host/sim/parallel.ts): its own instance of the shared core
// over the run's one memory, running one partition's events window by window (windows.ts) for
// every batch the main thread starts, until told to stop. It is started as soon as the run's
// memory is reserved, so its start-up overlaps the main thread's writing of the tables; it attaches
// once told they are written. An error goes back to the main thread through `errors` (it reads it
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
}

const d = workerData as PartitionWorkerData;
const loop = new WindowLoop(d.memory.buffer as unknown as SharedArrayBuffer, d.ctl, d.parts, d.part, d.lookaheadPs, d.spins);
try {
  useCompiledModule('shared', d.module);
  const core = new Core('shared', d.memory);
  if (loop.awaitTables()) run(core);
} catch (e) {
  d.errors.postMessage(e instanceof Error ? e.message : String(e));
  loop.abort(ABORT_WORKER);
}
d.errors.close();

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
