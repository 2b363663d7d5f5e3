// A worker thread of a partitioned run (host/sim/parallel.ts): its own instance of the shared core
// over the run's one memory, running one partition's events window by window (windows.ts) for
// every batch the main thread starts, until told to stop. It is started as soon as the fabric is
// partitioned, makes its core instance while the main thread computes the routes, and waits for
// the arena's addresses; then it writes the pages of its partition's port records first, and of
// partition 0's as long as the main thread has not reached them, so that their page faults are its
// own and not the main thread's, and attaches once told the tables are written. An error goes back to the main thread through `errors` (it reads it synchronously) and
// aborts the run.
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { Core, useCompiledModule } from '../core/loader.js';
import { ABORT_WORKER, MAILBOX_POSTED, MAILBOX_WAITING, RECORD_CHUNKS, recordChunk, WindowLoop } from './windows.js';

export interface PartitionWorkerData {
  memory: WebAssembly.Memory;
  /** The compiled shared core (a worker need not compile it again). */
  module: WebAssembly.Module;
  parts: number;
  part: number;
  lookaheadPs: number;
  spins: number;
  /** One Int32 word (windows.ts MAILBOX_*): the arena's addresses were sent on `arena`, or the run was given up. */
  mailbox: SharedArrayBuffer;
  arena: MessagePort;
  errors: MessagePort;
}

/** What a worker learns once the arena is reserved. */
export interface PartitionArena {
  base: number;
  /** Address of this partition's PT_ record. */
  record: number;
  ctl: number;
  /** The port records (size bytes each) and the owner table (a byte per port). */
  portRecords: { at: number; size: number; count: number; owner: number };
}

const d = workerData as PartitionWorkerData;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
let core: Core | undefined;
let failure: string | undefined;
try {
  useCompiledModule('shared', d.module);
  core = new Core('shared', d.memory);
} catch (e) {
  failure = message(e);
}
const arena = awaitArena();
if (arena) {
  const loop = new WindowLoop(d.memory.buffer as unknown as SharedArrayBuffer, arena.ctl, d.parts, d.part, d.lookaheadPs, d.spins);
  try {
    if (failure !== undefined) throw new Error(failure);
    touchPortPages(loop, arena);
    if (loop.awaitTables()) run(core!, loop, arena);
  } catch (e) {
    d.errors.postMessage(message(e));
    loop.abort(ABORT_WORKER);
  }
}
d.arena.close();
d.errors.close();

/** The arena's addresses, once the main thread has reserved it; null when it gave the run up first. */
function awaitArena(): PartitionArena | null {
  const mailbox = new Int32Array(d.mailbox);
  while (Atomics.load(mailbox, 0) === MAILBOX_WAITING) Atomics.wait(mailbox, 0, MAILBOX_WAITING);
  if (Atomics.load(mailbox, 0) !== MAILBOX_POSTED) return null;
  return (receiveMessageOnPort(d.arena)?.message as PartitionArena | undefined) ?? null;
}

/**
 * Writes 0 (what fresh memory holds) to a word of each page that port records occupy, chunk by
 * chunk as claimed (windows.ts faultRecords): this partition's from the first chunk, then
 * partition 0's (the main thread's) from the last, the end the main thread reaches last. The page
 * faults happen here. Each write is in a word of the chunk's own records.
 */
function touchPortPages(loop: WindowLoop, arena: PartitionArena): void {
  const { at, size, count, owner } = arena.portRecords;
  const buffer = d.memory.buffer as unknown as SharedArrayBuffer;
  const u8 = new Uint8Array(buffer);
  const i32 = new Int32Array(buffer);
  const portsOf = (part: number) => { const ps: number[] = []; for (let p = 0; p < count; p++) if (u8[owner + p] === part) ps.push(p); return ps; };
  const touch = (ports: readonly number[]) => {
    for (const p of ports) {
      const end = at + (p + 1) * size;
      for (let x = at + p * size; x < end; x += 4096 - (x % 4096)) i32[x >>> 2] = 0;
    }
  };
  const own = portsOf(d.part);
  for (let c = 0; c < RECORD_CHUNKS; c++) loop.faultRecords(d.part, c, () => touch(recordChunk(own, c)));
  const first = portsOf(0);
  for (let c = RECORD_CHUNKS - 1; c >= 0; c--) loop.faultRecords(0, c, () => touch(recordChunk(first, c)));
}

/** Attaches to the written tables and runs batches until told to stop. */
function run(core: Core, loop: WindowLoop, arena: PartitionArena): void {
  core.fn<(b: number) => void>('simAttach')(arena.base);
  if (core.fn<(r: number) => number>('simStartPartition')(arena.record) !== 0) throw new Error(`partition ${d.part}: event heap too small at start (sizing bug)`);
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
