// `dcbkit sweep` end to end on the real engine: bad input exits 2 with nothing written, the
// aggregate is the same for --jobs 1 and 2, and the offered load shows in the throughput column.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-sweep-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const scenario = 'test/fixtures/sweep-tiny.yaml';

describe('dcbkit sweep', () => {
  it('rejects a path that leads nowhere: exit 2, path: rule on stderr, nothing written', () => {
    const out = join(tmp, 'bad-path');
    const r = runCli(['sweep', scenario, '--param', 'traffic.flow.0.rate=1G,2G', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^--param\[0\]: "traffic.flow.0.rate" does not lead anywhere/m);
    expect(existsSync(out)).toBe(false);
  });

  it('checks every point before running any: a bad value names its --param, once', () => {
    const out = join(tmp, 'bad-value');
    const r = runCli(['sweep', scenario, '--param', 'defaults.link.speed=10G,fast', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^--param\[0\]: defaults\.link\.speed=fast: a rate needs a unit: .* e\.g\. 100G; got \"fast\"\n$/);
    expect(existsSync(out)).toBe(false);
  });

  it('rejects a bad --x-unit, or one for a first parameter that is not numeric, before running', () => {
    const out = join(tmp, 'bad-x-unit');
    for (const args of [['--param', 'seed=1,2', '--x-unit', 'BDP'], ['--param', 'defaults.link.speed=10G,25G', '--x-unit', 'G=1']]) {
      const r = runCli(['sweep', scenario, ...args, '--out', out]);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^--x-unit: /m);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('rejects unknown metrics and job counts', () => {
    expect(runCli(['sweep', scenario, '--param', 'seed=1', '--metric', 'speed']).stderr).toMatch(/^--metric: unknown metric "speed"/m);
    expect(runCli(['sweep', scenario, '--param', 'seed=1', '--jobs', '0']).status).toBe(2);
  });

  it('gives the same aggregate on 1 and 2 jobs, in grid order, and --json prints it', () => {
    const args = ['sweep', scenario, '--param', 'traffic.flows.0.rate=1G,3G', '--param', 'seed=1,2', '--json'];
    const one = runCli([...args, '--jobs', '1', '--out', join(tmp, 'j1')]);
    const two = runCli([...args, '--jobs', '2', '--out', join(tmp, 'j2')]);
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    expect(one.stdout).toBe(two.stdout);
    expect(one.stdout).toBe(readFileSync(join(tmp, 'j1', 'sweep.json'), 'utf8'));
    expect(readFileSync(join(tmp, 'j1', 'sweep.csv'), 'utf8')).toBe(readFileSync(join(tmp, 'j2', 'sweep.csv'), 'utf8'));
    const agg = JSON.parse(one.stdout);
    expect(agg.points.map((p: { params: Record<string, unknown> }) => [p.params['traffic.flows.0.rate'], p.params.seed])).toEqual([
      ['1G', 1], ['1G', 2], ['3G', 1], ['3G', 2],
    ]);
    // Offered 1 + 2 and 3 + 2 Gb/s on the wire of a 10 Gb/s link: all delivered, at 1518/1538 of the
    // wire rate as payload, give or take the frames in flight at the end (a few per flow) and the
    // frame sent at t = 0 (one 1518-byte frame per flow in 200 us is 0.0607 Gb/s).
    const tput = agg.points.map((p: { metrics: { goodput_bps: number } }) => p.metrics.goodput_bps / 1e9);
    for (const [i, offered] of [[0, 3], [1, 3], [2, 5], [3, 5]]) {
      expect(tput[i]).toBeGreaterThan(offered * (1518 / 1538) * 0.97);
      expect(tput[i]).toBeLessThanOrEqual(offered * (1518 / 1538) + (2 * 1518 * 8) / 200e-6 / 1e9);
    }
    expect(existsSync(join(tmp, 'j1', 'sweep-goodput_bps.svg'))).toBe(true);
    expect(existsSync(join(tmp, 'j1', 'points', '3.summary.json'))).toBe(true);
  });
});
