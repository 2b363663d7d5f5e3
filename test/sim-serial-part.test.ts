// The serial part of a run (docs/sim.md, "One run on every core"): the phase record that
// bench/serial-part.ts reads (set-up, engine, between the engine's calls, summary) accounts for the
// run's wall time and changes no output; a partitioned run's threads start before its routes are
// computed, each claims and writes the pages of port records chunk by chunk or leaves them to the
// main thread, and a set-up that fails or is refused after they started ends them and reports its own
// error; the arena plan is had without a run; the speed-up model's whole-run figure is bounded by
// the serial part (Amdahl).
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { deterministicSummary } from '../host/report/report.js';
import { closScenario } from '../host/scenario/clos.js';
import { checkScenario } from '../host/scenario/scenario.js';
import type { SimResult } from '../host/sim/result.js';
import { runScenario, type RunPhases } from '../host/sim/run.js';
import { buildFabric, planFabric, type ArenaPlan } from '../host/sim/fabric.js';
import { wholeRunSpeedup } from '../bench/partition-model.js';
import { ABORT_WORKER, controlBytes, CTL_BYTES_FIXED, RECORD_CHUNKS, recordChunk, WindowLoop } from '../host/sim/windows.js';

// A set-up step after the workers' start that fails when asked to (the flows' kernel parameters are
// the last tables written before the engine's set-up).
const failFlowKernels = vi.hoisted(() => ({ on: false }));
vi.mock('../host/sim/fabric-params.js', async (original) => {
  const real = await original<typeof import('../host/sim/fabric-params.js')>();
  return {
    ...real,
    writeFlowKernels: (...args: Parameters<typeof real.writeFlowKernels>) => {
      if (failFlowKernels.on) throw new Error('flow kernels: failed on purpose');
      real.writeFlowKernels(...args);
    },
  };
});

const outputs = (r: SimResult) => JSON.stringify({ summary: deterministicSummary(r.summary), series: r.series });
const tree = () => checkScenario(closScenario({ k: 4, flows: 16, duration: '200us' }));

/** Threads of this process (Linux): a partition worker is one until it exits. */
const threadCount = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
/** The thread count once it has held still for 200 ms (at most 10 s). */
async function settledThreadCount(): Promise<number> {
  const deadline = Date.now() + 10_000;
  let last = threadCount(), since = Date.now();
  while (Date.now() - since < 200 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    const now = threadCount();
    if (now !== last) { last = now; since = Date.now(); }
  }
  return last;
}

describe('the phases of a run', () => {
  it.each([1, 2])('on %i thread(s) account for its wall time, each phase measured, and change no output', (threads) => {
    const scn = tree();
    const plain = runScenario(scn, { threads });
    // The run takes 20-100 ms, so one collection or one lost time slice between two phases can
    // take a tenth of it: the coverage is judged on the best of three calls, each checked alike.
    let covered = 0;
    for (let attempt = 0; attempt < 3; attempt++) {
      const phases: RunPhases = { setup_s: 0, engine_s: 0, between_s: 0, summary_s: 0 };
      const t0 = performance.now();
      const timed = runScenario(scn, { threads, phases });
      const wall = (performance.now() - t0) / 1e3;
      expect(timed.summary.sim.threads).toBe(threads);
      expect(outputs(timed)).toBe(outputs(plain));
      for (const v of Object.values(phases)) expect(v).toBeGreaterThanOrEqual(0);
      expect(phases.setup_s).toBeGreaterThan(0);
      expect(phases.engine_s).toBeGreaterThan(0);
      expect(phases.summary_s).toBeGreaterThan(0);
      const sum = phases.setup_s + phases.engine_s + phases.between_s + phases.summary_s;
      // The phases never add up to more than the call ...
      expect(sum).toBeLessThanOrEqual(wall + 1e-3);
      covered = Math.max(covered, sum / wall);
    }
    // ... and cover it but for the stepping loop's own few statements (0.99 or more when nothing
    // interrupts; leaving out the set-up or the engine's phase would give 0.6 or less).
    expect(covered).toBeGreaterThan(0.9);
  });
});

describe('partition workers started before the tables are written', () => {
  it('end when the set-up fails after their start, the error is the set-up\'s, and the next run is unaffected', async () => {
    const scn = tree();
    const serial = outputs(runScenario(scn, { threads: 1 }));
    expect(outputs(runScenario(scn, { threads: 2 }))).toBe(serial);
    const before = threadCount();
    failFlowKernels.on = true;
    try {
      expect(() => runScenario(scn, { threads: 4 })).toThrow('flow kernels: failed on purpose');
    } finally {
      failFlowKernels.on = false;
    }
    // The three workers were started (the failure came after) and now exit without attaching.
    const deadline = Date.now() + 10_000;
    while (threadCount() > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(threadCount()).toBeLessThanOrEqual(before);
    const again = runScenario(scn, { threads: 2 });
    expect(again.summary.sim.threads).toBe(2);
    expect(outputs(again)).toBe(serial);
  });

  it('end when the run is refused before its arena is reserved (they started before its routes), and the error is the refusal', async () => {
    const scn = tree();
    const before = threadCount();
    expect(() => runScenario(scn, { threads: 4, maxMemoryBytes: 1024 ** 2 })).toThrow(/over the memory budget of 1.00 MiB \(--max-memory\)/);
    const deadline = Date.now() + 10_000;
    while (threadCount() > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(threadCount()).toBeLessThanOrEqual(before);
  });
});

describe('the arena plan without a run (fabric.ts planFabric)', () => {
  it.each([1, 2])('is the plan the run itself is admitted on, on %i thread(s), and starts no thread', async (threads) => {
    const scn = tree();
    // The runs of the tests before this one leave their partition workers exiting on their own
    // time: count once no thread has come or gone for 200 ms, so one ending now is not read as ours.
    const before = await settledThreadCount();
    const planned = planFabric(scn, threads);
    expect(threadCount()).toBe(before);
    let admitted: ArenaPlan | undefined;
    const fab = buildFabric(scn, 'release', threads, undefined, (plan) => { admitted = plan; });
    fab.close();
    expect(planned.parts).toBe(threads);
    expect(planned).toEqual(admitted);
  });
});

describe('the port records\' pages, written first by a worker chunk by chunk (windows.ts claimRecords)', () => {
  const loops = (parts: number) => {
    const buffer = new SharedArrayBuffer(controlBytes(parts));
    return { buffer, threads: Array.from({ length: parts }, (_, me) => new WindowLoop(buffer, 0, parts, me, 1000, 0)) };
  };

  it('are left to the main thread where it claims a chunk first: the worker then touches nothing there', () => {
    const [main, worker] = loops(2).threads;
    expect(main.claimRecords(1, 3)).toBe(true);
    let touched = 0;
    worker.faultRecords(1, 3, () => touched++);
    expect(touched).toBe(0);
    // The chunk beside it is still open to the worker.
    worker.faultRecords(1, 4, () => touched++);
    expect(touched).toBe(1);
  });

  it('are a worker\'s where it claims a chunk first, the main thread going on there only once it is done, and each chunk is touched once', () => {
    const [main, worker, other] = loops(3).threads;
    const order: string[] = [];
    worker.faultRecords(0, RECORD_CHUNKS - 1, () => order.push('worker'));
    other.faultRecords(0, RECORD_CHUNKS - 1, () => order.push('other'));
    expect(main.claimRecords(0, RECORD_CHUNKS - 1)).toBe(true);
    order.push('main');
    expect(order).toEqual(['worker', 'main']);
  });

  it('end the main thread\'s wait with false when the run is aborted while a worker is still writing a chunk', () => {
    const { buffer, threads: [main] } = loops(2);
    // A worker that claimed chunk 5 of partition 1 and never finishes: its claim word says "writing" (1).
    const claims = new Int32Array(buffer, CTL_BYTES_FIXED + 16 * 2, 2 * RECORD_CHUNKS);
    Atomics.store(claims, RECORD_CHUNKS + 5, 1);
    main.abort(ABORT_WORKER);
    expect(main.claimRecords(1, 5)).toBe(false);
  });

  it('split a partition\'s ports the same way on every thread, each port in one chunk, in order', () => {
    for (const n of [0, 1, 15, 16, 17, 3584]) {
      const ports = Array.from({ length: n }, (_, i) => i * 2);
      const chunks = Array.from({ length: RECORD_CHUNKS }, (_, c) => recordChunk(ports, c));
      expect(chunks.flat()).toEqual(ports);
      for (const c of chunks) expect(c.length).toBeLessThanOrEqual(Math.ceil(n / RECORD_CHUNKS));
    }
  });
});

describe('the whole-run speed-up of the model (bench/partition-model.ts)', () => {
  it('adds the serial part to both sides: no serial part gives the engine\'s speed-up, and no thread count beats (engine + serial) / serial', () => {
    expect(wholeRunSpeedup(6.7558, 8.61, 0)).toBe(8.61);
    // The k = 16 tree of docs/history/sim.md (2026-11-26): 6.76 s of engine on one thread, 8.61 on 16 threads, 0.45 s serial.
    expect(wholeRunSpeedup(6.7558, 8.61, 0.45)).toBe(5.84);
    expect(wholeRunSpeedup(6.7558, 1e9, 0.45)).toBe(Number(((6.7558 + 0.45) / 0.45).toFixed(2)));
    // A smaller serial part gives more on every thread count.
    for (const s of [1.72, 8.61, 15.42]) expect(wholeRunSpeedup(6.7558, s, 0.29)).toBeGreaterThan(wholeRunSpeedup(6.7558, s, 0.45));
  });

  it('charges the main thread of P threads a 1/P share of the work the partitions\' threads share, and one thread all of it', () => {
    // On one thread the shared work is serial like the rest: the same figure as a serial part of their sum.
    expect(wholeRunSpeedup(6.7558, 1, 0.2, 0.074, 1)).toBe(1);
    // 0.2 s serial and 0.074 s shared by 16 threads: (6.7558 + 0.274) / (6.7558 / 8.61 + 0.2 + 0.074 / 16).
    expect(wholeRunSpeedup(6.7558, 8.61, 0.2, 0.074, 16)).toBe(Number(((6.7558 + 0.274) / (6.7558 / 8.61 + 0.2 + 0.074 / 16)).toFixed(2)));
    // Shared work beats the same amount of serial work on every thread count above one.
    for (const [s, p] of [[1.72, 2], [8.61, 16], [15.42, 64]]) expect(wholeRunSpeedup(6.7558, s, 0.2, 0.074, p)).toBeGreaterThan(wholeRunSpeedup(6.7558, s, 0.274));
  });
});
