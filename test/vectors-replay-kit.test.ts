// What `vectors --format memh` writes for a replay with nothing copied by hand: the Python decoder
// (rtl/decode_memh.py, standard library only) run by the system python3 gives back every JSON line
// text-identically and every stimulus event; the package carries the word counts; the Makefile
// replays under Icarus from the output folder with no arguments and prints the full line count.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVectors, prepareRun, runPrepared } from '../host/commands/vectors.js';
import { packageRoot } from '../host/core/loader.js';
import { requireTool, runCli } from './helpers.js';
import { E2E_CONFIGS } from './vectors-configs.js';

requireTool('python3');
requireTool('iverilog');
requireTool('make');

const SHIPPED = join(packageRoot(), 'examples', 'vectors');
const kernelOf = (file: string) => file.replace(/\.json$/, '').replace(/-(zero-bw|pause|msb|dcqcn)$/, '');
const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-replay-kit-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const python = (dir: string, group: string) => {
  const r = spawnSync('python3', [join(dir, 'decode_memh.py'), dir, group], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter((l) => l);
};

describe('decode_memh.py with the system python3', () => {
  for (const f of readdirSync(SHIPPED).filter((x) => x.endsWith('.json'))) {
    it(f, () => {
      const kernel = kernelOf(f);
      const dir = join(tmp, f.replace(/\.json$/, ''));
      const r = runCli(['vectors', kernel, '--stimulus', join(SHIPPED, f), '--format', 'memh', '--out', dir]);
      expect(r.status, r.stderr).toBe(0);
      const lines = generateVectors(kernel, JSON.parse(readFileSync(join(SHIPPED, f), 'utf8')));
      expect(python(dir, 'expected')).toEqual(lines.map((l) => JSON.stringify(l)));
      const events = (JSON.parse(readFileSync(join(SHIPPED, f), 'utf8')) as { events: object[] }).events;
      const decoded = python(dir, 'stimulus').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(decoded.length).toBe(events.length);
      // the stimulus word holds the validated event (defaults filled): every given key comes back
      decoded.forEach((d, i) => expect(d).toMatchObject(events[i]));
    });
  }

  it('a random PFC set from a config (signed and 64-bit fields, refresh lines)', () => {
    const dir = join(tmp, 'random-pfc');
    const r = runCli(['vectors', 'pfc', '--random', '600', '--seed', '11', '--config', E2E_CONFIGS[2], '--format', 'memh', '--out', dir]);
    expect(r.status, r.stderr).toBe(0);
    const lines = runPrepared(prepareRun('pfc', undefined, { config: E2E_CONFIGS[2] }, { events: 600, seed: 11 })).lines;
    expect(python(dir, 'expected')).toEqual(lines.map((l) => JSON.stringify(l)));
  });
});

describe('the package sizes the testbench and the Makefile replays from the folder', () => {
  it('make icarus: RESULT PASS with the full line count, no arguments', () => {
    const dir = join(tmp, 'make-ets');
    const r = runCli(['vectors', 'ets', '--random', '300', '--seed', '4', '--config', E2E_CONFIGS[1], '--format', 'memh', '--out', dir]);
    expect(r.status, r.stderr).toBe(0);
    const pkg = readFileSync(join(dir, 'dcbkit_ets_pkg.sv'), 'utf8');
    expect(pkg).toContain('localparam int STIMULUS_COUNT = 300;');
    expect(pkg).toContain('localparam int EXPECTED_COUNT = 300;');
    const make = spawnSync('make', ['-s', 'icarus'], { cwd: dir, encoding: 'utf8' });
    expect(make.status, make.stdout + make.stderr).toBe(0);
    expect(make.stdout).toMatch(/^RESULT PASS 300$/m);
  });
});
