// `dcbkit sweep --slurm --submit` on a real one-node Slurm cluster started by this test: munged,
// slurmctld and slurmd run from a slurm.conf written for this host (state, spool, logs and the
// munge key in a temporary directory), the sweep is submitted as a 3-task job array plus a merge
// job depending on it, and the merged sweep.csv must equal `sweep --jobs 1` byte for byte. The
// daemons are stopped by the pids this test started. Missing Slurm is a failure, never a skip.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { runCli } from './helpers.js';

const DAEMONS = ['/usr/sbin/munged', '/usr/sbin/slurmctld', '/usr/sbin/slurmd', '/usr/bin/sbatch', '/usr/bin/sinfo', '/usr/bin/squeue'];
const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-slurm-'));
const conf = join(tmp, 'slurm.conf');
const env = { ...process.env, SLURM_CONF: conf };
const started: ChildProcess[] = [];

function slurmConf(host: string): string {
  // Ports away from Slurm's defaults (6817/6818), varied by pid so that two test runs do not meet.
  const port = 20000 + (process.pid % 10000) * 2;
  return [
    'ClusterName=dcbkit-test', `SlurmctldHost=${host}`, 'SlurmUser=root', 'SlurmdUser=root',
    'AuthType=auth/munge', `AuthInfo=socket=${join(tmp, 'munge.sock')}`, 'CredType=cred/munge',
    'ProctrackType=proctrack/linuxproc', 'TaskPlugin=task/none', 'SchedulerType=sched/builtin',
    'SelectType=select/cons_tres', 'SelectTypeParameters=CR_CPU', 'MpiDefault=none',
    'JobCompType=jobcomp/none', 'AccountingStorageType=accounting_storage/none', 'JobAcctGatherType=jobacct_gather/none',
    `StateSaveLocation=${join(tmp, 'state')}`, `SlurmdSpoolDir=${join(tmp, 'spool')}`,
    `SlurmctldPidFile=${join(tmp, 'slurmctld.pid')}`, `SlurmdPidFile=${join(tmp, 'slurmd.pid')}`,
    `SlurmctldLogFile=${join(tmp, 'slurmctld.log')}`, `SlurmdLogFile=${join(tmp, 'slurmd.log')}`,
    `SlurmctldPort=${port}`, `SlurmdPort=${port + 1}`, 'ReturnToService=2',
    `NodeName=${host} CPUs=${availableParallelism()} State=UNKNOWN`,
    `PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP`,
    '',
  ].join('\n');
}

function startDaemon(cmd: string, args: string[], log: string): void {
  const fd = openSync(join(tmp, log), 'a');
  const child = spawn(cmd, args, { env, stdio: ['ignore', fd, fd] });
  started.push(child);
}

async function until<T>(what: string, seconds: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${seconds} s waiting for ${what}; logs in ${tmp}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

beforeAll(async () => {
  const missing = DAEMONS.filter((d) => !existsSync(d));
  if (missing.length) throw new Error(`Slurm is not installed (missing ${missing.join(', ')}); run \`npm test\` (scripts/test.sh installs slurm-wlm and munge)`);
  chmodSync(tmp, 0o700);
  mkdirSync(join(tmp, 'state'));
  mkdirSync(join(tmp, 'spool'));
  writeFileSync(join(tmp, 'munge.key'), randomBytes(1024), { mode: 0o400 });
  const host = spawnSync('hostname', ['-s'], { encoding: 'utf8' }).stdout.trim();
  writeFileSync(conf, slurmConf(host));
  startDaemon('/usr/sbin/munged', ['-F', '-f', `--socket=${join(tmp, 'munge.sock')}`, `--key-file=${join(tmp, 'munge.key')}`,
    `--log-file=${join(tmp, 'munged.log')}`, `--pid-file=${join(tmp, 'munged.pid')}`, `--seed-file=${join(tmp, 'munged.seed')}`], 'munged.out');
  await until('the munge socket', 20, () => (existsSync(join(tmp, 'munge.sock')) ? true : undefined));
  startDaemon('/usr/sbin/slurmctld', ['-D', '-f', conf], 'slurmctld.out');
  startDaemon('/usr/sbin/slurmd', ['-D', '-f', conf], 'slurmd.out');
  await until('the node to be idle', 60, () => {
    const dead = started.find(exited);
    if (dead) throw new Error(`${dead.spawnfile} exited (${dead.exitCode ?? dead.signalCode}); logs in ${tmp}`);
    const s = spawnSync('sinfo', ['-h', '-o', '%T'], { env, encoding: 'utf8' });
    return s.status === 0 && /^idle/m.test(s.stdout) ? true : undefined;
  });
}, 90_000);

afterAll(async () => {
  for (const c of started) if (!exited(c)) c.kill('SIGTERM');
  await until('the daemons to stop', 20, () => (started.every(exited) ? true : undefined)).catch(() => {
    for (const c of started) if (!exited(c)) c.kill('SIGKILL');
  });
  rmSync(tmp, { recursive: true, force: true });
}, 30_000);

describe('dcbkit sweep --slurm --submit on a real Slurm cluster', () => {
  it('runs a 3-shard job array and the merge job; sweep.csv equals --jobs 1 byte for byte', async () => {
    const grid = ['test/fixtures/sweep-tiny.yaml', '--param', 'traffic.flows.0.rate=1G,2G,4G', '--param', 'seed=1,2'];
    const one = join(tmp, 'one');
    expect(runCli(['sweep', ...grid, '--jobs', '1', '--out', one]).status).toBe(0);
    const dir = join(tmp, 'cluster');
    const sub = spawnSync(process.execPath, [join(packageRoot(), 'dist', 'host', 'cli', 'main.js'), 'sweep', ...grid, '--slurm', '--shards', '3', '--out', dir, '--submit', '--json'],
      { cwd: packageRoot(), env, encoding: 'utf8' });
    expect(sub.stderr).toBe('');
    expect(sub.status).toBe(0);
    const ids = JSON.parse(sub.stdout) as { array_job_id: string; merge_job_id: string };
    expect(ids.array_job_id).toMatch(/^\d+$/);
    expect(ids.merge_job_id).toMatch(/^\d+$/);
    expect(ids.merge_job_id).not.toBe(ids.array_job_id);
    expect(readFileSync(join(dir, 'slurm', 'array.sbatch'), 'utf8')).toMatch(/^#SBATCH --array=0-2$/m);
    // Done when the queue is empty; then the merged output must be there.
    await until('the jobs to leave the queue', 150, () => {
      const q = spawnSync('squeue', ['-h', '-o', '%i'], { env, encoding: 'utf8' });
      return q.status === 0 && q.stdout.trim() === '' ? true : undefined;
    });
    const logs = () => readdirSync(join(dir, 'slurm')).map((f) => `${f}:\n${readFileSync(join(dir, 'slurm', f), 'utf8')}`).join('\n');
    expect(existsSync(join(dir, 'sweep.csv')), logs()).toBe(true);
    expect(readFileSync(join(dir, 'sweep.csv'), 'utf8')).toBe(readFileSync(join(one, 'sweep.csv'), 'utf8'));
    expect(readFileSync(join(dir, 'sweep.json'), 'utf8')).toBe(readFileSync(join(one, 'sweep.json'), 'utf8'));
    // Logs stay under DIR/slurm/ (one per array task, and the merge's), shards under DIR/shards/.
    expect(readdirSync(join(dir, 'slurm')).sort()).toEqual(['array.sbatch', 'merge.out', 'merge.sbatch', 'shard-0.out', 'shard-1.out', 'shard-2.out']);
    expect(readdirSync(join(dir, 'shards')).sort()).toEqual(['0', '1', '2']);
  }, 200_000);
});
