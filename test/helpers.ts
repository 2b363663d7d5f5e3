// Shared test helpers: run the built CLI as a user would and capture what it prints.
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecodeError } from '../host/frames/bytes.js';
import { InputError } from '../host/errors/errors.js';
import { packageRoot } from '../host/core/loader.js';
import { commandLoaders } from '../host/commands/index.js';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs `dcbkit ...args` from the built package (dist/), with optional stdin. */
export function runCli(args: string[], opts: { input?: string; cwd?: string; env?: Record<string, string> } = {}): CliResult {
  const r = spawnSync(process.execPath, [join(packageRoot(), 'dist', 'host', 'cli', 'main.js'), ...args], {
    input: opts.input,
    cwd: opts.cwd ?? packageRoot(),
    env: opts.env ? { ...process.env, ...opts.env } : undefined,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** runCli without blocking the test, so that many CLI runs can overlap (each is mostly Node start-up). */
export function runCliAsync(args: string[], opts: { input?: string } = {}): Promise<CliResult> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [join(packageRoot(), 'dist', 'host', 'cli', 'main.js'), ...args], { cwd: packageRoot(), encoding: 'utf8' },
      (err, stdout, stderr) => done({ status: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
    child.stdin!.end(opts.input ?? '');
  });
}

/**
 * The package as user `uid` (run through setpriv by a root test) can read it: this checkout, or,
 * when its folder is closed to that user (a clone under /root), a copy of what the CLI reads at run
 * time, hard-linked where the file system allows, in a folder of its own (releasePackageCopy removes it).
 */
export function packageFor(uid: number): string {
  const root = packageRoot();
  const entry = join(root, 'dist', 'host', 'cli', 'main.js');
  const probe = spawnSync('setpriv', ['--reuid', String(uid), '--regid', String(uid), '--clear-groups', process.execPath, '-e',
    `require('fs').accessSync(${JSON.stringify(entry)}, require('fs').constants.R_OK)`], { cwd: '/' });
  if (probe.status === 0) return root;
  const copy = mkdtempSync(join(tmpdir(), 'dcbkit-package-copy-'));
  chmodSync(copy, 0o755);
  for (const part of ['package.json', 'dist', 'build', 'examples', 'node_modules', 'test']) {
    if (spawnSync('cp', ['-al', join(root, part), join(copy, part)]).status !== 0) cpSync(join(root, part), join(copy, part), { recursive: true });
  }
  return copy;
}

/** Removes a copy packageFor made (the checkout itself is left alone). */
export function releasePackageCopy(dir: string): void {
  if (dir !== packageRoot()) rmSync(dir, { recursive: true, force: true });
}

/** Fails loudly in CI when an oracle tool is missing (never a silent skip); locally too. */
export function requireTool(cmd: string): string {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  const path = r.stdout.trim();
  if (r.status !== 0 || !path) {
    throw new Error(`oracle tool "${cmd}" is not installed; run \`npm test\` (scripts/test.sh installs it)`);
  }
  return path;
}

/** The error of class `kind` that `f` throws; fails when it throws anything else or nothing. */
function thrown<E extends Error>(f: () => unknown, kind: new (...args: never[]) => E): E {
  try {
    f();
  } catch (e) {
    if (e instanceof kind) return e;
    throw e;
  }
  throw new Error(`expected a ${kind.name}`);
}

/** The DecodeError that `f` throws. */
export const errorOf = (f: () => unknown): DecodeError => thrown(f, DecodeError);

/** The InputError (bad config, scenario or stimulus) that `f` throws. */
export const inputErrorOf = (f: () => unknown): InputError => thrown(f, InputError);

/** The commands as usage messages list them: the registry's order, then yargs' completion command. */
export const COMMANDS = [...Object.keys(commandLoaders), 'completion'].join(', ');

/**
 * A node's DCB config used across the simulator tests: priorities 0,1 -> TC0, 2,3 -> TC1, 4,5 -> TC2
 * (ETS 40/40/20), 6,7 -> TC3 strict; PFC on priority 3.
 */
export const dcbEts403020 = (mtu: number) => ({
  port: { mtu },
  ets: {
    prio_tc: [0, 0, 1, 1, 2, 2, 3, 3],
    tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'],
    bw: [40, 40, 20, 0, 0, 0, 0, 0],
  },
  pfc: { enable: [3], pause_time: 65535 },
});
