// `dcbkit run` keeps V8's young generation at the size it has when the command starts
// (host/util/gc.ts), so that the bursts of short-lived objects before the simulation (loading the
// command's libraries, parsing a YAML scenario) do not leave megabytes of new space resident to the
// end of the run. `validate` of the same file is the control: the same parse, with V8's default
// growth, must grow it, or the check below would pass whatever run.ts did.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { genClos } from '../host/commands/gen.js';
import { cliEntry } from '../bench/startup.js';

const root = packageRoot();
const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-young-gen-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const MiB = 1024 ** 2;

/** The new space's size at exit of `dcbkit ...args`, bytes. */
function newSpaceAtExit(args: string[]): number {
  const r = spawnSync(process.execPath, ['-r', join(root, 'test', 'fixtures', 'new-space-probe.cjs'), cliEntry(root), ...args], {
    cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  expect(r.status, String(r.stderr)).toBe(0);
  return Number(String(r.output[3]).trim());
}

describe("run keeps V8's young generation small", () => {
  const scenario = join(tmp, 'clos-k8-1us.yaml');
  writeFileSync(scenario, genClos({ k: 8, flows: 128, duration: '1us', seed: 1, speed: '100G', pattern: 'permutation' }));

  it('a k = 8 tree from gen clos: validate grows the new space past 4 MiB, run keeps it at 2 MiB or less', () => {
    const validate = newSpaceAtExit(['validate', scenario]);
    const run = newSpaceAtExit(['run', scenario, '--json', '--threads', '1']);
    expect(validate, `validate: new space ${validate / MiB} MiB`).toBeGreaterThan(4 * MiB);
    // 2 MiB: the entry point's own loading doubles the initial 1 MiB once before a command is chosen
    expect(run, `run: new space ${run / MiB} MiB`).toBeLessThanOrEqual(2 * MiB);
  });
});
