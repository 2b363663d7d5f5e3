// Shared by the hostile-input campaign (test/hostile-*.test.ts): runs the built CLI bounded in
// time (killed after a timeout) and measured (CPU seconds and peak RSS from GNU time, which count
// the process's own work, not how long it waited for a core on a loaded machine), optionally as
// user nobody (setpriv, when the tests run as root) so that a bug cannot write outside the
// test's folder.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../host/core/loader.js';

export interface Bounded {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** user + system CPU seconds of the CLI process */
  cpuS: number;
  /** peak resident set size, MB */
  rssMB: number;
}

export const CLI = join(packageRoot(), 'dist', 'host', 'cli', 'main.js');
const NOBODY = 65534;
export const asRoot = process.getuid?.() === 0;

/** A fresh folder the test owns (world-writable when the CLI will run as nobody). */
export function testFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `dcbkit-${prefix}-`));
  if (asRoot) chmodSync(dir, 0o777);
  return dir;
}

export function removeFolder(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** `dcbkit ...args` with stdin `input`, killed after `timeoutMs`; as nobody when `unprivileged` and root. */
export function bounded(args: string[], opts: { input?: Buffer | string; timeoutMs?: number; cwd?: string; unprivileged?: boolean } = {}): Bounded {
  const stats = join(testFolder('time'), 'time');
  const drop = opts.unprivileged && asRoot ? ['setpriv', '--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups'] : [];
  const limit = opts.timeoutMs ?? 60_000;
  // time(1) waits for timeout(1), which kills the CLI itself when it overruns (and its CPU and
  // memory are counted: RUSAGE_CHILDREN takes in waited-for descendants)
  const argv = [...drop, '/usr/bin/time', '-f', '%U %S %M', '-o', stats, 'timeout', '-s', 'KILL', `${limit / 1000}`, process.execPath, CLI, ...args];
  const r = spawnSync(argv[0], argv.slice(1), {
    input: opts.input, cwd: opts.cwd ?? packageRoot(), encoding: 'utf8', timeout: limit + 30_000, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024,
  });
  let cpuS = NaN;
  let rssMB = NaN;
  try {
    const [u, s, m] = readFileSync(stats, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    cpuS = u + s;
    rssMB = m / 1024;
  } catch {
    // killed before time wrote its line: the figures stay NaN and fail any bound
  }
  rmSync(join(stats, '..'), { recursive: true, force: true });
  // GNU time reports a child killed by a signal as "Command terminated by signal N" and exits 128+N
  return { status: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: (r.stderr ?? '').replace(/^Command (terminated by signal|exited with non-zero status) \d+\n/m, ''), cpuS, rssMB };
}
