// Sharded sweeps: one grid split over machines (`sweep --shard I/N`), the shards merged back into
// exactly the files a one-machine sweep writes (`sweep-merge`), and `--resume`, which re-runs
// only the points whose results an earlier output in --out lacks.
//
// Split: grid point i belongs to shard i mod N (deterministic, and long grids spread evenly).
// Identity: a sweep is named by the SHA-256 of the SHA-256 of its scenario document (canonical
// JSON), its grid and its plot options, stored with the plan in run.json under "sweep"; merge
// refuses shard directories of different sweeps and --resume refuses an --out of another sweep.
// The id is recomputed from the plan's own fields when a directory is read, so an edited plan
// (a value of the grid changed in run.json) no longer matches its id and is refused.
// Binding: run.json's "point_sha256" holds, for each point summary, the SHA-256 of the sweep id,
// the point's index and parameters and the summary file's bytes (pointDigest), written with the
// summary and checked whenever one is read (merge: exit 2 naming the point; --resume: run again).
// So an edited value, two summaries swapped, or a summary of another sweep is refused. This
// catches damage and mistakes; it is no signature (anyone can recompute a digest).
// A shard directory is an output of `dcbkit sweep` (run.json, "generator": "dcbkit sweep"), so the
// project's output-dir rules (host/io/output.ts) accept it as an earlier output, and holds
//   run.json                      generator, "sweep" (id, params, metrics, x_unit, points, shard),
//                                 "point_wall_s" (each point's own wall time) and the wall figures
//   points/<index>.summary.json   its points' summaries, named with the full grid's width
// A merged (or one-machine) output has the same run.json keys plus the files of sweep-report.ts.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readInputText } from '../io/input.js';
import { join } from 'node:path';
import { InputError, type Problem } from '../errors/errors.js';
import { SWEEP_OUTPUT, writeTreeAtomicAsync } from '../io/output.js';
import { canonicalJson, deterministicSummary } from '../report/report.js';
import type { SimSummary } from '../sim/result.js';
import { sweepFiles, type XUnit } from '../report/sweep-report.js';
import { z } from 'zod';
import { METRIC_NAMES, gridValues, pointMetrics, type ParamValue, type PointMetrics, type SweepOutcome, type SweepParam, type SweepPoint } from './sweep.js';
import { toolVersions } from '../core/versions.js';

export interface ShardSpec { index: number; count: number }

/** What identifies a sweep, stored as run.json's "sweep" in every sweep output. */
export interface SweepPlan {
  id: string;
  /** SHA-256 of the scenario document (canonical JSON); part of the id. */
  scenario_sha256: string;
  params: { path: string; values: ParamValue[] }[];
  metrics: (keyof PointMetrics)[];
  x_unit: XUnit | null;
  points: number;
  /** Present in a shard's output only. */
  shard?: ShardSpec;
}

/** Entries of a sweep directory that a new output of the same sweep keeps (host/io/output.ts `keep`). */
export const KEPT_ENTRIES = ['slurm', 'k8s', 'shards'] as const;

/** Parses `--shard I/N` (0 <= I < N). */
export function parseShard(text: string, label = '--shard'): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new InputError({ path: label, rule: `"${text}" is not of the form I/N (shard I of N, I from 0)` });
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1) throw new InputError({ path: label, rule: `N must be at least 1 (got "${text}")` });
  if (index >= count) throw new InputError({ path: label, rule: `I must be below N: shards are numbered 0 to ${count - 1} (got "${text}")` });
  return { index, count };
}

/** The points of shard `s`: grid point i goes to shard i mod N. */
export function shardPoints<T extends { index: number }>(points: readonly T[], s: ShardSpec): T[] {
  return points.filter((p) => p.index % s.count === s.index);
}

export function sweepPlan(
  scenario: unknown, params: readonly SweepParam[], metrics: readonly (keyof PointMetrics)[], xUnit: XUnit | undefined, points: number,
): SweepPlan {
  // The scenario is known by its hash only (a fat tree's document runs to megabytes).
  const plan = {
    scenario_sha256: sha256(canonicalJson(scenario)), params: params.map((p) => ({ path: p.path, values: p.values })), metrics: [...metrics], x_unit: xUnit ?? null, points,
  };
  return { id: planId(plan), ...plan };
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The id a plan's fields give (what sweepPlan stores, and what a read plan is checked against). */
function planId(p: Pick<SweepPlan, 'scenario_sha256' | 'params' | 'metrics' | 'x_unit'>): string {
  return sha256(canonicalJson({ scenario: p.scenario_sha256, params: p.params, metrics: p.metrics, x_unit: p.x_unit }));
}

/** The digest binding point `index` of sweep `plan` to the bytes of its summary file (file comment). */
export function pointDigest(plan: Pick<SweepPlan, 'id' | 'params'>, index: number, summary: string | Uint8Array): string {
  const params = Object.fromEntries(plan.params.map((p, k) => [p.path, gridValues(plan.params, index)[k]]));
  return sha256(`${canonicalJson({ sweep: plan.id, point: index, params })}\n${sha256(summary)}`);
}

/** point_sha256 of run.json for the point summaries among `files` (relative path -> contents). */
function pointDigests(plan: SweepPlan, files: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < plan.points; i++) {
    const text = files.get(pointFile(i, plan.points));
    if (text !== undefined) out[String(i)] = pointDigest(plan, i, text);
  }
  return out;
}

/** Name of point i's summary in a sweep of `total` points (as sweep-report.ts names them). */
export function pointFile(index: number, total: number): string {
  return `points/${String(index).padStart(String(Math.max(0, total - 1)).length, '0')}.summary.json`;
}

interface SweepDirInfo { plan: SweepPlan; pointWall: Record<string, number>; pointSha: Record<string, string>; wall_s: number; jobs: number }

const count = (min: number) => z.number().int().min(min);
/** The "sweep" plan and the counts of a sweep's run.json, as sweep and sweep-merge write them. */
const sweepRunSchema = z.object({
  generator: z.literal(SWEEP_OUTPUT.generator),
  sweep: z.object({
    id: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex'),
    scenario_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex'),
    params: z.array(z.object({ path: z.string(), values: z.array(z.union([z.number(), z.string(), z.boolean()])).min(1) })),
    metrics: z.array(z.enum(METRIC_NAMES as [keyof PointMetrics, ...(keyof PointMetrics)[]])),
    x_unit: z.object({ label: z.string(), per: z.number().positive() }).nullable(),
    points: count(1),
    shard: z.object({ index: count(0), count: count(1) }).refine((s) => s.index < s.count, 'index must be below count').optional(),
  }).refine((p) => p.points === p.params.reduce((n, q) => n * q.values.length, 1), 'points must be the product of the parameters\' value counts')
    .refine((p) => p.id === planId(p), 'the plan does not match its id: the grid, metrics or scenario digest were edited after the sweep ran'),
  point_wall_s: z.record(z.string(), z.number().min(0)).optional(),
  point_sha256: z.record(z.string(), z.string()).optional(),
  wall_s: z.number().min(0).optional(),
  jobs: count(0).optional(), // 0 in the plan directory of --slurm / --k8s
});

/**
 * run.json of a sweep output that carries a plan; undefined when there is none (no file, another
 * command's, an older sweep's); a `field: rule` string when it is a sweep's run.json but damaged.
 */
export function readSweepDir(dir: string): SweepDirInfo | string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(readInputText(join(dir, SWEEP_OUTPUT.signature), join(dir, SWEEP_OUTPUT.signature)));
  } catch {
    return undefined;
  }
  const d = doc as { generator?: unknown; sweep?: unknown } | null;
  if (typeof d !== 'object' || d === null || d.generator !== SWEEP_OUTPUT.generator || typeof d.sweep !== 'object') return undefined;
  const r = sweepRunSchema.safeParse(doc);
  if (!r.success) {
    const i = r.error.issues[0];
    return `${i.path.join('.')}: ${i.message}`;
  }
  const v = r.data;
  return { plan: v.sweep as SweepPlan, pointWall: v.point_wall_s ?? {}, pointSha: v.point_sha256 ?? {}, wall_s: v.wall_s ?? 0, jobs: v.jobs ?? 1 };
}

/**
 * Point `index`'s summary as stored in `dir` (wall time from run.json): undefined when absent;
 * a `PointFault` when the file is there but not a summary whose metrics are numbers.
 */
export function readPointSummary(dir: string, info: SweepDirInfo, index: number): SimSummary | PointFault | undefined {
  const file = join(dir, pointFile(index, info.plan.points));
  if (!existsSync(file)) return undefined;
  let det: SimSummary;
  try {
    const text = readInputText(file, file);
    const recorded = info.pointSha[String(index)];
    if (recorded === undefined) return { fault: `point ${index}: run.json records no digest for it (point_sha256), so it cannot be told to belong to this sweep` };
    if (pointDigest(info.plan, index, text) !== recorded) {
      return { fault: `point ${index}: the summary does not match the digest run.json records for it: edited, moved from another point, or of another sweep` };
    }
    det = JSON.parse(text) as SimSummary;
    const bad = Object.entries(pointMetrics(det)).find(([, v]) => v !== null && !(typeof v === 'number' && Number.isFinite(v)));
    if (bad) return { fault: `its ${bad[0]} is not a number` };
    if (typeof det.sim.packet_hops !== 'number') return { fault: 'its sim.packet_hops is not a number' };
  } catch {
    return { fault: 'not a point summary of dcbkit sweep' };
  }
  const wall = info.pointWall[index] ?? 0;
  return { ...det, sim: { ...det.sim, wall_s: wall, packet_hops_per_s: wall > 0 ? det.sim.packet_hops / wall : 0 } };
}

/** Why a point summary on disk cannot be used. */
export interface PointFault { fault: string }
const isFault = (s: SimSummary | PointFault | undefined): s is PointFault => s !== undefined && 'fault' in s;

/**
 * For --resume: the summaries `outDir` already holds for `points` of the sweep `plan`. A missing or
 * empty directory holds none; one of another sweep is refused (exit 2), so a changed grid never
 * mixes with stale results.
 */
export function reusableSummaries(outDir: string, plan: SweepPlan, points: readonly SweepPoint[]): Map<number, SimSummary> {
  const found = new Map<number, SimSummary>();
  if (!existsSync(join(outDir, SWEEP_OUTPUT.signature))) return found;
  const info = readSweepDir(outDir);
  if (typeof info === 'string') throw new InputError({ path: '--resume', rule: `"${outDir}" holds a damaged sweep output (${info})` });
  if (!info) throw new InputError({ path: '--resume', rule: `"${outDir}" is not an output of a sweep that dcbkit can resume (no "sweep" plan in its run.json)` });
  if (info.plan.id !== plan.id) {
    throw new InputError({ path: '--resume', rule: `"${outDir}" holds another sweep (${info.plan.id.slice(0, 12)}, not ${plan.id.slice(0, 12)}): the scenario, the grid or the metric options differ` });
  }
  for (const p of points) {
    // A damaged point is run again, like a missing one.
    const s = readPointSummary(outDir, info, p.index);
    if (s && !isFault(s)) found.set(p.index, s);
  }
  return found;
}

function pointWalls(summaries: ReadonlyMap<number, SimSummary>): Record<string, number> {
  return Object.fromEntries([...summaries].map(([i, s]) => [String(i), s.sim.wall_s]));
}

/** Adds the plan and per-point wall times to the run.json of a full sweep's files. */
export function withPlan(files: Map<string, string>, plan: SweepPlan, summaries: ReadonlyMap<number, SimSummary>): Map<string, string> {
  const run = JSON.parse(files.get(SWEEP_OUTPUT.signature)!) as Record<string, unknown>;
  files.set(SWEEP_OUTPUT.signature, canonicalJson({ ...run, sweep: plan, point_wall_s: pointWalls(summaries), point_sha256: pointDigests(plan, files) }));
  return files;
}

/** Writes a shard's directory: its points' summaries and run.json with the plan (see file comment). */
export async function writeShard(outDir: string, plan: SweepPlan, summaries: ReadonlyMap<number, SimSummary>, wall_s: number, jobs: number): Promise<string[]> {
  const files = new Map<string, string>();
  for (const [i, s] of [...summaries].sort((a, b) => a[0] - b[0])) files.set(pointFile(i, plan.points), canonicalJson(deterministicSummary(s)));
  files.set(SWEEP_OUTPUT.signature, canonicalJson({
    generator: SWEEP_OUTPUT.generator, sweep: plan, point_wall_s: pointWalls(summaries), point_sha256: pointDigests(plan, files), wall_s, jobs,
    points: summaries.size, versions: toolVersions(),
  }));
  await writeTreeAtomicAsync(outDir, files, SWEEP_OUTPUT, '--out', KEPT_ENTRIES);
  return [...files.keys()].sort();
}

/** An outcome in grid order from summaries by point index (every index of the grid present). */
export function outcomeOf(points: readonly SweepPoint[], summaries: ReadonlyMap<number, SimSummary>, wall_s: number, jobs: number): SweepOutcome {
  const ordered = points.map((p) => summaries.get(p.index)!);
  return { rows: points.map((p, i) => ({ index: p.index, params: p.params, metrics: pointMetrics(ordered[i]) })), summaries: ordered, wall_s, jobs };
}

/** The grid of a plan again (same order as expandGrid), for merging without the scenario file. */
function planPoints(plan: SweepPlan): SweepPoint[] {
  const out: SweepPoint[] = [];
  for (let index = 0; index < plan.points; index++) {
    const chosen = gridValues(plan.params, index);
    // Keys in parameter order, as expandGrid names them (sweep.json lists them so).
    out.push({ index, params: Object.fromEntries(plan.params.map((p, k) => [p.path, chosen[k]])), scenario: null });
  }
  return out;
}

/**
 * `sweep-merge DIR... --out OUT`: checks that the directories are shards of one sweep that hold
 * every point exactly once (all problems at once, exit 2, nothing written), then writes OUT as a
 * one-machine sweep would. Returns the merged plan.
 */
export async function mergeShards(dirs: readonly string[], outDir: string): Promise<{ plan: SweepPlan; files: string[] }> {
  const problems: Problem[] = [];
  const infos: { dir: string; info: SweepDirInfo }[] = [];
  dirs.forEach((dir) => {
    const info = readSweepDir(dir);
    if (!info) problems.push({ path: dir, rule: 'not a dcbkit sweep output (no run.json with "generator": "dcbkit sweep" and a "sweep" plan)' });
    else if (typeof info === 'string') problems.push({ path: join(dir, SWEEP_OUTPUT.signature), rule: `a damaged sweep output (${info})` });
    else infos.push({ dir, info });
  });
  if (problems.length) throw new InputError(problems);
  const first = infos[0];
  for (const { dir, info } of infos.slice(1)) {
    if (info.plan.id !== first.info.plan.id) {
      problems.push({ path: dir, rule: `holds sweep ${info.plan.id.slice(0, 12)} but ${first.dir} holds sweep ${first.info.plan.id.slice(0, 12)}: shards of different sweeps (scenario, grid or metric options differ)` });
    }
  }
  if (problems.length) throw new InputError(problems);
  const plan = first.info.plan;
  const holder = new Map<number, string>();
  const summaries = new Map<number, SimSummary>();
  for (const { dir, info } of infos) {
    for (let i = 0; i < plan.points; i++) {
      const s = readPointSummary(dir, info, i);
      if (!s) continue;
      if (isFault(s)) {
        problems.push({ path: `${dir}/${pointFile(i, plan.points)}`, rule: s.fault });
        holder.set(i, dir); // said once, not again as missing
        continue;
      }
      const other = holder.get(i);
      if (other !== undefined) problems.push({ path: `${dir}/${pointFile(i, plan.points)}`, rule: `point ${i} is duplicated: ${other} holds it too` });
      else { holder.set(i, dir); summaries.set(i, s); }
    }
  }
  const missing = Array.from({ length: plan.points }, (_, i) => i).filter((i) => !holder.has(i));
  for (const i of missing) {
    const owner = plan.shard ? ` (shard ${i % plan.shard.count}/${plan.shard.count}; re-run it with --resume)` : '';
    problems.push({ path: `points[${i}]`, rule: `missing: no directory given holds it${owner}` });
  }
  if (problems.length) throw new InputError(problems);
  const points = planPoints(plan);
  // The shards ran side by side: the merged wall time is the longest shard's; jobs add up.
  const wall = Math.max(...infos.map((x) => x.info.wall_s));
  const jobs = infos.reduce((a, x) => a + x.info.jobs, 0);
  const params: SweepParam[] = plan.params.map((p) => ({ path: p.path, segments: [], values: p.values }));
  const fullPlan: SweepPlan = { id: plan.id, scenario_sha256: plan.scenario_sha256, params: plan.params, metrics: plan.metrics, x_unit: plan.x_unit, points: plan.points };
  const files = withPlan(await sweepFiles(params, outcomeOf(points, summaries, wall, jobs), plan.metrics, plan.x_unit ?? undefined), fullPlan, summaries);
  await writeTreeAtomicAsync(outDir, files, SWEEP_OUTPUT, '--out', KEPT_ENTRIES);
  return { plan: fullPlan, files: [...files.keys()].sort() };
}

/** What a cluster task needs to re-run this sweep's shards (absolute paths). */
export interface TaskPlan {
  scenario: string; params: readonly string[]; metrics: readonly string[]; xUnit?: XUnit;
  shards: number; dir: string; jobs: number;
}

/** Stands for the task's shard index inside argument templates (NUL cannot occur in a real argument). */
export const SHARD_INDEX = '\u0000';

/** `dcbkit` arguments of one shard task; SHARD_INDEX marks where the scheduler's index goes. */
export function shardTaskArgs(t: TaskPlan): string[] {
  return [
    'sweep', t.scenario, ...t.params.flatMap((p) => ['--param', p]), ...t.metrics.flatMap((m) => ['--metric', m]),
    ...(t.xUnit ? ['--x-unit', `${t.xUnit.label}=${t.xUnit.per}`] : []),
    '--shard', `${SHARD_INDEX}/${t.shards}`, '--out', join(t.dir, 'shards', SHARD_INDEX), '--jobs', String(t.jobs), '--resume',
  ];
}

/** `dcbkit` arguments of the merge task: every shard directory into the sweep directory. */
export function mergeTaskArgs(t: TaskPlan): string[] {
  return ['sweep-merge', ...Array.from({ length: t.shards }, (_, i) => join(t.dir, 'shards', String(i))), '--out', t.dir];
}
