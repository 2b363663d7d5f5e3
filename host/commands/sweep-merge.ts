// The multi-machine side of `dcbkit sweep` (docs/sim.md "Sweeps on many machines"):
//   sweep ... --shard I/N --out DIR [--resume]    run one shard of the grid (host/sweep/shard.ts)
//   sweep ... --resume --out DIR                  run only the points DIR lacks, write the full sweep
//   sweep ... --slurm --shards N --out DIR [--submit] [--partition P] [--time T] [--cpus-per-task C]
//   sweep ... --k8s --shards N --out DIR --volume-claim NAME [--image I]
//   sweep-merge DIR... --out DIR                  shards -> the files a one-machine sweep writes
// Every flag is checked before anything runs or is written (exit 2, `--flag: rule`).
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { CommandModule, Options } from 'yargs';
import { InputError, type Problem } from '../errors/errors.js';
import { checkOutDir, SWEEP_OUTPUT, writeTreeAtomic, writeTreeAtomicAsync } from '../io/output.js';
import { packageRoot } from '../core/loader.js';
import { canonicalJson } from '../report/report.js';
import type { SimSummary } from '../sim/result.js';
import { checkK8sOptions, K8S_MOUNT, k8sFiles } from '../sweep/k8s.js';
import {
  KEPT_ENTRIES, mergeShards, outcomeOf, parseShard, readSweepDir, reusableSummaries, shardPoints, sweepPlan, withPlan, writeShard,
  type SweepPlan, type TaskPlan,
} from '../sweep/shard.js';
import { checkSlurmOptions, slurmScripts, submitSlurm } from '../sweep/slurm.js';
import { sweepFiles, sweepJson, type XUnit } from '../report/sweep-report.js';
import { runSweep, type PointMetrics, type SweepOutcome, type SweepParam } from '../sweep/sweep.js';
import { toolVersions } from '../core/versions.js';
import { prepareSweep, stopSweepAtOnce } from './sweep.js';
import { withStopSignals } from '../io/signals.js';

export interface ClusterArgs {
  shard?: string; resume?: boolean; slurm?: boolean; k8s?: boolean; shards?: number; submit?: boolean;
  partition?: string; time?: string; 'cpus-per-task'?: number; 'volume-claim'?: string; image?: string;
}

export const CLUSTER_OPTIONS: Record<string, Options> = {
  shard: { type: 'string', describe: 'I/N: run only shard I (from 0) of N: grid point i belongs to shard i mod N (needs --out)' },
  resume: { type: 'boolean', describe: 'keep the points --out already holds for this sweep; run only the missing ones' },
  slurm: { type: 'boolean', describe: 'write DIR/slurm/array.sbatch (one task per shard) and merge.sbatch instead of running' },
  k8s: { type: 'boolean', describe: 'write DIR/k8s/ an Indexed Job (one pod per shard) and a merge Job instead of running' },
  shards: { type: 'number', describe: 'number of shards for --slurm / --k8s' },
  submit: { type: 'boolean', describe: 'with --slurm: submit both scripts with sbatch (merge after the array succeeds); print the job ids' },
  partition: { type: 'string', describe: 'with --slurm: Slurm partition' },
  time: { type: 'string', describe: 'with --slurm: time limit per task (e.g. 30:00)' },
  'cpus-per-task': { type: 'number', describe: 'with --slurm: CPUs (worker threads) per shard task (default 1)' },
  'volume-claim': { type: 'string', describe: 'with --k8s: PersistentVolumeClaim holding the sweep directory (mounted at /data)' },
  image: { type: 'string', describe: 'with --k8s: container image with dcbkit on its PATH (default dcbkit:<version>)' },
};

export function isClusterSweep(a: ClusterArgs): boolean {
  return a.shard !== undefined || !!a.resume || !!a.slurm || !!a.k8s || a.shards !== undefined || !!a.submit ||
    a.partition !== undefined || a.time !== undefined || a['cpus-per-task'] !== undefined || a['volume-claim'] !== undefined || a.image !== undefined;
}

/** Which flags need which: all problems at once. */
function checkCombination(a: ClusterArgs & { out?: string }): void {
  const problems: Problem[] = [];
  const needs = (flag: string, given: boolean, rule: string) => { if (given) problems.push({ path: flag, rule }); };
  const scheduler = a.slurm || a.k8s;
  needs('--slurm', !!(a.slurm && a.k8s), 'give either --slurm or --k8s, not both');
  needs('--shard', a.shard !== undefined && !!scheduler, 'the scheduler picks the shard of each task: drop --shard with --slurm or --k8s');
  needs('--out', a.out === undefined, 'give --out DIR: shards, resumed sweeps and cluster scripts are written there');
  needs('--shards', !!scheduler && !(Number.isInteger(a.shards) && a.shards! >= 1 && a.shards! <= 100000), 'with --slurm or --k8s give --shards N, a whole number from 1 to 100000');
  needs('--shards', a.shards !== undefined && !scheduler, 'only with --slurm or --k8s');
  for (const f of ['submit', 'partition', 'time', 'cpus-per-task'] as const) needs(`--${f}`, a[f] !== undefined && !a.slurm, 'only with --slurm');
  for (const f of ['volume-claim', 'image'] as const) needs(`--${f}`, a[f] !== undefined && !a.k8s, 'only with --k8s');
  needs('--volume-claim', !!a.k8s && a['volume-claim'] === undefined, 'with --k8s name the PersistentVolumeClaim that holds the sweep directory');
  if (problems.length) throw new InputError(problems);
}

type SweepArgs = ClusterArgs & { scenario: string; param: string[]; out?: string; jobs?: number; json?: boolean };

/** `sweep --out` of a whole grid: sweep-report's files, run.json carrying the plan (for --resume and merge). */
export async function writeFullSweep(
  outDir: string, doc: unknown, params: SweepParam[], outcome: SweepOutcome, metrics: (keyof PointMetrics)[], xUnit: XUnit | undefined,
): Promise<void> {
  const plan = sweepPlan(doc, params, metrics, xUnit, outcome.rows.length);
  const byIndex = new Map(outcome.rows.map((r, i) => [r.index, outcome.summaries[i]]));
  await writeTreeAtomicAsync(outDir, withPlan(await sweepFiles(params, outcome, metrics, xUnit), plan, byIndex), SWEEP_OUTPUT, '--out', KEPT_ENTRIES);
}

export async function clusterSweep(args: SweepArgs, metrics: (keyof PointMetrics)[], xUnit: XUnit | undefined): Promise<void> {
  checkCombination(args);
  const out = args.out!;
  const shard = args.shard === undefined ? undefined : parseShard(args.shard);
  if (args.slurm) checkSlurmOptions({ partition: args.partition, time: args.time, cpusPerTask: args['cpus-per-task'] }, resolve(out));
  const k8s = args.k8s ? { volumeClaim: args['volume-claim']!, image: args.image ?? `dcbkit:${toolVersions().dcbkit}`, name: '' } : undefined;
  if (k8s) checkK8sOptions(k8s);
  checkOutDir(out, SWEEP_OUTPUT);
  const { doc, params, points } = prepareSweep(args.scenario, { params: args.param, xUnit });
  const plan = sweepPlan(doc, params, metrics, xUnit, points.length);
  if (args.slurm || k8s) {
    const task: TaskPlan = {
      scenario: resolve(args.scenario), params: args.param, metrics, xUnit, shards: args.shards!, dir: resolve(out), jobs: args['cpus-per-task'] ?? 1,
    };
    if (k8s) k8s.name = `dcbkit-sweep-${plan.id.slice(0, 12)}`;
    writePlanDir(out, plan, args.slurm
      ? (() => {
        const s = slurmScripts(task, { partition: args.partition, time: args.time, cpusPerTask: args['cpus-per-task'] }, { node: process.execPath, cli: join(packageRoot(), 'dist', 'host', 'cli', 'main.js') });
        return new Map([['slurm/array.sbatch', s.array], ['slurm/merge.sbatch', s.merge]]);
      })()
      : k8sFiles(task, doc, k8s!));
    if (args.slurm && args.submit) {
      const ids = submitSlurm(resolve(out));
      process.stdout.write(args.json ? JSON.stringify(ids) + '\n' : `submitted: array job ${ids.array_job_id} (${args.shards} shards), merge job ${ids.merge_job_id} (after the array succeeds)\n`);
    } else if (args.slurm) {
      process.stdout.write(`wrote ${join(out, 'slurm', 'array.sbatch')} and merge.sbatch: submit with\n  sbatch ${join(out, 'slurm', 'array.sbatch')}\n  sbatch --dependency=afterok:<array job id> ${join(out, 'slurm', 'merge.sbatch')}\n`);
    } else {
      process.stdout.write(`wrote ${join(out, 'k8s')}/: with the claim ${k8s!.volumeClaim} holding this directory as ${K8S_MOUNT}/${basename(resolve(out))}, run\n` +
        `  kubectl apply -f ${join(out, 'k8s', 'sweep-job.yaml')}\n  kubectl wait --for=condition=complete --timeout=-1s job/${k8s!.name}\n  kubectl apply -f ${join(out, 'k8s', 'merge-job.yaml')}\n`);
    }
    return;
  }
  const mine = shard ? shardPoints(points, shard) : points;
  const summaries: Map<number, SimSummary> = args.resume ? reusableSummaries(out, plan, mine) : new Map();
  const reused = summaries.size;
  const todo = mine.filter((p) => !summaries.has(p.index));
  const released = stopSweepAtOnce(() => `${shard ? `shard ${shard.index}/${shard.count}` : 'a sweep'}: ${todo.length} points to run, ${reused} kept from ${out} ` +
    `(the finished ones are lost); nothing written: ${out} is as it was${args.resume ? `, and the next --resume keeps its ${reused} points again` : ''}`);
  let outcome;
  try {
    outcome = await runSweep(todo, { jobs: args.jobs, json: args.json });
  } finally {
    released();
  }
  for (const r of outcome.rows) summaries.set(r.index, outcome.summaries[r.index]);
  let rows;
  if (shard) {
    await writeShard(out, { ...plan, shard }, summaries, outcome.wall_s, outcome.jobs);
    rows = outcomeOf(mine, summaries, outcome.wall_s, outcome.jobs).rows;
  } else {
    const full = outcomeOf(points, summaries, outcome.wall_s, outcome.jobs);
    await writeFullSweep(out, doc, params, full, metrics, xUnit);
    rows = full.rows;
  }
  if (args.json) {
    process.stdout.write(canonicalJson(sweepJson(params, rows)));
    return;
  }
  const what = shard ? `shard ${shard.index}/${shard.count}: ${mine.length} of ${points.length} points` : `${points.length} points`;
  process.stdout.write(`${what}: ran ${outcome.rows.length}, kept ${reused} from ${out}, in ${outcome.wall_s.toFixed(2)} s on ${outcome.jobs} jobs\n`);
}

/** DIR of --slurm / --k8s: run.json with the plan beside the scripts; shards of the same sweep kept for resubmission. */
function writePlanDir(out: string, plan: SweepPlan, files: Map<string, string>): void {
  const before = existsSync(join(out, SWEEP_OUTPUT.signature)) ? readSweepDir(out) : undefined;
  const same = typeof before === 'object' && before.plan.id === plan.id;
  files.set(SWEEP_OUTPUT.signature, canonicalJson({ generator: SWEEP_OUTPUT.generator, sweep: plan, point_wall_s: {}, wall_s: 0, jobs: 0, points: 0 }));
  writeTreeAtomic(out, files, SWEEP_OUTPUT, '--out', same ? ['shards'] : []);
}

export const sweepMergeCommand: CommandModule<object, { dirs: string[]; out: string; json?: boolean }> = {
  command: 'sweep-merge <dirs..>',
  describe: 'merge the shard directories of one sweep (sweep --shard I/N) into the files a one-machine sweep writes',
  builder: (y) =>
    y
      .positional('dirs', { type: 'string', array: true, demandOption: true, describe: 'shard output directories' })
      .option('out', { type: 'string', demandOption: true, describe: 'directory for the merged sweep (sweep.csv, sweep.json, plots, points/)' })
      .option('json', { type: 'boolean', describe: 'print the aggregate (sweep.json) on stdout' }) as never,
  handler: async (args) => {
    checkOutDir(args.out, SWEEP_OUTPUT);
    const merged = await withStopSignals(() => mergeShards(args.dirs, args.out));
    if (!merged) return; // stopped by a signal: said, nothing written
    const { plan, files } = merged;
    if (args.json) process.stdout.write(readFileSync(join(args.out, 'sweep.json'), 'utf8'));
    else process.stdout.write(`merged ${plan.points} points from ${args.dirs.length} directories into ${args.out} (${files.length} files)\n`);
  },
};
