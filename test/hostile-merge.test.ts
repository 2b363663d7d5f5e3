// sweep-merge verifies what it merges (host/sweep/shard.ts): each point summary is bound to the
// plan by a digest written by the shard run; an edited value, swapped points, a point of another
// sweep or an edited plan is refused with exit 2 naming it, where it used to merge with exit 0
// into a result that differs from the one-machine sweep.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bounded, removeFolder, testFolder } from './hostile-helpers.js';

const SCENARIO = join('examples', 'sim-tiny', 'scenario.yaml');
let dir: string;
const at = (p: string) => join(dir, p);

function sweep(params: string, extra: string[]) {
  const r = bounded(['sweep', SCENARIO, '--param', params, '--jobs', '1', ...extra], { timeoutMs: 120_000, unprivileged: true });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
}

function merge(dirs: string[]) {
  return bounded(['sweep-merge', ...dirs.map(at), '--out', at(`merged-${Math.random().toString(36).slice(2)}`)], { timeoutMs: 60_000, unprivileged: true });
}

function refusedMerge(dirs: string[], rule: RegExp) {
  const r = merge(dirs);
  expect(r.stderr).toMatch(rule);
  expect(r.status).toBe(2);
  expect(r.cpuS).toBeLessThan(5);
}

beforeAll(() => {
  dir = testFolder('hostile-merge');
  sweep('seed=1,2', ['--shard', '0/2', '--out', at('s0')]);
  sweep('seed=1,2', ['--shard', '1/2', '--out', at('s1')]);
  sweep('seed=1,2', ['--shard', '0/1', '--out', at('whole')]);
  sweep('seed=3,4', ['--shard', '0/2', '--out', at('other0')]);
  sweep('seed=1,2', ['--out', at('one-machine')]);
}, 600_000);
afterAll(() => removeFolder(dir));

const copy = (from: string, to: string) => cpSync(at(from), at(to), { recursive: true });

describe('sweep-merge checks every point against the plan', () => {
  it('untouched shards merge into what the one-machine sweep writes', () => {
    const out = at('merged-ok');
    const r = bounded(['sweep-merge', at('s0'), at('s1'), '--out', out], { timeoutMs: 60_000, unprivileged: true });
    expect(r.status).toBe(0);
    expect(readFileSync(join(out, 'sweep.json'), 'utf8')).toBe(readFileSync(at('one-machine/sweep.json'), 'utf8'));
    expect(readFileSync(join(out, 'sweep.csv'), 'utf8')).toBe(readFileSync(at('one-machine/sweep.csv'), 'utf8'));
  });

  it('an edited value is refused, naming the point', () => {
    copy('s0', 'edited');
    const file = at('edited/points/0.summary.json');
    const text = readFileSync(file, 'utf8');
    const edited = text.replace(/"lossless": \d+/, '"lossless": 12345');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    refusedMerge(['edited', 's1'], /edited\/points\/0\.summary\.json: point 0: the summary does not match the digest run\.json records for it/);
  });

  it('two points swapped are refused, both named', () => {
    copy('whole', 'swapped');
    const [a, b] = [at('swapped/points/0.summary.json'), at('swapped/points/1.summary.json')];
    const [ta, tb] = [readFileSync(a), readFileSync(b)];
    expect(ta.equals(tb)).toBe(false);
    writeFileSync(a, tb);
    writeFileSync(b, ta);
    refusedMerge(['swapped'], /point 0: the summary does not match[^]*point 1: the summary does not match/);
  });

  it('a point summary of another sweep is refused', () => {
    copy('s0', 'foreign');
    cpSync(at('other0/points/0.summary.json'), at('foreign/points/0.summary.json'));
    refusedMerge(['foreign', 's1'], /foreign\/points\/0\.summary\.json: point 0: the summary does not match/);
  });

  it('an edited plan (a grid value changed in run.json) is refused', () => {
    copy('s0', 'replanned');
    const file = at('replanned/run.json');
    const run = JSON.parse(readFileSync(file, 'utf8'));
    run.sweep.params[0].values = [1, 3];
    writeFileSync(file, JSON.stringify(run));
    refusedMerge(['replanned', 's1'], /replanned\/run\.json: a damaged sweep output \(sweep: the plan does not match its id/);
  });

  it('a digest removed from run.json is refused', () => {
    copy('s1', 'undigested');
    const file = at('undigested/run.json');
    const run = JSON.parse(readFileSync(file, 'utf8'));
    run.point_sha256 = {};
    writeFileSync(file, JSON.stringify(run));
    refusedMerge(['s0', 'undigested'], /undigested\/points\/1\.summary\.json: point 1: run\.json records no digest for it/);
  });
});
