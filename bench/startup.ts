// CLI start-up time: what a user waits for a short command, from `node` starting to its exit.
// Each case is a fresh process of the installed entry point (package.json "bin", the esbuild bundle
// of scripts/bundle-cli.mjs), run R times with the cases interleaved so that a change in the
// machine's load hits all of them alike; the figure is the median wall time, with the median CPU
// time (user + system, from the child's rusage) beside it, which another process's load inflates
// far less. Bare `node -e 0` is the floor no command can go below.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../host/core/loader.js';
import { median } from './stats.js';

export interface StartupCase {
  /** median wall time from spawn to exit, ms */
  ms: number;
  /** median user + system CPU time of the child, ms */
  cpu_ms: number;
}

export interface StartupReport {
  node_e_0: StartupCase;
  version: StartupCase;
  help: StartupCase;
  validate: StartupCase;
  tiny_run: StartupCase;
  method: { runs: number; entry: string; validate: string; tiny_run: string };
}

/** The entry a user runs: package.json's bin. */
export function cliEntry(root = packageRoot()): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  return join(root, pkg.bin.dcbkit);
}

/** One run of `node ...args` (with the CPU probe preloaded): wall and CPU ms; throws when it fails. */
function timeOnce(args: string[], root: string): { wall: number; cpu: number } {
  const probe = join(root, 'bench', 'cpu-probe.cjs');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-r', probe, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 300)}`);
  return { wall, cpu: Number(String(r.output[3]).trim()) };
}

/** Median start-up figures over `runs` interleaved rounds. */
export function measureStartup(opts: { runs?: number; root?: string; entry?: string } = {}): StartupReport {
  const root = opts.root ?? packageRoot();
  const runs = opts.runs ?? 9;
  const entry = opts.entry ?? cliEntry(root);
  const validateFile = join('examples', 'configs', 'converged.yaml');
  const tinyScenario = join('examples', 'sim-tiny', 'scenario.yaml');
  const cases: Record<Exclude<keyof StartupReport, 'method'>, string[]> = {
    node_e_0: ['-e', '0'],
    version: [entry, '--version'],
    help: [entry, '--help'],
    validate: [entry, 'validate', validateFile],
    tiny_run: [entry, 'run', tinyScenario, '--json'],
  };
  const wall: Record<string, number[]> = {};
  const cpu: Record<string, number[]> = {};
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of Object.entries(cases)) {
      const t = timeOnce(args, root);
      (wall[name] ??= []).push(t.wall);
      (cpu[name] ??= []).push(t.cpu);
    }
  }
  const fig = (name: string): StartupCase => ({ ms: round1(median(wall[name])), cpu_ms: round1(median(cpu[name])) });
  return {
    node_e_0: fig('node_e_0'),
    version: fig('version'),
    help: fig('help'),
    validate: fig('validate'),
    tiny_run: fig('tiny_run'),
    method: { runs, entry: entry.slice(root.length + 1), validate: `dcbkit validate ${validateFile}`, tiny_run: `dcbkit run ${tinyScenario} --json` },
  };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
