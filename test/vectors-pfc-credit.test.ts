// `dcbkit vectors pfc` and `dcbkit vectors credit`: line-per-event output, refresh lines at their
// deadlines, determinism, and exit 2 with nothing on stdout for bad stimulus.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateVectors } from '../host/commands/vectors.js';
import { runCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'dcbkit-vec-'));
function stimFile(name: string, doc: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return p;
}

// 100G, priority 3 lossless, xoff 3000, xon 1500, headroom 6000, pause_time 100 quanta:
// quantum 5120 ps, refresh every 50 quanta = 256,000 ps.
const pfcStim = {
  params: { speed: '100G', enable: [3], xoff: 3000, xon: 1500, headroom: 6000, pause_time: 100 },
  events: [
    { t_ps: 0, type: 'arrive', prio: 3, bytes: 1500 },
    { t_ps: 120_000, type: 'arrive', prio: 3, bytes: 1500 }, // 3000 >= 3000: XOFF, refresh due 376,000
    { t_ps: 700_000, type: 'tick' }, // refreshes at 376,000 and 632,000 come first
    { t_ps: 700_000, type: 'arrive', prio: 3, bytes: 6001 }, // 9001 > 3000 + 6000: dropped
    { t_ps: 800_000, type: 'depart', prio: 3, bytes: 1500 }, // 1500 <= 1500: XON
    { t_ps: 900_000, type: 'rx_pfc', enable_vector: 0b1000, time: [0, 0, 0, 100, 0, 0, 0, 0] },
    { t_ps: 1_000_000, type: 'rx_pfc', enable_vector: 0b1000, time: [0, 0, 0, 10, 0, 0, 0, 0] },
  ],
};

describe('vectors pfc', () => {
  it('one line per event plus one per refresh, with the state after it', () => {
    const lines = generateVectors('pfc', pfcStim) as Array<Record<string, any>>;
    expect(lines.map((l) => [l.type, l.t_ps])).toEqual([
      ['arrive', 0], ['arrive', 120_000], ['refresh', 376_000], ['refresh', 632_000], ['tick', 700_000],
      ['arrive', 700_000], ['depart', 800_000], ['rx_pfc', 900_000], ['rx_pfc', 1_000_000],
    ]);
    const [, xoff, r1, r2, , drop, xon, p1, p2] = lines;
    expect(xoff).toMatchObject({ tx_mask: 8, xoff_state: 8 });
    expect(xoff.tx_time[3]).toBe(100);
    expect(xoff.next_refresh_ps[3]).toBe(376_000);
    expect(r1).toMatchObject({ tx_mask: 8, prio: -1 });
    expect(r1.next_refresh_ps[3]).toBe(632_000);
    expect(r2.xoff_tx[3]).toBe(3);
    expect(drop.dropped).toBe(1);
    expect(drop.drop_bytes[3]).toBe(6001);
    expect(xon).toMatchObject({ tx_mask: 8, xoff_state: 0 });
    expect(xon.tx_time[3]).toBe(0);
    expect(xon.next_refresh_ps[3]).toBe(-1);
    // 900,000 + 100 * 5120 = 1,412,000; then replaced: 1,000,000 + 10 * 5120 = 1,051,200
    expect(p1.paused_until_ps[3]).toBe(1_412_000);
    expect(p2.paused_until_ps[3]).toBe(1_051_200);
    expect(p2.paused_ps[3]).toBe(100_000);
    expect(p2.blocked).toBe(8);
  });

  it('"auto" headroom comes from the headroom model', () => {
    // 100G, 100 m, MTU 9216: 73,888 * 2 + 672 + 245,760 + 100,000 + 201,728 = 695,936 bits = 86,992 B
    // limit = xoff 1000 + 86,992 = 87,992 = 9 * 9216 + 5048 exactly; one more frame is dropped
    const fill = Array.from({ length: 9 }, (_, i) => ({ t_ps: i, type: 'arrive', prio: 3, bytes: 9216 }));
    const lines = generateVectors('pfc', {
      params: { xoff: 1000, xon: 0, cable: '100m' },
      events: [...fill, { t_ps: 9, type: 'arrive', prio: 3, bytes: 5048 }, { t_ps: 10, type: 'arrive', prio: 3, bytes: 64 }],
    }) as Array<Record<string, any>>;
    expect(lines.map((l) => l.dropped)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(lines[9].occ[3]).toBe(87_992);
  });

  it('the CLI prints the same lines, byte-identical across runs', () => {
    const f = stimFile('pfc.json', pfcStim);
    const a = runCli(['vectors', 'pfc', '--stimulus', f]);
    const b = runCli(['vectors', 'pfc', '--stimulus', f]);
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual(generateVectors('pfc', pfcStim));
  });

  it.each([
    ['decreasing time', { events: [{ t_ps: 5, type: 'tick' }, { t_ps: 4, type: 'tick' }] }, /^events\[1\]\.t_ps: times must not decrease/m],
    ['unknown event', { events: [{ t_ps: 0, type: 'jump' }] }, /^events\[0\]/m],
    ['departing more than held', { events: [{ t_ps: 0, type: 'depart', prio: 2, bytes: 64 }] }, /^events\[0\]\.bytes: departs 64 B but priority 2 holds 0 B/m],
    ['a bad speed', { params: { speed: '7G' }, events: [] }, /^params\.speed: must be one of/m],
    ['an MTU above the shared limit (host/units/units.ts)', { params: { mtu: 16385 }, events: [] }, /^params\.mtu: .*16384/m],
    ['a time field of 8 entries', { events: [{ t_ps: 0, type: 'rx_pfc', enable_vector: 1, time: [1] }] }, /^events\[0\]\.time/m],
    ['not JSON', '{', /^--stimulus: not valid JSON/m],
  ])('exits 2 on %s, nothing on stdout', (_name, doc, message) => {
    const r = runCli(['vectors', 'pfc', '--stimulus', stimFile('bad-pfc.json', doc)]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});

// k = 16, U = 64, buffer 6400 B = 100 units
const creditStim = {
  params: { k: 16, unit: 64, buffer_bytes: 6400, aging_ps: 1_000_000 },
  events: [
    { t_ps: 0, type: 'grant_tx' }, // CL = 0 + min(100, 32768) = 100
    { t_ps: 10, type: 'grant_rx' }, // FCCL = 100
    { t_ps: 20, type: 'send', bytes: 1500 }, // 24 units, lost (no data_rx)
    { t_ps: 30, type: 'send', bytes: 1500 }, // TBS 48
    { t_ps: 40, type: 'data_rx', bytes: 1500 }, // ABR 24, used 24
    { t_ps: 50, type: 'sync_tx' }, // carries TBS 48
    { t_ps: 60, type: 'sync_rx' }, // ABR := 48
    { t_ps: 70, type: 'grant_tx' }, // CL = 48 + 76 = 124
    { t_ps: 80, type: 'grant_rx' },
    { t_ps: 90, type: 'send', bytes: 64, prio: 5, channel: 7 }, // another flow: no credit
    { t_ps: 1_000_079, type: 'tick' }, // grant at 80 + 1,000,000 > now: still valid
    { t_ps: 1_000_080, type: 'tick' }, // grant at 80 + 1,000,000 <= now: 76 unused units expire
  ],
};

describe('vectors credit', () => {
  it('heals a lost frame at the sync and ages credit out', () => {
    const lines = generateVectors('credit', creditStim) as Array<Record<string, any>>;
    expect(lines).toHaveLength(12);
    expect(lines[0]).toMatchObject({ result: 100, last_cl: 100 });
    expect(lines[3]).toMatchObject({ result: 24, tbs: 48, available_units: 52 });
    expect(lines[6]).toMatchObject({ abr: 48, syncs_rx: 1 });
    expect(lines[7]).toMatchObject({ result: 124 });
    expect(lines[8]).toMatchObject({ fccl: 124, available_units: 76 });
    expect(lines[9]).toMatchObject({ prio: 5, channel: 7, result: 0, blocked: 1, tbs: 0 });
    expect(lines[10]).toMatchObject({ prio: 0, result: 0, expired_units: 0, available_units: 76 });
    expect(lines[11]).toMatchObject({ prio: 0, result: 76, expired_units: 76, fccl: 48, available_units: 0 });
  });

  it('the CLI prints the same lines, from a file or from stdin (--stimulus -)', () => {
    const r = runCli(['vectors', 'credit', '--stimulus', stimFile('credit.json', creditStim)]);
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual(generateVectors('credit', creditStim));
    const fromStdin = runCli(['vectors', 'credit', '--stimulus', '-'], { input: JSON.stringify(creditStim) });
    expect(fromStdin.status).toBe(0);
    expect(fromStdin.stdout).toBe(r.stdout);
  });

  it.each([
    ['a grant_rx with nothing to deliver', { events: [{ t_ps: 0, type: 'grant_rx' }] }, /^events\[0\]\.cl: give cl/m],
    ['a limit outside the counter range', { params: { k: 4 }, events: [{ t_ps: 0, type: 'grant_rx', cl: 16 }] }, /^events\[0\]\.cl: must be below 2\^k = 16/m],
    ['a drain of more than is stored', { events: [{ t_ps: 0, type: 'drain', bytes: 64 }] }, /^events\[0\]\.bytes: drains 1 units but the buffer holds 0/m],
    ['an unknown parameter', { params: { kk: 3 }, events: [] }, /^params/m],
  ])('exits 2 on %s, nothing on stdout', (_name, doc, message) => {
    const r = runCli(['vectors', 'credit', '--stimulus', stimFile('bad-credit.json', doc)]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});
