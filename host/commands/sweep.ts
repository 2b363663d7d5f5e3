// `dcbkit sweep <scenario> --param P=a,b,c [--param Q=...] [--out DIR] [--jobs N] [--metric M] [--x-unit L=N] [--json]`:
// simulate every point of a parameter grid on worker threads and write one aggregate table and
// plots (docs/reports.md). Every point is checked before any runs, so bad input exits 2 with
// nothing written.
import { resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { InputError, type Problem } from '../errors/errors.js';
import { checkThreadsArg } from '../sim/partition.js';
import { checkScenario, readScenarioFile } from '../scenario/scenario.js';
import '../documents/scenario-kind.js'; // names the scenario in its unknown-key messages
import { canonicalJson } from '../report/report.js';
import { checkOutDir, SWEEP_OUTPUT } from '../io/output.js';
import { parseXUnit, sweepJson, type XUnit } from '../report/sweep-report.js';
import { defaultJobs, expandGrid, METRIC_NAMES, parseParams, runSweep, type PointMetrics, type SweepOutcome, type SweepParam, type SweepPoint } from '../sweep/sweep.js';
import { CLUSTER_OPTIONS, clusterSweep, isClusterSweep, writeFullSweep, type ClusterArgs } from './sweep-merge.js';
import { maxOf } from '../util/extent.js';
import { humanMetric } from '../report/completion.js';
import { exitStatusOf, onStopNow, reportInterrupted, withStopSignals } from '../io/signals.js';

export interface SweepOptions { params: string[]; jobs?: number; json?: boolean; workerFile?: string; xUnit?: XUnit }

/** Library form: validates every point, runs the grid, returns the parameters and the outcome. */
export async function sweepScenario(path: string, opts: SweepOptions): Promise<{ params: SweepParam[]; outcome: SweepOutcome }> {
  const { params, points } = prepareSweep(path, opts);
  const outcome = await runSweep(points, { jobs: opts.jobs, json: opts.json, workerFile: opts.workerFile });
  return { params, outcome };
}

/** Reads the scenario and expands the grid, checking every point before any runs (exit 2 on a bad one). */
export function prepareSweep(path: string, opts: Pick<SweepOptions, 'params' | 'xUnit'>): { doc: unknown; params: SweepParam[]; points: SweepPoint[] } {
  const doc = readScenarioFile(path);
  const params = parseParams(opts.params);
  // Checked before anything runs: an x axis in units needs numbers to divide.
  if (opts.xUnit && !params[0].values.every((v) => typeof v === 'number')) {
    throw new InputError({ path: '--x-unit', rule: `the first --param (${params[0].path}) has values that are not numbers` });
  }
  const points = expandGrid(doc, params);
  // Each problem once: at the --param whose value causes it (`--param[1]: defaults.link.speed=fast: ...`),
  // at its own path when every point has it (the scenario itself), else at the point that has it.
  const found = new Map<string, { problem: Problem; base?: Problem; points: number }>();
  for (const p of points) {
    let own: Problem[] = [];
    try {
      checkScenario(p.scenario);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      own = e.problems;
    }
    for (const pr of own) {
      const i = params.findIndex((q) => pr.path === q.path || pr.path.startsWith(`${q.path}.`) || pr.path.startsWith(`${q.path}[`));
      const where = Object.entries(p.params).map(([k, v]) => `${k}=${v}`).join(', ');
      const value = i >= 0 ? p.params[params[i].path] : undefined;
      const [key, entry] = i >= 0
        ? [`param\0${i}\0${value}\0${pr.path}\0${pr.rule}`, {
          problem: { path: `--param[${i}]`, rule: `${params[i].path}=${value}: ${pr.path === params[i].path ? '' : `${pr.path}: `}${pr.rule}` },
          points: 1,
        }]
        : [`path\0${pr.path}\0${pr.rule}`, { problem: { path: `point[${p.index}]${pr.path ? '.' + pr.path : ''}`, rule: `${pr.rule} (at ${where})` }, base: pr, points: 1 }];
      const seen = found.get(key);
      if (seen) seen.points++;
      else found.set(key, entry);
    }
  }
  const problems: Problem[] = [...found.values()].map(({ problem, base, points: n }) => (base && n === points.length ? base : problem));
  if (problems.length) throw new InputError(problems);
  return { doc, params, points };
}

/**
 * SIGINT (Ctrl-C) or SIGTERM while the points run, as `run` answers it: one line saying what was
 * under way and that nothing was written (the results are written only once every point has run,
 * so `--out DIR` is as it was; with --resume, what DIR already holds stays for the next --resume),
 * then exit 130 or 143 at once: the worker threads hold no output and end with the process. Needs
 * withStopSignals around the command; returns the function that ends this phase (the write that
 * follows stops at its own checks, host/io/output.ts).
 */
export function stopSweepAtOnce(what: () => string): () => void {
  const started = Date.now();
  onStopNow((signal) => {
    reportInterrupted(signal, `${((Date.now() - started) / 1000).toFixed(1)} s into ${what()}`);
    process.exit(exitStatusOf(signal));
  });
  return () => onStopNow(undefined);
}

/** The printed table: the usual columns plus every --metric chosen that is not among them. */
function humanTable(params: SweepParam[], outcome: SweepOutcome, metrics: readonly (keyof PointMetrics)[]): string {
  const usual: (keyof PointMetrics)[] = ['goodput_bps', 'drops_lossless', 'xoff_episodes', 'cnms', 'ets_max_share_error_pp'];
  const cols = [...usual, ...metrics.filter((m) => !usual.includes(m))];
  const head = ['#', ...params.map((p) => p.path), ...cols];
  const rows = outcome.rows.map((r) => [String(r.index), ...params.map((p) => String(r.params[p.path])), ...cols.map((c) => {
    const v = r.metrics[c];
    return v === null ? '-' : humanMetric(c, v);
  })]);
  const w = head.map((h, i) => maxOf(rows.map((r) => r[i].length), h.length));
  return [head, ...rows].map((r) => r.map((c, i) => c.padStart(w[i])).join('  ')).join('\n') + '\n';
}

type SweepCommandArgs = { scenario: string; param: string[]; out?: string; jobs?: number; threads?: number; metric?: string[]; 'x-unit'?: string; json?: boolean } & ClusterArgs;

export const sweepCommand: CommandModule<object, SweepCommandArgs> = {
  command: 'sweep <scenario>',
  describe: 'simulate a scenario over a grid of parameter values on all cores; aggregate table and plots',
  builder: (y) =>
    y
      .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario file (YAML or JSON)' })
      .option('param', { type: 'string', array: true, demandOption: true, describe: 'PATH=v1,v2,... (dotted scenario path); repeat for a grid' })
      .option('out', { type: 'string', describe: 'directory for sweep.csv, sweep.json, plots and per-point summaries' })
      .option('jobs', { type: 'number', describe: `worker threads (default ${defaultJobs()})` })
      .option('threads', { type: 'number', describe: 'threads of each point\'s run (default 1: points run side by side; jobs x threads should not exceed the cores)' })
      .option('metric', { type: 'string', array: true, describe: `metric(s) to plot, a comma-separated list or repeated (default goodput_bps, drops_lossless): ${METRIC_NAMES.join(', ')}` })
      .option('x-unit', { type: 'string', describe: 'LABEL=SIZE: plot the first parameter in units of SIZE (e.g. BDP=25000)' })
      .option('json', { type: 'boolean', describe: 'print the aggregate (sweep.json) on stdout' })
      .options(CLUSTER_OPTIONS) as never,
  handler: async (args) => {
    // `--metric a,b` and `--metric a --metric b` alike.
    const metrics = (args.metric ?? ['goodput_bps', 'drops_lossless']).flatMap((m) => m.split(',')).map((m) => m.trim()) as (keyof PointMetrics)[];
    const badMetric = metrics.filter((m) => !METRIC_NAMES.includes(m));
    if (badMetric.length) throw new InputError(badMetric.map((m) => ({ path: '--metric', rule: `unknown metric "${m}"; one of ${METRIC_NAMES.join(', ')}` })));
    if (args.jobs !== undefined && !(Number.isInteger(args.jobs) && args.jobs >= 1)) throw new InputError({ path: '--jobs', rule: 'a whole number of worker threads, at least 1' });
    checkThreadsArg(args.threads);
    const xUnit = args['x-unit'] === undefined ? undefined : parseXUnit(args['x-unit']);
    await withStopSignals(() => (isClusterSweep(args) ? clusterSweep(args, metrics, xUnit) : localSweep(args, metrics, xUnit)));
  },
};

/** `sweep` of the whole grid on this machine (no --shard, --resume or scheduler). */
async function localSweep(args: SweepCommandArgs, metrics: (keyof PointMetrics)[], xUnit: XUnit | undefined): Promise<void> {
  if (args.out !== undefined) checkOutDir(args.out, SWEEP_OUTPUT);
  const { doc, params, points } = prepareSweep(args.scenario, { params: args.param, xUnit });
  const released = stopSweepAtOnce(() => `a sweep of ${points.length} points (the finished ones are lost); nothing written${args.out ? `: ${args.out} is as it was` : ''}`);
  let outcome;
  try {
    outcome = await runSweep(points, { jobs: args.jobs, json: args.json, threads: args.threads });
  } finally {
    released();
  }
  const cap = outcome.jobs_capped;
  if (cap) process.stderr.write(`note: --jobs ${cap.requested} capped to ${cap.used}: ${cap.reason}\n`);
  if (args.out) await writeFullSweep(args.out, doc, params, outcome, metrics, xUnit);
  if (args.json) {
    // The cap depends on the machine, so it joins stdout only; sweep.json stays machine-independent.
    process.stdout.write(canonicalJson(cap ? { ...sweepJson(params, outcome.rows), jobs_capped: cap } : sweepJson(params, outcome.rows)));
    return;
  }
  process.stdout.write(humanTable(params, outcome, metrics));
  const pointsWall = outcome.summaries.reduce((a, x) => a + x.sim.wall_s, 0);
  process.stdout.write(`${outcome.rows.length} points on ${outcome.jobs} jobs in ${outcome.wall_s.toFixed(2)} s (points' own time ${pointsWall.toFixed(2)} s: concurrency ${(pointsWall / outcome.wall_s).toFixed(2)})\n`);
  if (args.out) process.stdout.write(`aggregate: ${resolve(args.out, 'sweep.csv')}\n`);
}
