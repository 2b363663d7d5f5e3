// Parameter sweeps (`dcbkit sweep`): a full grid over dotted scenario paths, every point simulated
// in a worker thread (piscina, one thread per job), results gathered in grid order whatever the
// completion order, then one aggregate table (CSV + JSON) and plots.
//
// Grid order: the first --param is the outermost loop, the last the innermost, so point i of a
// sweep over P=[p0,p1] and Q=[q0,q1,q2] is (P = p[floor(i/3)], Q = q[i % 3]).
// Paths: `links.0.buffer_bytes` or `links[0].buffer_bytes`; every segment but the last must exist
// in the scenario (so a typo is an error, not a silently ignored key); the last may be new.
// Values: integers and decimals become numbers, true/false booleans, everything else a string
// ("100G", "credit").
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { InputError, type Problem } from '../errors/errors.js';
import { packageRoot } from '../core/loader.js';
import { progress } from '../sim/progress.js';
import type { SimSummary } from '../sim/result.js';
import { minOf } from '../util/extent.js';
import { completion } from '../report/completion.js';

export type ParamValue = number | boolean | string;
export interface SweepParam { path: string; segments: (string | number)[]; values: ParamValue[] }
export interface SweepPoint { index: number; params: Record<string, ParamValue>; scenario: unknown }

export function parseValue(text: string): ParamValue {
  const t = text.trim();
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  if (t === 'true') return true;
  if (t === 'false') return false;
  return t;
}

export function parsePathSegments(path: string): (string | number)[] | null {
  if (!/^[A-Za-z_][\w-]*(\.[\w-]+|\[\d+\])*$/.test(path)) return null;
  const segs: (string | number)[] = [];
  for (const m of path.matchAll(/\[(\d+)\]|([^.[\]]+)/g)) {
    if (m[1] !== undefined) segs.push(Number(m[1]));
    else segs.push(/^\d+$/.test(m[2]) ? Number(m[2]) : m[2]);
  }
  return segs;
}

/** Parses `--param P=a,b,c` arguments; every problem is reported at once. */
export function parseParams(args: readonly string[]): SweepParam[] {
  const problems: Problem[] = [];
  const out: SweepParam[] = [];
  const seen = new Set<string>();
  args.forEach((arg, i) => {
    const where = `--param[${i}]`;
    const eq = arg.indexOf('=');
    if (eq <= 0) {
      problems.push({ path: where, rule: `"${arg}" is not of the form PATH=v1,v2,...` });
      return;
    }
    const path = arg.slice(0, eq).trim();
    const segments = parsePathSegments(path);
    if (!segments) {
      problems.push({ path: where, rule: `"${path}" is not a dotted scenario path (e.g. links.0.buffer_bytes)` });
      return;
    }
    const raw = arg.slice(eq + 1).split(',');
    if (raw.some((v) => v.trim() === '')) {
      problems.push({ path: where, rule: `empty value in "${arg.slice(eq + 1)}"` });
      return;
    }
    if (seen.has(path)) problems.push({ path: where, rule: `"${path}" is swept twice` });
    seen.add(path);
    out.push({ path, segments, values: raw.map(parseValue) });
  });
  if (args.length === 0) problems.push({ path: '--param', rule: 'give at least one --param PATH=v1,v2,...' });
  if (problems.length) throw new InputError(problems);
  return out;
}

/** A deep copy of `base` with `value` stored at `segments`; null when a parent segment is missing. */
export function withValue(base: unknown, segments: readonly (string | number)[], value: ParamValue): unknown | null {
  const copy = structuredClone(base);
  let node: unknown = copy;
  for (let i = 0; i < segments.length - 1; i++) {
    if (node === null || typeof node !== 'object') return null;
    const next = (node as Record<string | number, unknown>)[segments[i]];
    if (next === undefined) return null;
    node = next;
  }
  if (node === null || typeof node !== 'object') return null;
  const last = segments[segments.length - 1];
  if (Array.isArray(node) && (typeof last !== 'number' || last >= node.length)) return null;
  (node as Record<string | number, unknown>)[last] = value;
  return copy;
}

/** The values of grid point `index`, one per parameter (first parameter outermost). */
export function gridValues(params: readonly { values: readonly ParamValue[] }[], index: number): ParamValue[] {
  let rest = index;
  const chosen: ParamValue[] = new Array(params.length);
  for (let k = params.length - 1; k >= 0; k--) {
    chosen[k] = params[k].values[rest % params[k].values.length];
    rest = Math.floor(rest / params[k].values.length);
  }
  return chosen;
}

/** Every point of the grid, in grid order (first parameter outermost). */
export function expandGrid(base: unknown, params: readonly SweepParam[]): SweepPoint[] {
  const problems: Problem[] = [];
  params.forEach((p, i) => {
    if (withValue(base, p.segments, p.values[0]) === null) {
      problems.push({ path: `--param[${i}]`, rule: `"${p.path}" does not lead anywhere in the scenario (a parent key or array element is missing)` });
    }
  });
  if (problems.length) throw new InputError(problems);
  const total = params.reduce((n, p) => n * p.values.length, 1);
  const points: SweepPoint[] = [];
  for (let index = 0; index < total; index++) {
    const chosen = gridValues(params, index);
    let scenario = base;
    const named: Record<string, ParamValue> = {};
    params.forEach((p, k) => {
      scenario = withValue(scenario, p.segments, chosen[k]);
      named[p.path] = chosen[k];
    });
    points.push({ index, params: named, scenario });
  }
  return points;
}

/**
 * The figures of one point that the aggregate table holds (all deterministic), named by the
 * glossary of docs/reports.md: rates of payload are goodput, times end in _ps, sizes in _bytes.
 */
export interface PointMetrics {
  /** Goodput of all flows per second of run, and over the traffic's active window (first start to last delivery). */
  goodput_bps: number;
  active_goodput_bps: number | null;
  min_flow_bps: number | null;
  victim_bps: number | null;
  delivered_bytes: number;
  drops_lossless: number;
  drops_lossy: number;
  /** Pause episodes (XOFF from the not-paused state) and every XOFF sent, refreshes included. */
  xoff_episodes: number;
  xoff_frames: number;
  pause_frames: number;
  paused_ps: number;
  cnms: number;
  ets_max_share_error_pp: number | null;
  jain: number | null;
  watchdog_events: number;
  packet_hops: number;
  /** Completion times of the messages (flows with a size), nearest-rank; null unless every one completed. */
  fct_median_ps: number | null;
  fct_p99_ps: number | null;
  max_fct_ps: number | null;
  mean_fct_ps: number | null;
  /** Frame bytes the roce flows sent again (go-back-N). */
  retransmitted_bytes: number;
  /** Deprecated names of goodput_bps and xoff_frames, kept one release (run.json lists them). */
  throughput_bps: number;
  xoff_sent: number;
}

export const METRIC_NAMES: (keyof PointMetrics)[] = [
  'goodput_bps', 'active_goodput_bps', 'min_flow_bps', 'victim_bps', 'delivered_bytes', 'drops_lossless', 'drops_lossy',
  'xoff_episodes', 'xoff_frames', 'pause_frames', 'paused_ps', 'cnms', 'ets_max_share_error_pp', 'jain', 'watchdog_events', 'packet_hops',
  'fct_median_ps', 'fct_p99_ps', 'max_fct_ps', 'mean_fct_ps', 'retransmitted_bytes',
  'throughput_bps', 'xoff_sent',
];

/** Sweep metrics renamed in this release -> their new names (run.json `deprecated`). */
export const DEPRECATED_METRICS: Record<string, string> = { throughput_bps: 'goodput_bps', xoff_sent: 'xoff_frames' };

export function pointMetrics(s: SimSummary): PointMetrics {
  const tput = s.flows.map((f) => f.throughput_bps);
  const victims = s.flows.filter((f) => f.victim);
  const done = completion(s.flows);
  const allDone = done.messages > 0 && done.finished === done.messages;
  // Everything delivered per second of run: a sum of per-flow figures with different windows
  // could exceed the link (converged-link: 10.65 G on 10 G); older summaries lack the total.
  const goodput = s.throughput?.goodput_bps ?? s.throughput?.total_bps ?? tput.reduce((a, b) => a + b, 0);
  const xoffFrames = s.pfc.xoff_frames ?? s.pfc.xoff_sent ?? 0;
  return {
    goodput_bps: goodput,
    active_goodput_bps: s.throughput?.active_goodput_bps ?? null,
    min_flow_bps: tput.length ? minOf(tput) : null,
    victim_bps: victims.length ? victims.reduce((a, f) => a + f.throughput_bps, 0) : null,
    delivered_bytes: s.flows.reduce((a, f) => a + f.bytes_delivered, 0),
    drops_lossless: s.drops.lossless,
    drops_lossy: s.drops.lossy,
    xoff_episodes: s.pfc.xoff_episodes ?? xoffFrames,
    xoff_frames: xoffFrames,
    pause_frames: s.pfc.pause_frames,
    paused_ps: s.pfc.paused_ps_by_priority.reduce((a, b) => a + b, 0),
    cnms: s.qcn.cnms,
    ets_max_share_error_pp: s.ets.max_share_error_pp,
    jain: s.fairness.jain,
    watchdog_events: s.watchdog.length,
    packet_hops: s.sim.packet_hops,
    fct_median_ps: allDone ? done.fct_median_ps : null,
    fct_p99_ps: allDone ? done.fct_p99_ps : null,
    max_fct_ps: allDone ? done.fct_max_ps : null,
    mean_fct_ps: allDone ? done.fct_mean_ps : null,
    retransmitted_bytes: s.flows.reduce((a, f) => a + (f.retransmitted_bytes ?? 0), 0),
    throughput_bps: goodput,
    xoff_sent: xoffFrames,
  };
}

export interface SweepRow { index: number; params: Record<string, ParamValue>; metrics: PointMetrics }
export interface SweepOutcome {
  rows: SweepRow[];
  summaries: SimSummary[];
  wall_s: number;
  jobs: number;
  /** Why fewer workers ran than --jobs asked for (absent when none were cut). */
  jobs_capped?: JobsCap;
}

/** The task a sweep worker receives; the worker's default export maps it to a SimSummary. */
export interface SweepTask { index: number; scenario: unknown; /** Threads of the point's run (default 1: the points run side by side instead). */ threads?: number }

export function defaultWorkerFile(): string {
  return join(packageRoot(), 'dist', 'host', 'sweep', 'sweep-worker.js');
}

export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

export interface JobsCap { requested: number; used: number; reason: string }

/**
 * Worker threads for a sweep: never more than the points (an idle worker only costs start-up) nor
 * than the threads the machine runs at once (each worker holds a Wasm instance; Node aborted with
 * `FATAL ERROR: v8::Module::IsGraphAsync` at --jobs 100). `cap` says why a request was cut.
 */
export function workerCount(requested: number | undefined, points: number, cores = defaultJobs()): { jobs: number; cap?: JobsCap } {
  const want = Math.max(1, Math.floor(requested ?? cores));
  const jobs = Math.max(1, Math.min(want, points, cores));
  if (requested === undefined || jobs === want) return { jobs };
  const reason = jobs === points && points < cores ? `the sweep has ${points} point${points === 1 ? '' : 's'}` : `the machine runs ${cores} thread${cores === 1 ? '' : 's'} at once (os.availableParallelism())`;
  return { jobs, cap: { requested: want, used: jobs, reason } };
}

/**
 * Runs every point on `jobs` worker threads and returns rows in grid order. `workerFile` is a
 * compiled ES module whose default export takes a SweepTask and returns (a promise of) the point's
 * SimSummary.
 */
export async function runSweep(
  points: readonly SweepPoint[],
  opts: { jobs?: number; workerFile?: string; json?: boolean; threads?: number } = {},
): Promise<SweepOutcome> {
  const { jobs, cap } = workerCount(opts.jobs, points.length);
  const pool = new Piscina({
    filename: pathToFileURL(opts.workerFile ?? defaultWorkerFile()).href,
    minThreads: jobs,
    maxThreads: jobs,
  });
  const bar = progress(points.length, { json: opts.json, label: 'sweep', unit: 'points' });
  const summaries: SimSummary[] = new Array(points.length);
  const started = performance.now();
  try {
    await Promise.all(
      points.map(async (p) => {
        try {
          summaries[p.index] = (await pool.run({ index: p.index, scenario: p.scenario, threads: opts.threads } satisfies SweepTask)) as SimSummary;
        } catch (e) {
          if (e instanceof Error) e.message = `sweep point ${p.index} (${JSON.stringify(p.params)}): ${e.message}`;
          throw e;
        }
        bar.tick();
      }),
    );
  } finally {
    bar.stop();
    await pool.destroy();
  }
  const wall_s = (performance.now() - started) / 1000;
  const rows = points.map((p) => ({ index: p.index, params: p.params, metrics: pointMetrics(summaries[p.index]) }));
  return cap ? { rows, summaries, wall_s, jobs, jobs_capped: cap } : { rows, summaries, wall_s, jobs };
}
