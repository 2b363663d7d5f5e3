// Slurm job scripts of a sharded sweep (`dcbkit sweep ... --slurm --shards N --out DIR`):
//   DIR/slurm/array.sbatch   a job array --array=0-(N-1); task i runs shard i/N with --resume into
//                            DIR/shards/i, log DIR/slurm/shard-<i>.out
//   DIR/slurm/merge.sbatch   sweep-merge of DIR/shards/* into DIR, log DIR/slurm/merge.out
// and, with --submit, their submission (the merge with --dependency=afterok:<array job>).
// Quoting: every shell word of the scripts is single-quoted; the task index is the only expansion
// ("$SLURM_ARRAY_TASK_ID"). #SBATCH lines are read by sbatch, not a shell, so the values that go
// there (paths, partition, time) are checked against plain character sets instead. sbatch runs via
// execFile (no shell).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { InputError, OutputError, type Problem } from '../errors/errors.js';
import { mergeTaskArgs, SHARD_INDEX, shardTaskArgs, type TaskPlan } from './shard.js';

export interface SlurmOptions { partition?: string; time?: string; cpusPerTask?: number }
/** Absolute paths of the node binary and of this dcbkit's CLI script, as the tasks run them. */
export interface Runtime { node: string; cli: string }

/** Characters allowed in a path or value on an #SBATCH line (no spaces, quotes, or Slurm's `%` patterns). */
const SBATCH_SAFE = /^[A-Za-z0-9_./+,=@:-]+$/;

/** Every problem with the Slurm flags and the output path, at once. */
export function checkSlurmOptions(o: SlurmOptions, dir: string): void {
  const problems: Problem[] = [];
  if (!SBATCH_SAFE.test(dir)) problems.push({ path: '--out', rule: `"${dir}": with --slurm the path may hold only letters, digits and _ . / + , = @ : - (it goes on #SBATCH lines, which sbatch reads without a shell)` });
  if (o.partition !== undefined && !/^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$/.test(o.partition)) problems.push({ path: '--partition', rule: `"${o.partition}" is not a partition name (letters, digits, _ . -; several separated by commas)` });
  if (o.time !== undefined && !/^(\d+-)?\d+(:\d+){0,2}$/.test(o.time)) problems.push({ path: '--time', rule: `"${o.time}" is not a Slurm time limit (MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS)` });
  if (o.cpusPerTask !== undefined && !(Number.isInteger(o.cpusPerTask) && o.cpusPerTask >= 1)) problems.push({ path: '--cpus-per-task', rule: 'a whole number of CPUs, at least 1' });
  if (problems.length) throw new InputError(problems);
}

/** One shell word: single-quoted, with the shard index (SHARD_INDEX) expanded from Slurm's variable. */
export function shellWord(arg: string): string {
  return arg.split(SHARD_INDEX).map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join('"$SLURM_ARRAY_TASK_ID"');
}

function script(directives: string[], argv: string[]): string {
  return [
    '#!/bin/sh',
    ...directives.map((d) => `#SBATCH ${d}`),
    '# Written by dcbkit sweep --slurm; every word below is quoted (no expansion but the array index).',
    'set -e',
    `exec ${argv.map(shellWord).join(' ')}`,
    '',
  ].join('\n');
}

/** The two scripts, as text (DIR/slurm/array.sbatch and DIR/slurm/merge.sbatch). */
export function slurmScripts(t: TaskPlan, o: SlurmOptions, rt: Runtime): { array: string; merge: string } {
  const common = [
    ...(o.partition ? [`--partition=${o.partition}`] : []),
    ...(o.time ? [`--time=${o.time}`] : []),
  ];
  const logs = join(t.dir, 'slurm');
  const array = script(
    ['--job-name=dcbkit-sweep', `--array=0-${t.shards - 1}`, `--cpus-per-task=${o.cpusPerTask ?? 1}`, `--output=${logs}/shard-%a.out`, `--chdir=${t.dir}`, ...common],
    [rt.node, rt.cli, ...shardTaskArgs(t)],
  );
  const merge = script(
    ['--job-name=dcbkit-sweep-merge', '--cpus-per-task=1', `--output=${logs}/merge.out`, `--chdir=${t.dir}`, ...common],
    [rt.node, rt.cli, ...mergeTaskArgs(t)],
  );
  return { array, merge };
}

function sbatch(args: string[]): string {
  let out: string;
  try {
    out = execFileSync('sbatch', ['--parsable', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new OutputError({ path: '--submit', rule: `sbatch ${args.join(' ')} failed: ${(err.stderr || err.message).trim()}` });
  }
  // --parsable prints "jobid" or "jobid;cluster".
  const id = out.trim().split(';')[0];
  if (!/^\d+$/.test(id)) throw new OutputError({ path: '--submit', rule: `sbatch printed "${out.trim()}", not a job id` });
  return id;
}

/** Submits the array, then the merge depending on it; returns both job ids. */
export function submitSlurm(dir: string): { array_job_id: string; merge_job_id: string } {
  const array_job_id = sbatch([join(dir, 'slurm', 'array.sbatch')]);
  const merge_job_id = sbatch([`--dependency=afterok:${array_job_id}`, join(dir, 'slurm', 'merge.sbatch')]);
  return { array_job_id, merge_job_id };
}
