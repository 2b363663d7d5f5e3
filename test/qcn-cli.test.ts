// `dcbkit vectors qcn-rp|qcn-cp` through the built CLI: JSON Lines on stdout, stimulus from stdin
// or a file, and the invalid-input contract (exit 2, `path: rule` on stderr, nothing on stdout).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const rpStimulus = {
  seed: 1,
  events: [
    { t_ps: 0, type: 'cnm', qf: 40 },
    { t_ps: 1_200_000, type: 'tx', bytes: 1500, backlog: 0 },
    { t_ps: 15_000_000_000, type: 'tick' },
  ],
};

describe('dcbkit vectors qcn-rp / qcn-cp', () => {
  it('reads the stimulus from stdin (`--stimulus -`) and prints one JSON line per event, timers first', () => {
    const r = runCli(['vectors', 'qcn-rp', '--stimulus', '-'], { input: JSON.stringify(rpStimulus) });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['cnm', 'tx', 'timer', 'tick']);
    // qf 40: 10e9 * max(128 - 40, 64) >> 7 = 10e9 * 88 / 128 = 6,875,000,000
    expect(lines[0]).toEqual({ t_ps: 0, type: 'cnm', active: 1, cr_bps: 6_875_000_000, tr_bps: 10_000_000_000, si: 0, ti: 0, bc_left: 150_000, deadline_ps: 15_000_000_000 });
    expect(Object.keys(lines[1])).toEqual(['t_ps', 'type', 'active', 'cr_bps', 'tr_bps', 'si', 'ti', 'bc_left', 'deadline_ps']);
  });

  it('reads a stimulus file for qcn-cp and is byte-identical across runs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-qcn-'));
    const file = join(dir, 'cp.json');
    writeFileSync(file, JSON.stringify({ params: { q_eq: 26000, w: 2, quantiser: 'linear' }, events: [{ type: 'enq', bytes: 60000, src: 3 }, { type: 'enq', bytes: 60000, src: 3 }, { type: 'enq', bytes: 60000, src: 3 }, { type: 'deq', bytes: 1500 }] }));
    const a = runCli(['vectors', 'qcn-cp', '--stimulus', file]);
    const b = runCli(['vectors', 'qcn-cp', '--stimulus', file]);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const lines = a.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines[2].cnm).toEqual({ dst: 3, qf: 63, q_off: 154_000, q_delta: 180_000 });
    expect(Object.keys(lines[3])).toEqual(['type', 'q', 'q_old', 'fb', 'qf', 'ttm', 'cnm']);
  });

  it('invalid stimulus: exit 2, one `path: rule` line per problem, nothing on stdout', () => {
    const bad = { events: [{ t_ps: 0, type: 'cnm', qf: 40 }, { t_ps: 5, type: 'cnm', qf: 64 }, { t_ps: 6, type: 'warp' }] };
    const r = runCli(['vectors', 'qcn-rp', '--stimulus', '-'], { input: JSON.stringify(bad) });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('events[1].qf: must be 0..63');
    expect(r.stderr).toContain('events[2].type: must be one of cnm, cnp, ce, tx, tick');
  });

  it('rejects time going backwards, unknown parameters, and dequeues beyond the queue', () => {
    const back = runCli(['vectors', 'qcn-rp', '--stimulus', '-'], { input: JSON.stringify({ events: [{ t_ps: 10, type: 'tick' }, { t_ps: 9, type: 'tick' }] }) });
    expect(back.status).toBe(2);
    expect(back.stdout).toBe('');
    expect(back.stderr).toContain('events[1].t_ps: must not be earlier than the previous event (10)');
    const param = runCli(['vectors', 'qcn-rp', '--stimulus', '-'], { input: JSON.stringify({ params: { line_bps: 10e9, bogus: 1 }, events: [] }) });
    expect(param.status).toBe(2);
    expect(param.stderr).toMatch(/^params\.bogus: unknown key/m);
    const cp = runCli(['vectors', 'qcn-cp', '--stimulus', '-'], { input: JSON.stringify({ events: [{ type: 'enq', bytes: 100 }, { type: 'deq', bytes: 101 }] }) });
    expect(cp.status).toBe(2);
    expect(cp.stdout).toBe('');
    expect(cp.stderr).toContain('events[1].bytes: dequeues more than the queue holds (100 bytes)');
  });
});
