// Spec vectors for the QCN reaction point, profile qau-pc (docs/design.md §4.5), with the arithmetic.
// Defaults: C = 10 Gb/s, BC = 150000 B, T = 15 ms, TH = 5, R_AI = 5 Mb/s, R_HAI = 50 Mb/s,
// Gd = 1/128, min decrease 64/128, min rate 5 Mb/s, extra fast recovery on; seed 1, entity 0.
import { describe, expect, it } from 'vitest';
import { Xorshift32, vectors, type Line } from './qcn-oracle.js';

const C = 10_000_000_000;
const T = 15_000_000_000; // 15 ms in ps

/** Sends `n` frames of 1500 B with a backlog behind them, at t = start, start + 1, ... ps. */
function txs(n: number, start: number, backlog = 100_000) {
  return Array.from({ length: n }, (_, k) => ({ t_ps: start + k, type: 'tx', bytes: 1500, backlog }));
}

const pick = (lines: Line[], ...keys: string[]) => lines.map((l) => Object.fromEntries(keys.map((k) => [k, l[k]])));

describe('qcn-rp qau-pc: rate decrease', () => {
  it('first CNM with qf = 63 at 10 Gb/s: CR = 10e9 * 65 >> 7 = 5,078,125,000; TR = C; timer at now + T', () => {
    const [l] = vectors('qcn-rp', { events: [{ t_ps: 0, type: 'cnm', qf: 63 }] });
    // factor = max(128 - 63, 64) = 65; 10e9 * 65 = 650e9; 650e9 >> 7 = 5,078,125,000
    expect(l).toEqual({ t_ps: 0, type: 'cnm', active: 1, cr_bps: 5_078_125_000, tr_bps: C, si: 0, ti: 0, bc_left: 150_000, deadline_ps: T });
  });

  it('min decrease factor clamps the cut (gd_shift 6, min_dec_num 32: factor max(64 - 63, 32) = 32)', () => {
    const [l] = vectors('qcn-rp', { params: { gd_shift: 6, min_dec_num: 32 }, events: [{ t_ps: 0, type: 'cnm', qf: 63 }] });
    // 10e9 * 32 >> 6 = 5e9 (a 50 % cut instead of 63/64)
    expect(l.cr_bps).toBe(5_000_000_000);
    // With the defaults the clamp does not bind: qf 63 gives max(65, 64) = 65, shown above; with
    // min_dec_num 100 and qf 40: max(88, 100) = 100 -> 10e9 * 100 >> 7 = 7,812,500,000.
    const [m] = vectors('qcn-rp', { params: { min_dec_num: 100 }, events: [{ t_ps: 0, type: 'cnm', qf: 40 }] });
    expect(m.cr_bps).toBe(7_812_500_000);
  });

  it('min rate bounds the cut, and qf = 0 is ignored', () => {
    const lines = vectors('qcn-rp', {
      params: { line_bps: 10_000_000, min_bps: 6_000_000 },
      events: [{ t_ps: 0, type: 'cnm', qf: 0 }, { t_ps: 1, type: 'cnm', qf: 63 }],
    });
    expect(lines[0].active).toBe(0); // qf 0 neither engages nor cuts
    // 10e6 * 65 >> 7 = 5,078,125 < 6e6 -> 6e6
    expect(lines[1].cr_bps).toBe(6_000_000);
  });

  it('back-to-back CNMs inside the first byte-counter cycle keep TR; after a BC cycle TR = CR', () => {
    const lines = vectors('qcn-rp', {
      params: { bc_bytes: 1000 },
      events: [{ t_ps: 0, type: 'cnm', qf: 63 }, { t_ps: 1, type: 'cnm', qf: 63 }, ...txs(1, 2), { t_ps: 3, type: 'cnm', qf: 63 }],
    });
    // CR1 = 5,078,125,000; CR2 = 5,078,125,000 * 65 >> 7 = 2,578,735,351 (TR stays 10e9, si = 0)
    expect(pick(lines, 'cr_bps', 'tr_bps')[1]).toEqual({ cr_bps: 2_578_735_351, tr_bps: C });
    // tx: si = 1, CR = (2,578,735,351 + 10e9) / 2 = 6,289,367,675; then the CNM: TR = 6,289,367,675,
    // CR = 6,289,367,675 * 65 = 408,808,898,875; >> 7 = 3,193,819,522; bc_left back to BC = 1000
    expect(pick(lines, 'cr_bps', 'tr_bps', 'si', 'bc_left')[3]).toEqual({ cr_bps: 3_193_819_522, tr_bps: 6_289_367_675, si: 0, bc_left: 1000 });
  });
});

describe('qcn-rp qau-pc: recovery', () => {
  // bc_bytes 1000 with 1500-B frames: every frame expires the counter (reloads are at most
  // 1.15 * 1000 = 1149 B), so each tx line is one byte-counter cycle whatever the jitter draws.
  const cut = { t_ps: 0, type: 'cnm', qf: 63 };

  it('fast recovery halves the distance to TR over 5 cycles, then active increase adds R_AI', () => {
    const lines = vectors('qcn-rp', { params: { bc_bytes: 1000 }, events: [cut, ...txs(6, 1)] });
    // CR_k = floor((CR_{k-1} + TR) / 2), TR = 10e9 fixed while si <= TH = 5 (Ri = 0):
    //   5,078,125,000 -> 7,539,062,500 -> 8,769,531,250 -> 9,384,765,625 -> 9,692,382,812 -> 9,846,191,406
    // si = 6 > TH, ti = 0: AI: TR = 10e9 + 5e6 = 10,005,000,000; CR = (9,846,191,406 + TR) / 2 = 9,925,595,703
    expect(pick(lines.slice(1), 'si', 'cr_bps', 'tr_bps')).toEqual([
      { si: 1, cr_bps: 7_539_062_500, tr_bps: C },
      { si: 2, cr_bps: 8_769_531_250, tr_bps: C },
      { si: 3, cr_bps: 9_384_765_625, tr_bps: C },
      { si: 4, cr_bps: 9_692_382_812, tr_bps: C },
      { si: 5, cr_bps: 9_846_191_406, tr_bps: C },
      { si: 6, cr_bps: 9_925_595_703, tr_bps: 10_005_000_000 },
    ]);
  });

  it('hyperactive increase: R_HAI * (min(si, ti) - TH) once both stages pass TH', () => {
    const lines = vectors('qcn-rp', {
      params: { bc_bytes: 1000, timer_ps: 1_000_000 },
      events: [cut, ...txs(6, 1), { t_ps: 10_000_000, type: 'tick' }, ...txs(1, 10_000_001)],
    });
    const timers = lines.filter((l) => l.type === 'timer');
    expect(timers.length).toBeGreaterThan(6);
    // after the six frames (previous test): TR = 10,005,000,000, CR = 9,925,595,703
    let tr = 10_005_000_000;
    let cr = 9_925_595_703;
    timers.forEach((l, k) => {
      const ti = k + 1;
      // si = 6: ti 1..5 -> AI (+5e6); ti >= 6 -> HAI, 50e6 * (min(6, ti) - 5) = 50e6
      tr += ti <= 5 ? 5_000_000 : 50_000_000;
      cr = Math.min(Math.floor((cr + tr) / 2), C); // e.g. ti = 1: (9,925,595,703 + 10,010,000,000) / 2 = 9,967,797,851
      expect(pick([l], 'ti', 'tr_bps', 'cr_bps')[0]).toEqual({ ti, tr_bps: tr, cr_bps: cr });
    });
    expect(timers[0].cr_bps).toBe(9_967_797_851);
    expect(timers[timers.length - 1].cr_bps).toBe(C); // TR is not capped, CR is
    // the last frame: si = 7, ti = n >= 7: 50e6 * (min(7, n) - 5) = 100e6
    expect(lines[lines.length - 1].tr_bps).toBe(tr + 100_000_000);
  });

  it('extra fast recovery: TR > 10 CR at si == 1 gives TR = TR / 8', () => {
    const cnms = [0, 1, 2, 3].map((t) => ({ t_ps: t, type: 'cnm', qf: 63 }));
    // four cuts with TR kept at 10e9 (si = 0): 5,078,125,000 -> 2,578,735,351 -> 1,309,514,045 -> 664,987,600
    const on = vectors('qcn-rp', { params: { bc_bytes: 1000 }, events: [...cnms, ...txs(1, 4)] });
    expect(on[3].cr_bps).toBe(664_987_600);
    // si = 1 and 10e9 > 10 * 664,987,600: TR = 10e9 / 8 = 1,250,000,000; CR = (664,987,600 + 1.25e9) / 2 = 957,493,800
    expect(pick(on, 'tr_bps', 'cr_bps')[4]).toEqual({ tr_bps: 1_250_000_000, cr_bps: 957_493_800 });
    const off = vectors('qcn-rp', { params: { bc_bytes: 1000, extra_fast_recovery: false }, events: [...cnms, ...txs(1, 4)] });
    // without it: TR stays 10e9; CR = (664,987,600 + 10e9) / 2 = 5,332,493,800
    expect(pick(off, 'tr_bps', 'cr_bps')[4]).toEqual({ tr_bps: C, cr_bps: 5_332_493_800 });
  });

  it('releases the rate limiter on a frame sent with CR = C and an empty queue', () => {
    const lines = vectors('qcn-rp', {
      params: { bc_bytes: 1000 },
      events: [{ t_ps: 0, type: 'cnm', qf: 1 }, ...txs(8, 1), { t_ps: 100, type: 'tx', bytes: 64, backlog: 0 }],
    });
    // qf 1: CR = 10e9 * 127 >> 7 = 9,921,875,000; FR 5 steps + AI steps reach C (capped) by si = 7
    expect(lines[1].cr_bps).toBe(9_960_937_500); // (9,921,875,000 + 10e9) / 2
    expect(lines[8].cr_bps).toBe(C);
    expect(lines[9]).toMatchObject({ type: 'tx', active: 0 });
  });
});

describe('qcn-rp qau-pc: timers and draw order', () => {
  it('a timer due at an event fires first, at its deadline; timer draw before byte-counter draw', () => {
    const lines = vectors('qcn-rp', {
      params: { bc_bytes: 1000 },
      events: [{ t_ps: 0, type: 'cnm', qf: 63 }, { t_ps: T, type: 'tx', bytes: 1500, backlog: 1 }],
    });
    expect(lines.map((l) => l.type)).toEqual(['cnm', 'timer', 'tx']);
    const rng = Xorshift32.forEntity(1, 0);
    const deadline = BigInt(T) + rng.jitter(BigInt(T)); // first draw: the timer reload (ti = 1 < TH: full T)
    const bcLeft = rng.jitter(1000n); // second draw: the byte-counter reload (si = 1 < TH: full BC)
    // timer: ti = 1, CR = (5,078,125,000 + 10e9) / 2 = 7,539,062,500
    expect(lines[1]).toEqual({ t_ps: T, type: 'timer', active: 1, cr_bps: 7_539_062_500, tr_bps: C, si: 0, ti: 1, bc_left: 1000, deadline_ps: Number(deadline) });
    // frame: si = 1, CR = (7,539,062,500 + 10e9) / 2 = 8,769,531,250
    expect(lines[2]).toEqual({ t_ps: T, type: 'tx', active: 1, cr_bps: 8_769_531_250, tr_bps: C, si: 1, ti: 1, bc_left: Number(bcLeft), deadline_ps: Number(deadline) });
  });

  it('halves the timer period once ti reaches TH, and keeps firing timers until the tick time', () => {
    const lines = vectors('qcn-rp', { events: [{ t_ps: 0, type: 'cnm', qf: 63 }, { t_ps: 200_000_000_000, type: 'tick' }] });
    const timers = lines.filter((l) => l.type === 'timer');
    const rng = Xorshift32.forEntity(1, 0);
    let deadline = BigInt(T);
    timers.forEach((l, k) => {
      const ti = k + 1;
      expect(l.t_ps).toBe(Number(deadline));
      deadline += rng.jitter(ti < 5 ? BigInt(T) : BigInt(T / 2)); // 15 ms, then 7.5 ms from ti = 5
      expect(l.deadline_ps).toBe(Number(deadline));
    });
    expect(Number(deadline)).toBeGreaterThan(200_000_000_000);
    expect(lines[lines.length - 1].type).toBe('tick');
  });

  it('a CNM restarts the timer at now + T without a draw', () => {
    const lines = vectors('qcn-rp', { events: [{ t_ps: 0, type: 'cnm', qf: 10 }, { t_ps: 5, type: 'cnm', qf: 10 }] });
    expect(lines[1].deadline_ps).toBe(5 + T);
  });
});
