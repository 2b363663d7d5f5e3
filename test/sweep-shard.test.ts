// Sharded sweeps end to end: shards merged by `sweep-merge` give exactly the files of a
// one-machine `sweep --jobs 1` (run.json aside); merge refuses what is not one whole sweep; --resume
// runs only the points --out lacks; the Slurm scripts' words survive a real shell unchanged; the
// Kubernetes Jobs carry the indexed shard command.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { listFilesRecursive } from '../host/io/output.js';
import { packageRoot } from '../host/core/loader.js';
import { parseShard, SHARD_INDEX, shardPoints } from '../host/sweep/shard.js';
import { shellWord } from '../host/sweep/slurm.js';
import { inputErrorOf, runCli, runCliAsync } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-sweep-shard-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const grid = ['test/fixtures/sweep-tiny.yaml', '--param', 'traffic.flows.0.rate=1G,2G,4G', '--param', 'seed=1,2', '--metric', 'throughput_bps', '--metric', 'jain'];
const one = join(tmp, 'one');
const shard = (i: number) => join(tmp, `shard${i}`);

beforeAll(async () => {
  const runs = await Promise.all([
    runCliAsync(['sweep', ...grid, '--jobs', '1', '--out', one]),
    ...[0, 1, 2, 3].map((i) => runCliAsync(['sweep', ...grid, '--jobs', '1', '--shard', `${i}/4`, '--out', shard(i)])),
  ]);
  for (const r of runs) expect(r.stderr).toBe('');
}, 120_000);

const read = (dir: string, f: string) => readFileSync(join(dir, f), 'utf8');

describe('sweep --shard and sweep-merge', () => {
  it('splits point i to shard i mod N, and parses I/N strictly', () => {
    const pts = Array.from({ length: 7 }, (_, index) => ({ index }));
    expect(shardPoints(pts, parseShard('1/3')).map((p) => p.index)).toEqual([1, 4]);
    expect(listFilesRecursive(shard(1))).toEqual(['points/1.summary.json', 'points/5.summary.json', 'run.json']);
    expect(inputErrorOf(() => parseShard('3/3')).problems[0].path).toBe('--shard');
    expect(inputErrorOf(() => parseShard('1-3')).message).toMatch(/^--shard: "1-3" is not of the form I\/N/);
  });

  it('merges 4 shards (given in any order) into the files of sweep --jobs 1, byte for byte but run.json', async () => {
    const merged = join(tmp, 'merged');
    const r = runCli(['sweep-merge', shard(2), shard(0), shard(3), shard(1), '--out', merged]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const files = listFilesRecursive(one);
    expect(listFilesRecursive(merged)).toEqual(files);
    expect(files).toContain('sweep-jain.svg');
    for (const f of files.filter((x) => x !== 'run.json')) expect(read(merged, f), f).toBe(read(one, f));
    // Both carry the same sweep plan, so either can be resumed or merged again.
    expect(JSON.parse(read(merged, 'run.json')).sweep).toEqual(JSON.parse(read(one, 'run.json')).sweep);
  });

  it('refuses a missing point, a duplicated point, another sweep, a foreign directory: exit 2, nothing written', async () => {
    const out = join(tmp, 'refused');
    const other = join(tmp, 'other');
    expect(runCli(['sweep', 'test/fixtures/sweep-tiny.yaml', '--param', 'seed=1,2', '--shard', '0/4', '--out', other]).status).toBe(0);
    const cases: [string[], RegExp][] = [
      [[shard(0), shard(1), shard(2)], /^points\[3\]: missing: no directory given holds it \(shard 3\/4; re-run it with --resume\)$/m],
      [[shard(0), shard(1), shard(2), shard(3), one], /^.*\/one\/points\/0\.summary\.json: point 0 is duplicated: .*shard0 holds it too$/m],
      [[shard(0), other], /^.*\/other: holds sweep [0-9a-f]{12} but .*shard0 holds sweep [0-9a-f]{12}: shards of different sweeps/m],
      [[shard(0), 'test/fixtures'], /^test\/fixtures: not a dcbkit sweep output/m],
    ];
    for (const [dirs, re] of cases) {
      const r = await runCliAsync(['sweep-merge', ...dirs, '--out', out]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('refuses a damaged shard, naming the file and what is wrong; --resume re-runs a damaged point', async () => {
    const out = join(tmp, 'damaged');
    const copy = (name: string, edit: (dir: string) => void) => {
      const dir = join(tmp, name);
      cpSync(shard(0), dir, { recursive: true });
      edit(dir);
      return dir;
    };
    const editJson = (file: string, f: (d: any) => void) => { const d = JSON.parse(readFileSync(file, 'utf8')); f(d); writeFileSync(file, JSON.stringify(d)); };
    const rest = [shard(1), shard(2), shard(3)];
    // A plan with words for numbers used to merge into an empty sweep.csv ("merged x points").
    const words = copy('words', (d) => editJson(join(d, 'run.json'), (j) => { j.sweep.points = 'x'; j.sweep.shard.count = 'x'; }));
    const grid6 = copy('grid6', (d) => editJson(join(d, 'run.json'), (j) => { j.sweep.points = 7; }));
    const noise = copy('noise', (d) => writeFileSync(join(d, 'points', '0.summary.json'), '\u0000\u00ff{'));
    const typed = copy('typed', (d) => editJson(join(d, 'points', '0.summary.json'), (j) => { j.drops.lossless = 'x'; }));
    const cases: [string, RegExp][] = [
      [words, /^.*\/words\/run\.json: a damaged sweep output \(sweep\.points: .*expected number.*\)$/m],
      [grid6, /^.*\/grid6\/run\.json: a damaged sweep output \(sweep: points must be the product of the parameters' value counts\)$/m],
      // a summary whose bytes changed no longer matches the digest the shard run recorded (host/sweep/shard.ts)
      [noise, /^.*\/noise\/points\/0\.summary\.json: point 0: the summary does not match the digest run\.json records for it: edited, moved from another point, or of another sweep$/m],
      [typed, /^.*\/typed\/points\/0\.summary\.json: point 0: the summary does not match the digest run\.json records for it/m],
    ];
    for (const [dir, re] of cases) {
      const r = await runCliAsync(['sweep-merge', dir, ...rest, '--out', out]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stderr).not.toMatch(/missing/);
      expect(existsSync(out)).toBe(false);
    }
    // --resume treats a damaged point as missing: it runs it again.
    const r = runCli(['sweep', ...grid, '--shard', '0/4', '--out', typed, '--resume']);
    expect(r.stdout).toMatch(/^shard 0\/4: 2 of 6 points: ran 1, kept 1 from /);
    expect(read(typed, 'points/0.summary.json')).toBe(read(shard(0), 'points/0.summary.json'));
  });

  it('--resume runs only the points --out lacks, accepts a shard directory, and refuses another sweep', () => {
    const dir = join(tmp, 'resume');
    expect(runCli(['sweep', ...grid, '--shard', '1/2', '--out', dir]).status).toBe(0);
    const before = read(dir, 'points/3.summary.json');
    rmSync(join(dir, 'points', '3.summary.json'));
    const r = runCli(['sweep', ...grid, '--shard', '1/2', '--out', dir, '--resume']);
    expect(r.stdout).toMatch(/^shard 1\/2: 3 of 6 points: ran 1, kept 2 from /);
    expect(read(dir, 'points/3.summary.json')).toBe(before);
    expect(read(dir, 'points/1.summary.json')).toBe(read(one, 'points/1.summary.json'));
    // A whole sweep resumed over a complete output runs nothing and rewrites the same files.
    const full = join(tmp, 'full');
    expect(runCli(['sweep-merge', shard(0), shard(1), shard(2), shard(3), '--out', full]).status).toBe(0);
    expect(runCli(['sweep', ...grid, '--out', full, '--resume']).stdout).toMatch(/^6 points: ran 0, kept 6 from /);
    expect(read(full, 'sweep.csv')).toBe(read(one, 'sweep.csv'));
    const bad = runCli(['sweep', 'test/fixtures/sweep-tiny.yaml', '--param', 'seed=1,2,3', '--shard', '1/2', '--out', dir, '--resume']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^--resume: ".*resume" holds another sweep .*: the scenario, the grid or the metric options differ$/m);
  });
});

describe('sweep --slurm and --k8s (scripts only)', () => {
  it('shell words come back from sh exactly, quotes and $(...) included; only the array index expands', () => {
    for (const arg of [`it's`, 'a$(touch /tmp/x)b', '`id`', 'x"y\\z', `--out /d/${SHARD_INDEX}/e`, '']) {
      const r = spawnSync('sh', ['-c', `printf '%s' ${shellWord(arg)}`], { env: { ...process.env, SLURM_ARRAY_TASK_ID: '7' }, encoding: 'utf8' });
      expect(r.stdout).toBe(arg.split(SHARD_INDEX).join('7'));
    }
  });

  it('writes array.sbatch and merge.sbatch with absolute paths, the array range, logs under DIR/slurm', () => {
    const dir = join(tmp, 'slurm-plan');
    const r = runCli(['sweep', ...grid, '--slurm', '--shards', '4', '--out', dir, '--partition', 'batch', '--time', '10:00', '--cpus-per-task', '2']);
    expect(r.status).toBe(0);
    const array = read(dir, 'slurm/array.sbatch');
    for (const line of ['#SBATCH --array=0-3', '#SBATCH --cpus-per-task=2', '#SBATCH --partition=batch', '#SBATCH --time=10:00', `#SBATCH --output=${dir}/slurm/shard-%a.out`]) {
      expect(array.split('\n')).toContain(line);
    }
    const exec = array.split('\n').find((l) => l.startsWith('exec '))!;
    expect(exec).toContain(`'${process.execPath}' '${join(packageRoot(), 'dist', 'host', 'cli', 'main.js')}' 'sweep' '${join(packageRoot(), 'test/fixtures/sweep-tiny.yaml')}'`);
    expect(exec).toContain(`'--shard' ''"$SLURM_ARRAY_TASK_ID"'/4' '--out' '${dir}/shards/'"$SLURM_ARRAY_TASK_ID"''`);
    expect(read(dir, 'slurm/merge.sbatch')).toContain(`'sweep-merge' '${dir}/shards/0' '${dir}/shards/1' '${dir}/shards/2' '${dir}/shards/3' '--out' '${dir}'`);
    const bad = runCli(['sweep', ...grid, '--slurm', '--out', join(tmp, 'a b'), '--time', 'soon', '--image', 'x']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^--shards: with --slurm or --k8s give --shards N/m);
    expect(bad.stderr).toMatch(/^--image: only with --k8s$/m);
  });

  it('the commands of the Slurm scripts, run by hand, leave DIR as sweep --jobs 1 with slurm/ and shards/ kept', async () => {
    const dir = join(tmp, 'by-hand');
    expect(runCli(['sweep', ...grid, '--slurm', '--shards', '2', '--out', dir]).status).toBe(0);
    const words = (file: string) => {
      const exec = read(dir, file).split('\n').find((l) => l.startsWith('exec '))!.slice(5);
      return (i: number) => spawnSync('sh', ['-c', `printf '%s\\0' ${exec}`], { env: { ...process.env, SLURM_ARRAY_TASK_ID: String(i) }, encoding: 'utf8' }).stdout.split('\0').slice(2, -1);
    };
    for (const i of [0, 1]) expect((await runCliAsync(words('slurm/array.sbatch')(i))).status).toBe(0);
    expect((await runCliAsync(words('slurm/merge.sbatch')(0))).status).toBe(0);
    expect(read(dir, 'sweep.csv')).toBe(read(one, 'sweep.csv'));
    expect(listFilesRecursive(dir).filter((f) => /^(slurm|shards)\//.test(f) && !f.includes('/points/'))).toEqual([
      'shards/0/run.json', 'shards/1/run.json', 'slurm/array.sbatch', 'slurm/merge.sbatch',
    ]);
  });

  it('writes an Indexed Job taking the shard from JOB_COMPLETION_INDEX, and a merge Job, on the named claim', () => {
    const dir = join(tmp, 'k8s-plan');
    const seedFirst = ['test/fixtures/sweep-tiny.yaml', '--param', 'seed=1,2', '--param', 'traffic.flows.0.rate=1G,2G,4G', '--metric', 'throughput_bps', '--metric', 'jain'];
    const r = runCli(['sweep', ...seedFirst, '--x-unit', 'R$(HOME)=1e9', '--k8s', '--shards', '3', '--out', dir, '--volume-claim', 'sweeps', '--image', 'reg.example/dcbkit:1']);
    expect(r.stderr).toBe('');
    type Job = { kind: string; spec: { completionMode?: string; completions: number; template: { spec: { containers: { image: string; command: string[]; args: string[] }[]; volumes: { persistentVolumeClaim: { claimName: string } }[] } } } };
    const job = parse(read(dir, 'k8s/sweep-job.yaml')) as Job;
    expect([job.kind, job.spec.completionMode, job.spec.completions]).toEqual(['Job', 'Indexed', 3]);
    const c = job.spec.template.spec.containers[0];
    expect(c.image).toBe('reg.example/dcbkit:1');
    expect([...c.command, ...c.args]).toEqual([
      'dcbkit', 'sweep', '/data/k8s-plan/k8s/scenario.json', '--param', 'seed=1,2', '--param', 'traffic.flows.0.rate=1G,2G,4G',
      '--metric', 'throughput_bps', '--metric', 'jain', '--x-unit', 'R$$(HOME)=1000000000',
      '--shard', '$(JOB_COMPLETION_INDEX)/3', '--out', '/data/k8s-plan/shards/$(JOB_COMPLETION_INDEX)', '--jobs', '1', '--resume',
    ]);
    expect(job.spec.template.spec.volumes[0].persistentVolumeClaim.claimName).toBe('sweeps');
    const merge = parse(read(dir, 'k8s/merge-job.yaml')) as Job;
    expect(merge.spec.completionMode).toBeUndefined();
    expect(merge.spec.completions).toBe(1);
    expect(merge.spec.template.spec.containers[0].args).toEqual(['sweep-merge', ...[0, 1, 2].map((i) => `/data/k8s-plan/shards/${i}`), '--out', '/data/k8s-plan']);
    expect(JSON.parse(read(dir, 'k8s/scenario.json'))).toEqual(parse(readFileSync('test/fixtures/sweep-tiny.yaml', 'utf8')));
    const bad = runCli(['sweep', ...seedFirst, '--k8s', '--shards', '3', '--out', join(tmp, 'k8s-bad'), '--volume-claim', 'Bad_Name']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^--volume-claim: "Bad_Name" is not a PersistentVolumeClaim name/m);
  });
});
