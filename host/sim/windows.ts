// The conservative window loop every thread of a partitioned run executes (docs/sim.md, "One run
// on every core"; Lubachevsky's YAWNS, CACM 1989): all partitions agree on T, the earliest time
// any of them may act (next event, or arrival of a frame sent), each handles its events before
// T + L (L the lookahead: no frame sent at or after T arrives before T + L), then all meet at a
// barrier, take in the frames sent to them, and the next window starts. Thread 0 is the main
// thread, which also samples between batches; the others are partition workers.
//
// Control block (Int32 / Float64 views over the shared memory at `ctl`):
//   i32[0] batch generation (a new batch to run, or stop)   i32[1] stop
//   i32[2] barrier arrivals   i32[3] barrier generation   i32[4] abort (an error code, 0 = none)
//   i32[5] workers ready   i32[6] 1: the batch ends a sampling interval (ETS shares)
//   i32[7] workers that wrote their window profile (DCBKIT_PROFILE_WINDOWS)
//   i32[10] 1: the tables are written, workers may attach (they start while the main thread writes them)
//   f64[4] the batch's end (until), ps   f64[8 ..] window minima, [2][parts]
//   then RECORD_CHUNKS i32 per partition: who first touches the pages of each chunk of its port records (claimRecords)
// Invariant: every thread reads the minima of parity `par` only between the barrier that follows
// their writing and the next one, and writes parity par ^ 1 meanwhile, so no read meets a write.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CTL_BYTES_FIXED = 64;
/**
 * DCBKIT_PROFILE_WINDOWS=DIR: each thread writes DIR/partition-<n>.json when the run ends: its time
 * handling events, waiting at barriers and taking in frames, and per window its events and the
 * frames it took in (bench/partition-model.ts turns them into the speed-up model of docs/sim.md).
 */
const PROFILE_DIR = process.env.DCBKIT_PROFILE_WINDOWS;
const PROFILE = PROFILE_DIR !== undefined;
const BATCH = 0, STOP = 1, ARRIVED = 2, GEN = 3, ABORT = 4, READY = 5, SAMPLE_ETS = 6, PROFILED = 7, TABLES = 10;
const UNTIL = 4, MINIMA = 8;
/** Bounds of a barrier's spin before it sleeps, µs: a sleep and its wake-up cost some 10-50 µs. */
const MIN_SPIN_US = 20, MAX_SPIN_US = 5000;

/** Bytes of the control block for `parts` threads. */
export function controlBytes(parts: number): number { return CTL_BYTES_FIXED + 16 * parts + 8 * Math.ceil((parts * RECORD_CHUNKS) / 2); }

/**
 * Chunks of a partition's port records, each claimed apart. The first write to each page of fresh
 * memory is a page fault (some 14 us of CPU each on a 2-vCPU virtual machine; a k = 16 tree's port
 * records are 5,300 pages), so a worker writes the pages of its own partition's records first and
 * then those of partition 0 (the main thread's) from the last chunk back, while the main thread
 * writes the other tables and then the ports, chunk by chunk from the first; whichever claims a
 * chunk first touches it, so neither waits for the other's start-up, they share the faults when
 * both run, and no word is written by two threads at once.
 */
export const RECORD_CHUNKS = 16;
const UNCLAIMED = 0, WORKER_FAULTING = 1, WORKER_DONE = 2, MAIN_WRITES = 3;

/** Chunk `c` of a partition's ports (`ports`, in id order): the same on every thread. */
export function recordChunk<T>(ports: readonly T[], c: number): T[] {
  return ports.slice(Math.floor((c * ports.length) / RECORD_CHUNKS), Math.floor(((c + 1) * ports.length) / RECORD_CHUNKS));
}

/** The functions of one core instance that the loop drives. */
export interface PartitionCore {
  runWindow(last: bigint): number;
  windowMin(): bigint;
  drain(): number;
  batchEnd(until: bigint): void;
  eventsRun(): bigint;
  etsSample(): void;
}

/**
 * The word a worker waits on from its start until the arena is reserved (it exists before the
 * control block does): its addresses were sent, or the run was given up before.
 */
export const MAILBOX_WAITING = 0, MAILBOX_POSTED = 1, MAILBOX_ABANDONED = 2;

/** Error codes in the control block's abort word. */
export const ABORT_HEAP = 1, ABORT_RING = 2, ABORT_WORKER = 4;

export class WindowLoop {
  private readonly i32: Int32Array;
  private readonly f64: Float64Array;
  /** Each chunk's claim word (UNCLAIMED ...), RECORD_CHUNKS per partition. */
  private readonly claims: Int32Array;
  private par = 0;
  /** The barrier's current cap on a spin, µs (see barrier()). */
  private spinUs = MAX_SPIN_US;
  /** Time spent per activity, and per window events and frames taken in, when DCBKIT_PROFILE_WINDOWS is set. */
  readonly prof = { run_ms: 0, wait_ms: 0, drain_ms: 0, windows: 0, sleeps: 0, events: [] as number[], frames_in: [] as number[] };

  /** Writes the profile (DCBKIT_PROFILE_WINDOWS only). */
  writeProfile(): void {
    if (PROFILE_DIR === undefined) return;
    mkdirSync(PROFILE_DIR, { recursive: true });
    writeFileSync(join(PROFILE_DIR, `partition-${this.me}.json`), JSON.stringify({ part: this.me, parts: this.parts, lookahead_ps: this.lookaheadPs, ...this.prof }));
    if (this.me !== 0) {
      Atomics.add(this.i32, PROFILED, 1);
      Atomics.notify(this.i32, PROFILED);
    }
  }

  /**
   * Main thread, after stop(): waits (up to `timeoutMs`) until every worker has written its profile,
   * since the process may otherwise end before they do (DCBKIT_PROFILE_WINDOWS only).
   */
  awaitProfiles(timeoutMs: number): void {
    if (PROFILE_DIR === undefined) return;
    const deadline = Date.now() + timeoutMs;
    for (let n = Atomics.load(this.i32, PROFILED); n < this.parts - 1 && Date.now() < deadline; n = Atomics.load(this.i32, PROFILED)) {
      Atomics.wait(this.i32, PROFILED, n, 50);
    }
  }

  constructor(buffer: SharedArrayBuffer, ctl: number, private readonly parts: number, private readonly me: number,
    private readonly lookaheadPs: number, /** 0: never spin (more threads than cores), else spin first */ private readonly spins: number) {
    this.i32 = new Int32Array(buffer, ctl, CTL_BYTES_FIXED / 4);
    this.f64 = new Float64Array(buffer, ctl, (CTL_BYTES_FIXED + 16 * parts) / 8);
    this.claims = new Int32Array(buffer, ctl + CTL_BYTES_FIXED + 16 * parts, parts * RECORD_CHUNKS);
  }

  /** The abort code (0: none). */
  aborted(): number { return Atomics.load(this.i32, ABORT); }

  abort(code: number): void {
    Atomics.or(this.i32, ABORT, code);
    Atomics.add(this.i32, GEN, 1);
    Atomics.notify(this.i32, GEN);
    Atomics.notify(this.i32, BATCH);
    Atomics.notify(this.i32, READY);
    Atomics.notify(this.i32, TABLES);
    for (let w = 0; w < this.claims.length; w++) Atomics.notify(this.claims, w);
  }

  /** Waits until every thread has arrived; false when the run was aborted meanwhile. */
  private barrier(): boolean {
    const i32 = this.i32;
    const gen = Atomics.load(i32, GEN);
    if (Atomics.add(i32, ARRIVED, 1) === this.parts - 1) {
      Atomics.store(i32, ARRIVED, 0);
      Atomics.add(i32, GEN, 1);
      Atomics.notify(i32, GEN);
      return Atomics.load(i32, ABORT) === 0;
    }
    // Spin while the others are likely running on cores of their own, then sleep. Sleeping is dear
    // on a virtual machine (the wake-up of an idle vCPU took some 100-400 us here), spinning is
    // wasted when another thread needs this core. So the spin's cap creeps up 1 % at each spin that
    // ended in time and halves at each that ran out: it settles where about 1 spin in 70 runs out
    // (the longest waits of a machine whose threads all run), and falls within a few windows when
    // another process takes a core (waits of milliseconds), so that threads then sleep at once.
    if (this.spins > 0) {
      const budgetMs = this.spinUs / 1000;
      const start = performance.now();
      for (let n = 1; ; n++) {
        if (Atomics.load(i32, GEN) !== gen) {
          this.spinUs = Math.min(MAX_SPIN_US, this.spinUs * 1.01);
          return Atomics.load(i32, ABORT) === 0;
        }
        if ((n & 255) === 0 && performance.now() - start > budgetMs) break;
      }
      this.spinUs = Math.max(MIN_SPIN_US, this.spinUs / 2);
    }
    if (PROFILE) this.prof.sleeps++;
    while (Atomics.load(i32, GEN) === gen) Atomics.wait(i32, GEN, gen, 1000);
    return Atomics.load(i32, ABORT) === 0;
  }

  /**
   * Runs this thread's partition through every event due at or before `until` ps, window by window
   * with the others; returns false when a thread aborted (its code in aborted()).
   */
  runBatch(core: PartitionCore, until: number, sampleEts: boolean): boolean {
    const { f64, parts, me } = this;
    f64[MINIMA + this.par * parts + me] = Number(core.windowMin());
    if (!this.barrier()) return false;
    while (true) {
      let t = Infinity;
      const row = MINIMA + this.par * parts;
      for (let w = 0; w < parts; w++) if (f64[row + w] < t) t = f64[row + w];
      if (t > until) break;
      const end = Math.min(t + this.lookaheadPs, until + 1);
      const p0 = PROFILE ? performance.now() : 0;
      const e0 = PROFILE ? Number(core.eventsRun()) : 0;
      const flags = core.runWindow(BigInt(end - 1));
      if (PROFILE) { this.prof.run_ms += performance.now() - p0; this.prof.windows++; this.prof.events.push(Number(core.eventsRun()) - e0); }
      if (flags !== 0) { this.abort(flags); return false; }
      this.par ^= 1;
      f64[MINIMA + this.par * parts + me] = Number(core.windowMin());
      const p1 = PROFILE ? performance.now() : 0;
      if (!this.barrier()) return false;
      const p2 = PROFILE ? performance.now() : 0;
      const frames = core.drain();
      if (PROFILE) { this.prof.wait_ms += p2 - p1; this.prof.drain_ms += performance.now() - p2; this.prof.frames_in.push(frames); }
    }
    core.batchEnd(BigInt(until));
    if (sampleEts) core.etsSample();
    return this.barrier();
  }

  // ---- main thread (0) ----

  /** Tells the workers to run a batch up to `until` (thread 0 then runs its own with runBatch). */
  startBatch(until: number, sampleEts: boolean): void {
    this.f64[UNTIL] = until;
    Atomics.store(this.i32, SAMPLE_ETS, sampleEts ? 1 : 0);
    Atomics.add(this.i32, BATCH, 1);
    Atomics.notify(this.i32, BATCH);
  }

  /** Tells the workers, started while the tables were being written, that they are: they may attach. */
  tablesWritten(): void {
    Atomics.store(this.i32, TABLES, 1);
    Atomics.notify(this.i32, TABLES);
  }

  /**
   * Before the main thread writes chunk `chunk` of partition `part`'s port records: claims it, or,
   * when a worker is writing its pages, waits until it is done (one chunk's page faults at most).
   * False when the run was aborted meanwhile.
   */
  claimRecords(part: number, chunk: number): boolean {
    const c = this.claims;
    const at = part * RECORD_CHUNKS + chunk;
    if (Atomics.compareExchange(c, at, UNCLAIMED, MAIN_WRITES) === UNCLAIMED) return true;
    while (Atomics.load(c, at) === WORKER_FAULTING && Atomics.load(this.i32, ABORT) === 0) Atomics.wait(c, at, WORKER_FAULTING, 1000);
    return Atomics.load(this.i32, ABORT) === 0;
  }

  /** Tells the workers to exit. */
  stop(): void {
    Atomics.store(this.i32, STOP, 1);
    Atomics.add(this.i32, BATCH, 1);
    Atomics.notify(this.i32, BATCH);
  }

  /** Waits until `n` workers have started their partitions (or one failed, or `timeoutMs` passed). */
  waitReady(n: number, timeoutMs: number): boolean {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      const ready = Atomics.load(this.i32, READY);
      if (ready >= n) return true;
      if (Atomics.load(this.i32, ABORT) !== 0 || Date.now() > deadline) return false;
      Atomics.wait(this.i32, READY, ready, 50);
    }
  }

  // ---- workers ----

  /**
   * Writes the first word of each page of chunk `chunk` of partition `part`'s port records
   * (`touch`) unless another thread has claimed it already; the words are zero and stay so until
   * the main thread writes the records, which it does only once this is done (claimRecords).
   */
  faultRecords(part: number, chunk: number, touch: () => void): void {
    const c = this.claims;
    const at = part * RECORD_CHUNKS + chunk;
    if (Atomics.compareExchange(c, at, UNCLAIMED, WORKER_FAULTING) !== UNCLAIMED) return;
    try {
      touch();
    } finally {
      Atomics.store(c, at, WORKER_DONE);
      Atomics.notify(c, at);
    }
  }

  /** Waits until the main thread has written the tables (true) or the run was given up (false). */
  awaitTables(): boolean {
    while (Atomics.load(this.i32, TABLES) === 0 && Atomics.load(this.i32, ABORT) === 0) Atomics.wait(this.i32, TABLES, 0, 1000);
    return Atomics.load(this.i32, ABORT) === 0;
  }

  /** A worker's partition is set up. */
  ready(): void {
    Atomics.add(this.i32, READY, 1);
    Atomics.notify(this.i32, READY);
  }

  /** Waits for the next batch after generation `seen`: its end (ps), or null to exit. */
  nextBatch(seen: number): { gen: number; until: number; sampleEts: boolean } | null {
    while (Atomics.load(this.i32, BATCH) === seen) Atomics.wait(this.i32, BATCH, seen);
    if (Atomics.load(this.i32, STOP) !== 0 || Atomics.load(this.i32, ABORT) !== 0) return null;
    return { gen: Atomics.load(this.i32, BATCH), until: this.f64[UNTIL], sampleEts: Atomics.load(this.i32, SAMPLE_ETS) === 1 };
  }

  batchGeneration(): number { return Atomics.load(this.i32, BATCH); }
}
