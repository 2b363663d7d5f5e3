// `timing: ideal` is the simulator as it was before port clocks and switch latency existed (docs/sim.md,
// "Timing"). Every example run with it added must give what it gave at commit bc4c9d8, where the
// fixtures were made with `dcbkit run <example> --out DIR`:
// - every series/*.csv byte for byte (test/fixtures/timing-ideal-digests.json);
// - every value of that commit's summary.json, unchanged, under its old name (the renamed metrics keep
//   their old names for one release: docs/reports.md, "Renamed fields"); links are matched by port,
//   since the link list now also holds ports that sent only control frames. The one field whose
//   meaning changed on purpose is a link's `utilisation_pct`, which now counts control frames too: it
//   may only grow.
// report.html and the plots are not compared: the report's layout changed since (completion first,
// axes on the active window), not what it reports.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { runCliAsync } from './helpers.js';

const fixtures = join(packageRoot(), 'test/fixtures');
const digests = JSON.parse(readFileSync(join(fixtures, 'timing-ideal-digests.json'), 'utf8')) as {
  commit: string; examples: Record<string, Record<string, string>>;
};
const work = mkdtempSync(join(tmpdir(), 'dcbkit-ideal-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every leaf of a summary by its dotted path, links keyed by port instead of by position. */
function leaves(summary: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  const walk = (v: Json, path: string) => {
    if (v !== null && typeof v === 'object') {
      const entries = path === 'throughput.links' && Array.isArray(v)
        ? v.map((l) => [String((l as { port: string }).port), l] as const)
        : Object.entries(v);
      for (const [k, x] of entries) walk(x as Json, path ? `${path}.${k}` : k);
    } else out.set(path, v);
  };
  walk(summary, '');
  return out;
}

function seriesDigests(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(dir, 'series')).sort()) {
    out[`series/${name}`] = createHash('sha256').update(readFileSync(join(dir, 'series', name))).digest('hex');
  }
  return out;
}

describe(`timing: ideal reproduces every example's run of commit ${digests.commit}`, () => {
  it('covers every scenario under examples/', () => {
    const scenarios = readdirSync(join(packageRoot(), 'examples')).flatMap((d) => {
      const dir = join(packageRoot(), 'examples', d);
      if (!statSync(dir).isDirectory()) return [];
      return readdirSync(dir).filter((f) => f.endsWith('.yaml') && /^duration:/m.test(readFileSync(join(dir, f), 'utf8'))).map((f) => `examples/${d}/${f}`);
    });
    expect(Object.keys(digests.examples).sort()).toEqual(scenarios.sort());
  });

  for (const [example, expectedSeries] of Object.entries(digests.examples)) {
    it(example, async () => {
      const name = example.replace(/^examples\//, '').replace(/\.yaml$/, '').replace(/\//g, '_');
      const scenario = join(work, `${name}.yaml`);
      writeFileSync(scenario, `${readFileSync(join(packageRoot(), example), 'utf8')}\ntiming: ideal\n`);
      const out = join(work, name);
      const r = await runCliAsync(['run', scenario, '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      expect(seriesDigests(out)).toEqual(expectedSeries);

      const before = leaves(JSON.parse(readFileSync(join(fixtures, 'timing-ideal', `${name}.summary.json`), 'utf8')) as Json);
      const now = leaves(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Json);
      expect(before.size).toBeGreaterThan(20);
      for (const [path, value] of before) {
        expect(now.has(path), `${path} is missing`).toBe(true);
        if (path.endsWith('.utilisation_pct')) expect(now.get(path) as number, path).toBeGreaterThanOrEqual(value as number);
        else expect(now.get(path), path).toEqual(value);
      }
    }, 300_000);
  }
});
