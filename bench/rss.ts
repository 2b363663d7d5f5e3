// Peak memory of a whole `dcbkit run`, beside the budget's estimate of it (host/sim/budget.ts): the
// run is a fresh process of the installed entry point, its peak resident set size read from its own
// getrusage at exit (bench/rss-probe.cjs). test/sim-budget-rss.test.ts holds the estimate to the
// measured peak; `dcbkit bench` reports the peaks of the fixed-cost runs (bench/fixed-cost.ts).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../host/core/loader.js';
import { loadScenario } from '../host/scenario/scenario.js';
import { estimateFootprint } from '../host/sim/run.js';
import { scenarioSource } from '../host/commands/run.js';
import type { RunFootprint } from '../host/sim/budget.js';
import { cliEntry } from './startup.js';

export interface RunMeasure {
  /** Peak RSS of the process, bytes. */
  peak_rss: number;
  /** Wall time from spawn to exit, and the child's user + system CPU time, ms. */
  wall_ms: number;
  cpu_ms: number;
}

/**
 * Runs `dcbkit run <scenario> ...args` in a child and returns its peak RSS, wall and CPU time;
 * throws with its stderr when it fails.
 */
export function measureRun(scenario: string, args: string[] = ['--json'], root = packageRoot()): RunMeasure {
  return measureNode([cliEntry(root), 'run', scenario, ...args], root);
}

/** The probe preloaded into every measured child: this copy's, so that copies compared side by side are measured alike. */
export const RSS_PROBE = join(packageRoot(), 'bench', 'rss-probe.cjs');

/**
 * Runs `node ...argv` in a child (in `root`) with the probe preloaded and returns its peak RSS, wall
 * and CPU time; throws with its stderr when its exit status is not one of `statuses`.
 */
export function measureNode(argv: string[], root = packageRoot(), statuses: readonly number[] = [0]): RunMeasure {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-r', RSS_PROBE, ...argv], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024,
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!statuses.includes(r.status ?? -1)) throw new Error(`node ${argv.join(' ')} exited ${r.status}: ${String(r.stderr).slice(0, 400)}`);
  // fd 3 carries the RSS line, then the CPU line.
  const [rss, cpu] = String(r.output[3]).trim().split('\n').map(Number);
  return { peak_rss: rss, wall_ms: Math.round(wall * 10) / 10, cpu_ms: Math.round(cpu * 10) / 10 };
}

/** The budget's estimate for the same run (--out counts the report; threads as given). */
export function estimateRun(scenario: string, opts: { withReport?: boolean; threads?: number } = {}): RunFootprint {
  return estimateFootprint(loadScenario(scenario), { ...opts, source: scenarioSource(scenario) });
}
