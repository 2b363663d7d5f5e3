// `timing: ideal` is the simulator as it was before port clocks and switch latency existed (docs/sim.md,
// "Timing"): every example run with it added writes, byte for byte, the files it wrote at commit
// bc4c9d8 (test/fixtures/timing-ideal-digests.json, made there with `dcbkit run <example> --out DIR`;
// run.json is left out because it holds wall-clock time).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/loader.js';
import { runCliAsync } from './helpers.js';

const fixture = JSON.parse(readFileSync(join(packageRoot(), 'test/fixtures/timing-ideal-digests.json'), 'utf8')) as {
  commit: string; examples: Record<string, Record<string, string>>;
};
const work = mkdtempSync(join(tmpdir(), 'dcbkit-ideal-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function digests(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (relative(dir, p) !== 'run.json') out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

describe(`timing: ideal reproduces every example's run --out files of commit ${fixture.commit}`, () => {
  it('covers every scenario under examples/', () => {
    const scenarios = readdirSync(join(packageRoot(), 'examples')).flatMap((d) => {
      const dir = join(packageRoot(), 'examples', d);
      if (!statSync(dir).isDirectory()) return [];
      return readdirSync(dir).filter((f) => f.endsWith('.yaml') && /^duration:/m.test(readFileSync(join(dir, f), 'utf8'))).map((f) => `examples/${d}/${f}`);
    });
    expect(Object.keys(fixture.examples).sort()).toEqual(scenarios.sort());
  });

  for (const [example, expected] of Object.entries(fixture.examples)) {
    it(example, async () => {
      const name = example.replace(/[/.]/g, '_');
      const scenario = join(work, `${name}.yaml`);
      writeFileSync(scenario, `${readFileSync(join(packageRoot(), example), 'utf8')}\ntiming: ideal\n`);
      const out = join(work, name);
      const r = await runCliAsync(['run', scenario, '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      expect(digests(out)).toEqual(expected);
    }, 300_000);
  }
});
