// What a run costs before it simulates anything, and what it holds: two whole `dcbkit run`s of 1 us
// simulated from the command line (the fabric bench's 16:1 incast, host/sim/bench.ts, and a k = 8
// fat tree with a permutation, as `dcbkit gen clos -k 8 --flows 128 --pattern permutation` prints
// it), each a fresh process of the installed entry point, R rounds interleaved; the figures are the
// median wall and CPU time and the peak RSS (bench/rss.ts), beside bare `node -e 0`. And a sweep's
// cost per point on warm workers: sim-tiny swept over 2N and N seeds on one worker, the difference
// over N points, so that the workers' start-up cancels out.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { genClos } from '../host/commands/gen.js';
import { packageRoot } from '../host/core/loader.js';
import { benchScenario } from '../host/sim/bench.js';
import { expandGrid, parseParams, runSweep } from '../host/sweep/sweep.js';
import { measureRun, RSS_PROBE, type RunMeasure } from './rss.js';
import { median } from './stats.js';

export interface FixedCostCase {
  /** Median wall time from spawn to exit and the child's user + system CPU time, ms. */
  wall_ms: number;
  cpu_ms: number;
  /** Median peak resident set size, MB (10^6 bytes). */
  peak_rss_mb: number;
}

export interface FixedCostReport {
  incast_1us: FixedCostCase;
  clos_k8_1us: FixedCostCase;
  node_e_0: FixedCostCase;
  /** sim-tiny in a sweep on one warm worker: wall ms per point, and the part the run itself took (its summary's wall_s). */
  sweep_point_ms: number;
  sweep_point_run_ms: number;
  method: { runs: number; incast: string; clos: string; sweep: string };
}

function nodeE0(): RunMeasure {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-r', RSS_PROBE, '-e', '0'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const [rss, cpu] = String(r.output[3]).trim().split('\n').map(Number);
  return { peak_rss: rss, wall_ms: wall, cpu_ms: cpu };
}

const r1 = (x: number) => Math.round(x * 10) / 10;
function figure(ms: RunMeasure[]): FixedCostCase {
  return { wall_ms: r1(median(ms.map((m) => m.wall_ms))), cpu_ms: r1(median(ms.map((m) => m.cpu_ms))), peak_rss_mb: r1(median(ms.map((m) => m.peak_rss)) / 1e6) };
}

/** Per-point wall time of sim-tiny swept on one worker, and the runs' own share, ms. */
async function sweepPointMs(points: number, root: string): Promise<{ perPoint: number; run: number }> {
  const base = parse(readFileSync(join(root, 'examples', 'sim-tiny', 'scenario.yaml'), 'utf8'));
  const seeds = (n: number) => expandGrid(base, parseParams([`seed=${Array.from({ length: n }, (_, i) => i + 1).join(',')}`]));
  const short = await runSweep(seeds(points), { jobs: 1, json: true });
  const long = await runSweep(seeds(2 * points), { jobs: 1, json: true });
  const run = long.summaries.reduce((s, x) => s + x.sim.wall_s, 0) / long.summaries.length;
  return { perPoint: ((long.wall_s - short.wall_s) * 1000) / points, run: run * 1000 };
}

/** Writes the two 1-us runs' scenarios into `dir`: the fabric bench's incast as JSON, the k = 8 tree as `gen clos` prints it. */
export function writeOneMicrosecondRuns(dir: string): { incast: string; clos: string } {
  const incast = join(dir, 'incast-16to1-1us.json');
  writeFileSync(incast, JSON.stringify(benchScenario(1)));
  const clos = join(dir, 'clos-k8-1us.yaml');
  writeFileSync(clos, genClos({ k: 8, flows: 128, duration: '1us', seed: 1, speed: '100G', pattern: 'permutation' }));
  return { incast, clos };
}

export async function measureFixedCost(opts: { runs?: number; root?: string; sweepPoints?: number } = {}): Promise<FixedCostReport> {
  const root = opts.root ?? packageRoot();
  const runs = opts.runs ?? 5;
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-fixed-cost-'));
  try {
    const { incast, clos } = writeOneMicrosecondRuns(dir);
    const m: Record<'incast' | 'clos' | 'node', RunMeasure[]> = { incast: [], clos: [], node: [] };
    for (let i = 0; i < runs; i++) {
      m.node.push(nodeE0());
      m.incast.push(measureRun(incast, ['--json'], root));
      m.clos.push(measureRun(clos, ['--json'], root));
    }
    const sweep = await sweepPointMs(opts.sweepPoints ?? 20, root);
    return {
      incast_1us: figure(m.incast), clos_k8_1us: figure(m.clos), node_e_0: figure(m.node),
      sweep_point_ms: r1(sweep.perPoint), sweep_point_run_ms: r1(sweep.run),
      method: {
        runs,
        incast: 'dcbkit run <the fabric bench scenario at duration 1us, as JSON> --json',
        clos: 'dcbkit gen clos -k 8 --flows 128 --pattern permutation --duration 1us > f.yaml; dcbkit run f.yaml --json',
        sweep: `sim-tiny over ${2 * (opts.sweepPoints ?? 20)} and ${opts.sweepPoints ?? 20} seeds on one worker; (wall difference) / ${opts.sweepPoints ?? 20}`,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
