// Issue 10 at the command line: runaway sweeps and runs are refused or capped with a clear
// message instead of killing Node, and the printed tables show what was asked for.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { runCli } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-hardening-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const tiny = 'test/fixtures/sweep-tiny.yaml';

describe('sweep --jobs', () => {
  it('caps 100 workers at the points, says so on stderr and in --json, and finishes', () => {
    const r = runCli(['sweep', tiny, '--param', 'seed=1,2,3', '--jobs', '100', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^note: --jobs 100 capped to [1-3]: /m);
    const out = JSON.parse(r.stdout);
    expect(out.jobs_capped).toMatchObject({ requested: 100 });
    expect(out.jobs_capped.used).toBeLessThanOrEqual(3);
    expect(out.points).toHaveLength(3);
  });

  it('prints the chosen --metric in the table', () => {
    const r = runCli(['sweep', tiny, '--param', 'seed=1,2', '--metric', 'pause_frames', '--metric', 'jain', '--jobs', '1']);
    expect(r.status, r.stderr).toBe(0);
    const head = r.stdout.split('\n')[0].trim().split(/\s+/);
    expect(head).toContain('pause_frames');
    expect(head).toContain('jain');
    expect(r.stderr).not.toMatch(/capped/);
  });
});

/** A copy of an example scenario with top-level keys replaced (`duration: 6ms` -> `duration: 1ps`). */
function variant(example: string, name: string, keys: Record<string, string>): string {
  let text = readFileSync(join('examples', example, 'scenario.yaml'), 'utf8');
  for (const [k, v] of Object.entries(keys)) {
    const re = new RegExp(`^${k}: .*$`, 'm');
    expect(text).toMatch(re);
    text = text.replace(re, `${k}: ${v}`);
  }
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
}

describe('run memory budget', () => {
  it('refuses sample: 1ps over 6 ms before simulating: exit 2, the numbers at `sample`, nothing written', () => {
    const out = join(tmp, 'r1');
    const r = runCli(['run', variant('converged-link', 'ps.yaml', { sample: '1ps' }), '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^sample: 6,000,000,000 samples \(duration \/ sample\) x \d+ series .* over the memory budget of 2\.00 GiB \(--max-memory\)/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses duration: 1000000s at a 20 us sample, and a run over a small --max-memory; accepts it under a large one', () => {
    expect(runCli(['run', variant('converged-link', 'long.yaml', { duration: '1000000s' })]).stderr).toMatch(/^sample: 50,000,000,000 samples/);
    const small = runCli(['run', 'examples/converged-link/scenario.yaml', '--max-memory', '256KiB']);
    expect(small.status).toBe(2);
    // The budget bounds the whole process (Node and dcbkit's code included), so 256 KiB refuses at
    // `--max-memory` (the series are not what is over) and 256 MiB admits.
    expect(small.stderr).toMatch(/^--max-memory: 300 samples .* over the memory budget of 256 KiB/);
    expect(runCli(['run', 'examples/converged-link/scenario.yaml', '--max-memory', '256MiB', '--json']).status).toBe(0);
    const bad = runCli(['run', 'examples/converged-link/scenario.yaml', '--max-memory', 'lots']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^--max-memory: a size such as 2GiB/);
  });

  it('stops a long run on SIGINT: one line, exit 130, no --out and no staging directory left', async () => {
    const out = join(tmp, 'int', 'report');
    const scn = variant('congestion-tree', 'forever.yaml', { duration: '30s', sample: '1ms' });
    const child = spawn(process.execPath, [join(packageRoot(), 'dist', 'host', 'cli', 'main.js'), 'run', scn, '--out', out], { cwd: packageRoot() });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    setTimeout(() => child.kill('SIGINT'), 5000); // well after start-up, long before the 30 s run ends
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    expect(code).toBe(130);
    expect(stderr).toMatch(/^dcbkit: interrupted at [0-9.]+ of 30 s simulated; nothing written(: \S+ is as it was)?\n$/);
    expect(existsSync(out)).toBe(false);
    expect(existsSync(join(tmp, 'int')) ? readdirSync(join(tmp, 'int')) : []).toEqual([]);
  }, 30_000);
});
