// The memory budget's promise (host/sim/budget.ts): its estimate bounds the peak resident memory of
// the whole `dcbkit run` process, within 20 % of it and never under, on every example, on fat trees
// of k = 4, 8 and 16, on long series with and without --out, and a run over --max-memory is refused
// before its arena is reserved. Each run is a child of the built CLI whose peak RSS comes from its
// own getrusage (bench/rss-probe.cjs). Durations are short so that the file runs in about a minute
// on two cores: the memory of a run is set by its tables and its sample count, not by how long the
// engine takes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { closScenario } from '../host/scenario/clos.js';
import { estimateRun, measureRun } from '../bench/rss.js';
import { cliEntry } from '../bench/startup.js';

const root = packageRoot();
const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-budget-rss-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const MiB = 1024 ** 2;

/** Runs the scenario in a child and checks estimate / peak in [1, 1.2]; returns both. */
function holds(scenario: string, opts: { out?: boolean; threads?: number } = {}): { peak: number; estimate: number } {
  const threads = opts.threads ?? 1;
  const args = [...(opts.out ? ['--out', join(tmp, `out-${Math.random().toString(36).slice(2)}`)] : ['--json']), '--threads', String(threads)];
  const { peak_rss } = measureRun(scenario, args, root);
  const estimate = estimateRun(scenario, { withReport: opts.out, threads }).bytes;
  const what = `${scenario}${opts.out ? ' --out' : ''} on ${threads} thread(s): estimate ${(estimate / MiB).toFixed(1)} MiB, peak ${(peak_rss / MiB).toFixed(1)} MiB`;
  expect(estimate, what).toBeGreaterThanOrEqual(peak_rss);
  expect(estimate, what).toBeLessThanOrEqual(1.2 * peak_rss);
  return { peak: peak_rss, estimate };
}

const examples = readdirSync(join(root, 'examples'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(join(root, 'examples', d.name)).filter((f) => f.endsWith('.yaml')).map((f) => join('examples', d.name, f)))
  .filter((f) => /^links:/m.test(readFileSync(join(root, f), 'utf8')));

/** examples/converged-link with its flows stopped at 1 ms, simulated for `duration` at `sample`. */
function longSeries(name: string, duration: string, sample: string): string {
  const text = readFileSync(join(root, 'examples', 'converged-link', 'scenario.yaml'), 'utf8')
    .replace(/^duration: .*$/m, `duration: ${duration}`)
    .replace(/^sample: .*$/m, `sample: ${sample}`)
    .replace(/, stop: 3ms\}/, '}')
    .replace(/frames: 1518\}/g, 'frames: 1518, stop: 1ms}');
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
}

function clos(k: number, duration: string): string {
  const p = join(tmp, `clos-k${k}.json`);
  writeFileSync(p, JSON.stringify(closScenario({ k, flows: k ** 2 * 4, duration })));
  return p;
}

describe('the memory estimate bounds the peak RSS (within 20 %, never under)', () => {
  it('finds the examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(12);
  });

  it.each(examples)('%s', (f) => {
    holds(f);
  });

  it.each(['examples/sim-tiny/scenario.yaml', 'examples/qcn-hotspot/scenario.yaml', 'examples/converged-link/scenario.yaml'])('%s --out', (f) => {
    holds(f, { out: true });
  });

  it.each([[4, '200us'], [8, '20us'], [16, '5us']] as const)('fat tree k = %i, %s', (k, duration) => {
    holds(clos(k, duration));
  });

  it('fat tree k = 16 on two threads', () => {
    holds(clos(16, '5us'), { threads: 2 });
  });

  it('long series: 200,000 samples x 27 series', () => {
    const json = holds(longSeries('long.yaml', '2s', '10us'));
    expect(json.peak).toBeGreaterThan(100 * MiB); // the series are what this run holds
  });
});

describe('a run over --max-memory is refused before its arena is reserved', () => {
  it('k = 16 at 200MB: exit 2 naming the arena and what changes it, peak far under the arena', () => {
    const scn = clos(16, '1ms');
    const est = estimateRun(scn);
    expect(est.arenaBytes).toBeGreaterThan(150 * MiB);
    const r = spawnSync(process.execPath, ['-r', join(root, 'bench', 'rss-probe.cjs'), cliEntry(root), 'run', scn, '--json', '--threads', '1', '--max-memory', '200MB'], {
      cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^--max-memory: .* the fabric's arena about [0-9.]+ MiB \(packet pool and tables: fewer switches and ports, or smaller buffers, buffer\.size\).* over the memory budget of 191 MiB \(--max-memory\)\n$/);
    const peak = Number(String(r.output[3]).trim());
    expect(peak).toBeLessThan(est.dcbkit + 16 * MiB);
  });
});
