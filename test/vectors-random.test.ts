// `dcbkit vectors KERNEL --random N --seed S [--config CONFIG]` for every kernel: the drawn stimuli
// are valid (the kernel's own schema accepts them), deterministic per seed, cover every category of
// the coverage line, and round-trip: the stimulus written with --stimulus-out, replayed with
// --stimulus alone, gives byte-identical vectors.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateVectors, prepareRun, runPrepared } from '../host/commands/vectors.js';
import { packageRoot } from '../host/core/loader.js';
import { runCli } from './helpers.js';
import { E2E_CONFIGS } from './vectors-configs.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-random-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The counts of a coverage line: `coverage K seed=S events=N lines=M: a 1, b 2`. */
export function coverageCounts(line: string): Record<string, number> {
  const m = /^coverage \S+ seed=\d+ events=\d+ lines=\d+: (.*)$/.exec(line);
  if (!m) throw new Error(`not a coverage line: ${line}`);
  return Object.fromEntries(m[1].split(', ').map((kv) => { const i = kv.lastIndexOf(' '); return [kv.slice(0, i), Number(kv.slice(i + 1))]; }));
}

describe('random stimuli', () => {
  const cases: [string, string | undefined, string[]][] = [
    ['ets', undefined, ['strict', 'weighted', 'zero-bw', 'carry-overs', 'blocks']],
    ['ets', E2E_CONFIGS[1], ['strict', 'weighted', 'zero-bw', 'carry-overs', 'blocks']],
    ['ets', E2E_CONFIGS[0], ['weighted', 'carry-overs', 'blocks']], // no 0 % TC, and no priority maps to a strict TC
    ['pfc', undefined, ['xoff', 'xon', 'refreshes', 'drops', 'rx_pfc', 'rx_pause']],
    ['pfc', E2E_CONFIGS[2], ['xoff', 'xon', 'refreshes', 'drops', 'rx_pfc', 'rx_pause']],
  ];
  for (const [kernel, config, nonZero] of cases) {
    it(`${kernel} ${config ? config.replace(/.*\//, '') : '(no config)'}: valid, covering, deterministic, round-trips`, () => {
      const opts = config ? { config } : {};
      const a = prepareRun(kernel, undefined, opts, { events: 3000, seed: 7 });
      const b = prepareRun(kernel, undefined, opts, { events: 3000, seed: 7 });
      expect(JSON.stringify(a.stimulus)).toBe(JSON.stringify(b.stimulus));
      const other = prepareRun(kernel, undefined, opts, { events: 3000, seed: 8 });
      expect(JSON.stringify(other.stimulus)).not.toBe(JSON.stringify(a.stimulus));
      const r = runPrepared(a);
      const counts = coverageCounts(r.coverage!);
      for (const k of nonZero) expect(counts[k], `${k} in ${r.coverage}`).toBeGreaterThan(0);
      // frame sizes reach both ends of 64..max frame
      const events = (a.stimulus as { events: { bytes?: number }[] }).events;
      const maxFrame = kernel === 'ets' ? (a.stimulus as { max_frame: number }).max_frame : (r.s as { params: { mtu: number } }).params.mtu;
      expect(events.some((e) => e.bytes === 64)).toBe(true);
      expect(events.some((e) => e.bytes === maxFrame)).toBe(true);
      expect(events.length).toBe(3000);
      // replayed as a stimulus (no config, no seed): the same lines
      const replay = generateVectors(kernel, JSON.parse(JSON.stringify(a.stimulus)));
      expect(JSON.stringify(replay)).toBe(JSON.stringify(r.lines));
    });
  }

  // qcn-cp: seed 7 draws dcqcn without a config; qcn-credit.yaml is qau-pc (Qeq 30208 B, w 3, msb),
  // dcqcn.yaml marks from 5120 to 200192 B
  const qcnCases: [string | undefined, string[]][] = [
    [undefined, ['enq', 'deq', 'below-kmin', 'ramp', 'above-kmax', 'marks']],
    [join(packageRoot(), 'examples', 'vectors', 'configs', 'qcn-credit.yaml'), ['enq', 'deq', 'samples', 'cnms', 'fb-max', 'quiet-samples']],
    [join(packageRoot(), 'examples', 'vectors', 'configs', 'dcqcn.yaml'), ['enq', 'deq', 'below-kmin', 'ramp', 'above-kmax', 'marks']],
  ];
  for (const [config, nonZero] of qcnCases) {
    it(`qcn-cp ${config ? config.replace(/.*\//, '') : '(no config)'}: valid, covering, deterministic, round-trips`, () => {
      const opts = config ? { config } : {};
      const a = prepareRun('qcn-cp', undefined, opts, { events: 3000, seed: 7 });
      expect(JSON.stringify(prepareRun('qcn-cp', undefined, opts, { events: 3000, seed: 7 }).stimulus)).toBe(JSON.stringify(a.stimulus));
      expect(JSON.stringify(prepareRun('qcn-cp', undefined, opts, { events: 3000, seed: 8 }).stimulus)).not.toBe(JSON.stringify(a.stimulus));
      const r = runPrepared(a); // the kernel's schema accepts it: no dequeue beyond the queue
      const counts = coverageCounts(r.coverage!);
      for (const k of nonZero) expect(counts[k], `${k} in ${r.coverage}`).toBeGreaterThan(0);
      if (config) expect((a.stimulus as { params: object }).params).toEqual((prepareRun('qcn-cp', { events: [] }, opts).stimulus as { params: object }).params);
      const enqBytes = (a.stimulus as { events: { type: string; bytes: number }[] }).events.filter((e) => e.type === 'enq').map((e) => e.bytes);
      expect(enqBytes).toContain(64);
      expect(Math.max(...enqBytes)).toBeGreaterThanOrEqual(1518);
      const replay = generateVectors('qcn-cp', JSON.parse(JSON.stringify(a.stimulus)));
      expect(JSON.stringify(replay)).toBe(JSON.stringify(r.lines));
    });
  }

  // qcn-rp: without a config seed 1 draws dcqcn, seed 2 qau-pc; with qcn-credit.yaml (qau-pc) and
  // dcqcn.yaml (byte counter 10 MB: no hyper-active increase within a set) seed 7
  const rpCases: [string | undefined, number, string[]][] = [
    [undefined, 1, ['cuts', 'timers', 'alpha-timers', 'fast-recovery', 'active-increase', 'hyper-increase', 'releases']],
    [undefined, 2, ['cuts', 'timers', 'fast-recovery', 'active-increase', 'hyper-increase', 'releases']],
    [join(packageRoot(), 'examples', 'vectors', 'configs', 'qcn-credit.yaml'), 7, ['cuts', 'timers', 'fast-recovery', 'active-increase', 'hyper-increase']],
    [join(packageRoot(), 'examples', 'vectors', 'configs', 'dcqcn.yaml'), 7, ['cuts', 'timers', 'alpha-timers', 'fast-recovery', 'active-increase']],
  ];
  for (const [config, seed, nonZero] of rpCases) {
    it(`qcn-rp ${config ? config.replace(/.*\//, '') : '(no config)'} seed ${seed}: valid, covering, deterministic, round-trips`, () => {
      const opts = config ? { config } : {};
      const a = prepareRun('qcn-rp', undefined, opts, { events: 3000, seed });
      expect(JSON.stringify(prepareRun('qcn-rp', undefined, opts, { events: 3000, seed }).stimulus)).toBe(JSON.stringify(a.stimulus));
      expect(JSON.stringify(prepareRun('qcn-rp', undefined, opts, { events: 3000, seed: seed + 100 }).stimulus)).not.toBe(JSON.stringify(a.stimulus));
      const r = runPrepared(a); // the kernel's schema accepts it: times ascending, events of the profile
      const counts = coverageCounts(r.coverage!);
      for (const k of nonZero) expect(counts[k], `${k} in ${r.coverage}`).toBeGreaterThan(0);
      if (config) expect((a.stimulus as { params: object }).params).toEqual((prepareRun('qcn-rp', { events: [] }, opts).stimulus as { params: object }).params);
      const replay = generateVectors('qcn-rp', JSON.parse(JSON.stringify(a.stimulus)));
      expect(JSON.stringify(replay)).toBe(JSON.stringify(r.lines));
    });
  }

  // credit: one flow; qcn-credit.yaml's loop on priority 7 (k 12, 128-B units, the port's headroom)
  const creditCases: [string | undefined, number, string[]][] = [
    [undefined, 1, ['sent', 'blocked', 'received', 'overruns', 'drains', 'grants', 'stale-grants', 'syncs', 'expiries']],
    [join(packageRoot(), 'examples', 'vectors', 'configs', 'qcn-credit.yaml'), 7, ['sent', 'blocked', 'received', 'overruns', 'drains', 'grants', 'stale-grants', 'syncs', 'expiries']],
  ];
  for (const [config, seed, nonZero] of creditCases) {
    it(`credit ${config ? config.replace(/.*\//, '') : '(no config)'} seed ${seed}: valid, covering, deterministic, round-trips`, () => {
      const opts = config ? { config, priority: 7 } : {};
      const a = prepareRun('credit', undefined, opts, { events: 3000, seed });
      expect(JSON.stringify(prepareRun('credit', undefined, opts, { events: 3000, seed }).stimulus)).toBe(JSON.stringify(a.stimulus));
      expect(JSON.stringify(prepareRun('credit', undefined, opts, { events: 3000, seed: seed + 100 }).stimulus)).not.toBe(JSON.stringify(a.stimulus));
      const r = runPrepared(a); // valid: the kernel refuses a drain of more than the buffer holds
      const counts = coverageCounts(r.coverage!);
      for (const k of nonZero) expect(counts[k], `${k} in ${r.coverage}`).toBeGreaterThan(0);
      const events = (a.stimulus as { events: { prio?: number }[] }).events;
      if (config) {
        expect((a.stimulus as { params: object }).params).toEqual((prepareRun('credit', { events: [] }, opts).stimulus as { params: object }).params);
        expect(events.every((e) => e.prio === 7)).toBe(true);
      }
      const replay = generateVectors('credit', JSON.parse(JSON.stringify(a.stimulus)));
      expect(JSON.stringify(replay)).toBe(JSON.stringify(r.lines));
    });
  }

  it('the CLI: coverage on stderr, --stimulus-out replays byte-identically', () => {
    const out = join(tmp, 'ets-stim.json');
    const a = runCli(['vectors', 'ets', '--random', '400', '--seed', '3', '--config', E2E_CONFIGS[1], '--stimulus-out', out]);
    expect(a.status, a.stderr).toBe(0);
    expect(a.stderr).toMatch(/^coverage ets seed=3 events=400 lines=400: strict \d+, weighted \d+, zero-bw \d+, none \d+, carry-overs \d+, blocks \d+\n$/);
    const b = runCli(['vectors', 'ets', '--stimulus', out]);
    expect(b.status).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    // 70/30 at MTU 4096: Q = ceil(4116 / 30) = 138; 9660 and 4140 B rounded up to 151 and 65 credits of 64 B
    expect(JSON.parse(readFileSync(out, 'utf8')).quantum).toEqual([9664, 4160, 0, 0, 0, 0, 0, 0]);
    const memh = join(tmp, 'pfc-memh');
    const c = runCli(['vectors', 'pfc', '--random', '300', '--seed', '5', '--format', 'memh', '--out', memh]);
    expect(c.status, c.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(memh, 'manifest.json'), 'utf8')) as { coverage: string };
    expect(c.stderr).toBe(`${manifest.coverage}\n`);
  });

  it('bad flags exit 2', () => {
    const cases: [string[], RegExp][] = [
      [['vectors', 'ets', '--random', '0'], /--random: must be a whole number of events 1\.\./],
      [['vectors', 'ets', '--random', '10', '--seed', '-1'], /--seed: must be a whole number/],
      [['vectors', 'ets', '--seed', '3', '--stimulus', '-'], /--seed: seeds --random/],
      [['vectors', 'credit', '--random', '10', '--priority', '3'], /--priority: selects the priority of --config; give --config too/],
      [['vectors', 'ets', '--random', '10', '--stimulus', '-'], /--random: draws the stimulus/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args, { input: '{}' });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });
});
