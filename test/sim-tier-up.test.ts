// `dcbkit run` raises V8's tier-up budgets (host/util/tiering.ts) so that a 1-us run compiles none
// of its code again with TurboFan, whose zone memory and code were about 9 MiB of that run's peak RSS,
// while a longer run still tiers its engine up. The control is the same simulation through the
// library, with V8's default budgets: it must tier up, or the first check would pass whatever the
// CLI did. V8 reports each compilation on stdout when asked (--trace-wasm-compilation-times for
// WebAssembly functions, --trace-opt for JavaScript ones).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { benchScenario } from '../host/sim/bench.js';
import { genClos } from '../host/commands/gen.js';
import { cliEntry } from '../bench/startup.js';

const root = packageRoot();
const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-tier-up-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const TRACE = ['--trace-wasm-compilation-times', '--trace-opt'];

/** Counts of TurboFan compilations that `node TRACE ...args` reported: WebAssembly functions and JavaScript ones. */
function turbofanCompiles(args: string[]): { wasm: number; js: number } {
  const r = spawnSync(process.execPath, [...TRACE, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 ** 2 });
  expect(r.status, String(r.stderr)).toBe(0);
  const out = `${r.stdout}\n${r.stderr}`;
  return {
    wasm: out.split('\n').filter((l) => /^Compiled function .* using TurboFan/.test(l)).length,
    js: out.split('\n').filter((l) => l.startsWith('[completed optimizing')).length,
  };
}

/** Body sizes (bytes) of the WebAssembly functions that `node TRACE ...args` compiled with TurboFan. */
function turbofanWasmBodies(args: string[]): number[] {
  const r = spawnSync(process.execPath, [...TRACE, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 ** 2 });
  expect(r.status, String(r.stderr)).toBe(0);
  return [...r.stdout.matchAll(/^Compiled function .* using TurboFan, .*; bodysize (\d+) /gm)].map((m) => Number(m[1]));
}

/** The k = 8 fat tree with 128 permutation flows, as `dcbkit gen clos` prints it (bench/fixed-cost.ts's second 1-us run). */
function clos(duration: string): string {
  const file = join(tmp, `clos-k8-${duration}.yaml`);
  writeFileSync(file, genClos({ k: 8, flows: 128, duration, seed: 1, speed: '100G', pattern: 'permutation' }));
  return file;
}

function incast(durationUs: number): string {
  const file = join(tmp, `incast-${durationUs}us.json`);
  writeFileSync(file, JSON.stringify(benchScenario(durationUs)));
  return file;
}

describe('run leaves a short simulation in baseline code', () => {
  it('the 1-us 16:1 incast: no TurboFan compilation through the CLI, several through the library with V8 defaults', () => {
    const file = incast(1);
    const cli = turbofanCompiles([cliEntry(root), 'run', file, '--json', '--threads', '1']);
    const lib = (name: string) => pathToFileURL(join(root, 'dist', 'host', ...name.split('/'))).href;
    const library = turbofanCompiles([
      '--input-type=module', '-e',
      `import { loadScenario } from ${JSON.stringify(lib('scenario/scenario.js'))};
       import { runScenario } from ${JSON.stringify(lib('sim/run.js'))};
       runScenario(loadScenario(${JSON.stringify(file)}));`,
    ]);
    expect(library.wasm, 'the control: V8 tiers the engine up by default').toBeGreaterThan(0);
    expect(cli).toEqual({ wasm: 0, js: 0 });
  });

  it('a 1-ms incast through the CLI still compiles its engine with TurboFan', () => {
    expect(turbofanCompiles([cliEntry(root), 'run', incast(1000), '--json', '--threads', '1']).wasm).toBeGreaterThan(0);
  });

  // The engine's event loop (runEvents, nicServe, tryTransmit: bodies of 3.9 to 6.5 kB) takes about
  // 50 ms of TurboFan each, on V8's worker threads; a process that has written its results still
  // waits for them before it exits. Small helpers (under 1 kB, about 1 ms each) may still tier up.
  const LARGE = 1000;
  it('the 1-us k = 8 tree: none of the engine\'s large functions compiled with TurboFan; the 1-ms tree compiles them', () => {
    const short = turbofanWasmBodies([cliEntry(root), 'run', clos('1us'), '--json', '--threads', '1']);
    const long = turbofanWasmBodies([cliEntry(root), 'run', clos('1ms'), '--json', '--threads', '1']);
    expect(long.filter((b) => b >= LARGE).length, 'the control: a longer run of the same tree tiers its engine up').toBeGreaterThan(0);
    expect(short.filter((b) => b >= LARGE)).toEqual([]);
  });
});
