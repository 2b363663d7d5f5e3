// Drives a run of the fabric engine (assembly/sim/engine.ts): builds its tables (fabric.ts), refuses
// a run whose series would not fit the memory budget, then runs the engine one sampling interval per
// call (the JS/Wasm boundary is crossed per interval, never per packet), records the samples
// (sample.ts), watches for lossless deadlocks (deadlock-monitor.ts), and assembles the summary
// (summary.ts). One-way: scenario -> fabric tables -> engine -> series and summary.
import type { Scenario } from '../scenario/scenario.js';
import type { SimResult } from './result.js';
import { cyclicDependencyGraphs } from '../analysis/deadlock.js';
import { DeadlockMonitor, type PortProbe } from '../analysis/deadlock-monitor.js';
import { checkBudget, DEFAULT_MAX_MEMORY, runFootprint, type RunFootprint, type ScenarioSource } from './budget.js';
import { getHeapStatistics } from 'node:v8';
import { collectGarbage } from '../util/gc.js';

/** Heap in use above which a run starts with a full collection (a small command's heap is about 15 MB). */
const GC_BEFORE_RUN_BYTES = 32 * 1024 ** 2;
import { buildFabric, planFabric } from './fabric.js';
import { checkCaptureBudget, type PacketCapture } from './capture.js';
import { EtsShareMeter, Sampler, seriesPlan } from './sample.js';
import { summarise } from './summary.js';

export { buildFabric, type Fabric } from './fabric.js';

export interface RunOptions {
  onProgress?: (fraction: number) => void;
  flavour?: 'release' | 'debug';
  /** Memory budget of the run in bytes (default DEFAULT_MAX_MEMORY); see host/sim/budget.ts. */
  maxMemoryBytes?: number;
  /** The series will also be written as CSV (--out), which the budget counts too. */
  withReport?: boolean;
  /** The file the scenario was read from (the budget counts what parsing it held). */
  source?: ScenarioSource;
  /**
   * Test seam: re-thread the packet pool's free list as k_i = (a i + b) mod capacity before the
   * first event (assembly/sim/engine.ts simPermutePool); a run must not depend on it.
   */
  poolOrder?: { a: number; b: number };
  /**
   * Threads to run the fabric on (default 1): the fabric is partitioned when it can be split
   * (host/sim/partition.ts), and every output is the same as on one thread.
   */
  threads?: number;
  /** Packet trace of the selected ports (host/sim/capture.ts); its files are taken after finish(). */
  capture?: PacketCapture;
  /** Filled with the wall time of the run's phases (bench/serial-part.ts: what of a run is serial). */
  phases?: RunPhases;
}

/**
 * Time of a run's phases, s: set-up (the fabric's tables and threads, the deadlock watch's graphs),
 * the engine's calls, what the driver does between them (samples, deadlock watch, flow windows'
 * ends) and the summary with the threads' end; by `clock` (s), wall time when none is given.
 */
export interface RunPhases { setup_s: number; engine_s: number; between_s: number; summary_s: number; clock?: () => number }

/** A run advanced one sampling interval per step(), so a caller can yield between steps. */
export interface RunStepper {
  done(): boolean;
  /** Simulates the next sampling interval and records its samples. */
  step(): void;
  /** Simulated time so far, ps. */
  now(): number;
  /** Reads the counters and returns the result (call once, when done()). */
  finish(): SimResult;
  /** Threads the run uses, and why fewer than asked for. */
  threads: number;
  threadsNote?: string;
  /** Ends the run's worker threads, if any (finish() does too; safe to call again). */
  close(): void;
}

/**
 * The memory budget's figures for a run of `scn` (budget.ts), without running it: the fabric is
 * planned but its arena never reserved.
 */
export function estimateFootprint(scn: Scenario, opts: { withReport?: boolean; threads?: number; source?: ScenarioSource } = {}): RunFootprint {
  return runFootprint(scn, seriesPlan(scn).map((p) => p.meta), planFabric(scn, opts.threads ?? 1), opts.withReport ?? false, opts.source);
}

/** Runs a scenario to its duration and returns metrics and sampled series. */
export function runScenario(scn: Scenario, opts: RunOptions = {}): SimResult {
  const run = startRun(scn, opts);
  while (!run.done()) run.step();
  return run.finish();
}

/**
 * Builds the fabric, refuses a run whose series would not fit the memory budget (InputError naming
 * `sample`), and returns a stepper over its sampling intervals.
 */
export function startRun(scn: Scenario, opts: RunOptions = {}): RunStepper {
  const t0 = process.hrtime.bigint();
  const phases = opts.phases;
  const clock = phases?.clock ?? (() => performance.now() / 1e3);
  const setupFrom = phases ? clock() : 0;
  const capture = opts.capture;
  // What reading a large scenario left behind (a fat tree's YAML: about 180 bytes of parser garbage
  // per byte of source) goes before the arena comes, so the run's peak memory is its own and the
  // budget's bound holds whatever the input's format; a small run's heap is left alone.
  if (getHeapStatistics().used_heap_size > GC_BEFORE_RUN_BYTES) collectGarbage();
  // The series are known from the scenario and the arena's size from its plan: a run that would
  // not fit the budget (series, arena, packet capture) is refused before the arena is reserved or
  // any series allocated.
  const plan = seriesPlan(scn);
  const withReport = opts.withReport ?? false;
  const maxBytes = opts.maxMemoryBytes ?? DEFAULT_MAX_MEMORY;
  const fab = buildFabric(scn, opts.flavour, opts.threads ?? 1, capture?.layout(), (arena) => {
    const footprint = runFootprint(scn, plan.map((p) => p.meta), arena, withReport, opts.source);
    checkBudget(footprint, maxBytes, withReport);
    if (capture) checkCaptureBudget(scn, capture.ports, capture.snaplen, maxBytes - footprint.bytes, maxBytes);
  });
  if (opts.poolOrder) fab.core.fn<(a: number, b: number) => void>('simPermutePool')(opts.poolOrder.a, opts.poolOrder.b);
  const { L, r32, r64, portAt, flowAt } = fab;
  const sampler = new Sampler(fab, scn, plan);
  const ets = new EtsShareMeter(fab, scn);
  capture?.attach(fab);
  const engineUntil = capture ? (tPs: number, sampleEts?: boolean) => capture.runUntil(tPs, sampleEts) : fab.runUntil;
  const runUntil = !phases ? engineUntil : (tPs: number, sampleEts?: boolean) => {
    const e0 = clock();
    engineUntil(tPs, sampleEts);
    phases.engine_s += clock() - e0;
  };

  // Deadlock watch over the ports that sit on a cycle of a lossless dependency graph (none: no cost).
  const deadlock = new DeadlockMonitor(cyclicDependencyGraphs(scn, { routes: fab.routes, swOrd: fab.swOrd }), (p) => scn.ports[p].name, (p, pr) => scn.ports[p].dcb.prioTc[pr], scn.deadlock_threshold_ps);
  const probe: PortProbe = {
    pausedPs: fab.pausedPs,
    txBytes: (p, tc) => r64(portAt(p) + L.SP_TCQ + L.SQ_SIZE * tc + L.SQ_TX_BYTES),
    queuedBytes: (p, tc) => r32(portAt(p) + L.SP_TCQ + L.SQ_SIZE * tc + L.SQ_BYTES),
  };

  // Each flow's measurement window ends at its stop (or the run's end): the bytes delivered by
  // then are what its throughput counts, not the queue draining afterwards (docs/reports.md).
  // An end inside a sampling interval gets a runUntil of its own; the engine only processes
  // events up to the time given, so the extra boundary changes nothing else.
  const windowEnd = scn.flows.map((f) => Math.min(scn.duration_ps, f.stop_ps));
  const deliveredAtEnd: (number | undefined)[] = scn.flows.map(() => undefined);
  const endsDue = scn.flows.map((f) => f.id).filter((f) => windowEnd[f] < scn.duration_ps).sort((x, y) => windowEnd[x] - windowEnd[y] || x - y);
  let nextEnd = 0;
  let t = 0;
  if (phases) phases.setup_s += clock() - setupFrom;
  const snapshotEnds = (upTo: number) => {
    while (nextEnd < endsDue.length && windowEnd[endsDue[nextEnd]] <= upTo) {
      const f = endsDue[nextEnd++];
      if (windowEnd[f] > t) runUntil(windowEnd[f]);
      deliveredAtEnd[f] = r64(flowAt(f) + L.SF_DELIV);
    }
  };

  const step = () => {
    const s0 = phases ? clock() : 0, e0 = phases?.engine_s ?? 0;
    const next = Math.min(scn.duration_ps, t + scn.sample_ps);
    snapshotEnds(next);
    runUntil(next, true);
    const dt = next - t;
    t = next;
    sampler.sample(t, dt);
    deadlock.observe(t, dt, probe);
    opts.onProgress?.(t / scn.duration_ps);
    if (phases) phases.between_s += clock() - s0 - (phases.engine_s - e0);
  };
  const finish = (): SimResult => {
    const f0 = phases ? clock() : 0;
    fab.close();
    const wall_s = Number(process.hrtime.bigint() - t0) / 1e9;
    const summary = summarise(fab, scn, { wall_s, ets: ets.result(), windowEnd, deliveredAtEnd, deadlock: deadlock.found });
    if (phases) phases.summary_s += clock() - f0;
    return { summary, series: sampler.series };
  };
  return { done: () => t >= scn.duration_ps, step, now: () => t, finish, threads: fab.threads, threadsNote: fab.threadsNote, close: () => fab.close() };
}
