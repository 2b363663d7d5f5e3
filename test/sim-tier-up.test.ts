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
});
