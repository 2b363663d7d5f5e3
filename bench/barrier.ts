// Cost of one window of the partitioned engine when the window holds no work (docs/sim.md, "One run
// on every core"): THREADS threads run host/sim/windows.ts's loop over a stand-in core whose windows
// are empty and whose next event is always one lookahead later, so each window is the loop's own
// cost: the minima exchange, one barrier and the calls around it.
// Usage: node dist/bench/barrier.js THREADS [WINDOWS]   (one JSON line: µs per window)
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, workerData } from 'node:worker_threads';
import { controlBytes, WindowLoop, type PartitionCore } from '../host/sim/windows.js';

interface Data { buffer: SharedArrayBuffer; parts: number; part: number; windows: number; spins: number }

/** A core whose every window is empty; its next event is one picosecond after the window's end. */
function emptyCore(): PartitionCore {
  let next = 0n;
  return {
    runWindow: (last) => { next = last + 1n; return 0; },
    windowMin: () => next,
    drain: () => 0,
    batchEnd: () => {},
    etsSample: () => {},
    eventsRun: () => 0n,
  };
}

function run(d: Data): WindowLoop {
  const loop = new WindowLoop(d.buffer, 0, d.parts, d.part, 1, d.spins);
  // One batch of `windows` windows of 1 ps each.
  loop.runBatch(emptyCore(), d.windows - 1, false);
  return loop;
}

if (!isMainThread) {
  const d = workerData as Data;
  const loop = new WindowLoop(d.buffer, 0, d.parts, d.part, 1, d.spins);
  loop.ready();
  const batch = loop.nextBatch(0);
  if (batch) loop.runBatch(emptyCore(), batch.until, false);
} else if (process.argv[1]?.endsWith('barrier.js')) {
  const parts = Number(process.argv[2] ?? 2);
  const windows = Number(process.argv[3] ?? 100_000);
  const buffer = new SharedArrayBuffer(controlBytes(parts));
  const spins = parts <= availableParallelism() ? 1 : 0;
  const workers = Array.from({ length: parts - 1 }, (_, i) => new Worker(new URL(import.meta.url), { workerData: { buffer, parts, part: i + 1, windows, spins } satisfies Data }));
  const main = new WindowLoop(buffer, 0, parts, 0, 1, spins);
  main.waitReady(parts - 1, 30_000);
  const t0 = performance.now();
  main.startBatch(windows - 1, false);
  run({ buffer, parts, part: 0, windows, spins });
  const us = ((performance.now() - t0) * 1000) / windows;
  await Promise.all(workers.map((w) => new Promise((r) => w.on('exit', r))));
  process.stdout.write(JSON.stringify({ threads: parts, windows, us_per_window: Number(us.toFixed(3)) }) + '\n');
}
