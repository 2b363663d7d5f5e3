// Spec vectors for the dcqcn profile (Zhu et al., SIGCOMM 2015; integer form in docs/qcn.md):
// RP cut CR -= (CR * alpha) >> (b + 1) with TR = CR, alpha = ((2^b - g) alpha >> b) + g on a CNP
// and ((2^b - g) alpha) >> b per alpha period, b = alpha_bits fraction bits (20 by default, 10 the
// NIC-like Q10); NP sends at most one CNP per 50 us; CP marks with p = Pmax (q - Kmin) / (Kmax - Kmin)
// in Q16. Defaults: C = 40 Gb/s, T = tau' = 55 us, g = 1/256 (4 in Q10, 4096 in Q20).
import { describe, expect, it } from 'vitest';
import { Xorshift32, vectors } from './qcn-oracle.js';

const dcqcn = { profile: 'dcqcn' };
/** The NIC-like arithmetic: alpha and g with 10 fraction bits, every product rounded down. */
const q10 = { profile: 'dcqcn', alpha_bits: 10 };

describe('qcn-rp dcqcn', () => {
  it('first CNP halves the rate (alpha = 1), timers fire rate-timer first, a second CNP cuts by alpha / 2 (Q10)', () => {
    const lines = vectors('qcn-rp', {
      params: q10,
      events: [{ t_ps: 0, type: 'cnp' }, { t_ps: 55_000_000, type: 'tick' }, { t_ps: 60_000_000, type: 'cnp' }],
    });
    // CNP 1: TR = 40e9; CR = 40e9 - (40e9 * 1024 >> 11) = 20e9; alpha = (1020 * 1024 >> 10) + 4 = 1024
    expect(lines[0]).toEqual({
      t_ps: 0, type: 'cnp', active: 1, cr_bps: 20_000_000_000, tr_bps: 40_000_000_000, si: 0, ti: 0, bc_left: 10_000_000,
      deadline_ps: 55_000_000, alpha_q10: 1024, alpha_deadline_ps: 55_000_000,
    });
    // both due at 55 us: rate timer (ti = 1, CR = (20e9 + 40e9) / 2 = 30e9, next at 110 us, no jitter),
    // then the alpha decay: 1020 * 1024 >> 10 = 1020
    expect(lines.map((l) => l.type)).toEqual(['cnp', 'timer', 'alpha_timer', 'tick', 'cnp']);
    expect(lines[1]).toMatchObject({ t_ps: 55_000_000, ti: 1, cr_bps: 30_000_000_000, deadline_ps: 110_000_000, alpha_q10: 1024 });
    expect(lines[2]).toMatchObject({ t_ps: 55_000_000, alpha_q10: 1020, alpha_deadline_ps: 110_000_000 });
    // CNP 2: TR = 30e9; CR = 30e9 - (30e9 * 1020 >> 11) = 30e9 - 14,941,406,250 = 15,058,593,750;
    // alpha = (1020 * 1020 >> 10) + 4 = 1016 + 4 = 1020; timers restart from 60 us
    expect(lines[4]).toMatchObject({ cr_bps: 15_058_593_750, tr_bps: 30_000_000_000, ti: 0, alpha_q10: 1020, deadline_ps: 115_000_000, alpha_deadline_ps: 115_000_000 });
  });

  it('the notification point spaces CNPs at least 50 us apart', () => {
    const lines = vectors('qcn-rp', {
      params: dcqcn,
      events: [0, 30_000_000, 49_999_999, 50_000_000, 60_000_000].map((t) => ({ t_ps: t, type: 'ce' })),
    });
    expect(lines.filter((l) => l.type === 'ce').map((l) => l.cnp)).toEqual([1, 0, 0, 1, 0]);
  });

  it('alpha decays every tau\' while no CNP arrives (floor of 1020/1024 per step, Q10)', () => {
    const lines = vectors('qcn-rp', { params: { ...q10, timer_ps: 10 ** 12 }, events: [{ t_ps: 0, type: 'cnp' }, { t_ps: 165_000_000, type: 'tick' }] });
    // 1024 -> 1020 -> 1016 (1020 * 1020 >> 10 = 1016.02) -> 1012 (1016 * 1020 >> 10 = 1012.03)
    expect(lines.filter((l) => l.type === 'alpha_timer').map((l) => l.alpha_q10)).toEqual([1020, 1016, 1012]);
  });

  it('rejects qau-pc events under dcqcn and the reverse', () => {
    expect(() => vectors('qcn-rp', { params: dcqcn, events: [{ t_ps: 0, type: 'cnm', qf: 3 }] })).toThrow(/events\[0\]\.type: "cnm" is not an event of profile dcqcn/);
    expect(() => vectors('qcn-rp', { events: [{ t_ps: 0, type: 'cnp' }] })).toThrow(/events\[0\]\.type: "cnp" is not an event of profile qau-pc/);
  });
});

describe('qcn-cp dcqcn (ECN marking)', () => {
  it('no mark at or below Kmin, p = Pmax (q - Kmin) / (Kmax - Kmin) in between, always above Kmax', () => {
    const lines = vectors('qcn-cp', {
      params: dcqcn,
      events: [
        { type: 'enq', bytes: 5000 }, { type: 'enq', bytes: 60_000 },
        { type: 'enq', bytes: 65_535 }, { type: 'enq', bytes: 65_535 }, { type: 'deq', bytes: 1000 },
      ],
    });
    // Pmax 1 % = round(0.01 * 65536) = 655 in Q16; q = 5000 <= Kmin: p = 0, no draw
    expect(lines[0]).toEqual({ type: 'enq', q: 5000, p_q16: 0, ce: 0 });
    // q = 65000: p = 655 * 60000 / 195000 = 201.5 -> 201; marked iff (first draw >>> 16) < 201
    const r = Xorshift32.forEntity(1, 0).next();
    expect(lines[1]).toEqual({ type: 'enq', q: 65_000, p_q16: 201, ce: r >>> 16 < 201 ? 1 : 0 });
    // q = 130535: p = 655 * 125535 / 195000 = 421.7 -> 421
    expect(lines[2]).toMatchObject({ q: 130_535, p_q16: 421 });
    // q = 196070: p = 655 * 191070 / 195000 = 641.8 -> 641
    expect(lines[3]).toMatchObject({ q: 196_070, p_q16: 641 });
    expect(lines[4]).toEqual({ type: 'deq', q: 195_070, p_q16: 0, ce: 0 });
    const above = vectors('qcn-cp', { params: { ...dcqcn, kmax_bytes: 100_000 }, events: [{ type: 'enq', bytes: 65_535 }, { type: 'enq', bytes: 65_535 }] });
    expect(above[1]).toEqual({ type: 'enq', q: 131_070, p_q16: 65_536, ce: 1 });
  });

  it('marks with the configured probability over many draws (Pmax 50 %, q in the middle of the ramp)', () => {
    const events = [];
    for (let k = 0; k < 4000; k++) events.push({ type: 'enq', bytes: 1 }, { type: 'deq', bytes: 1 });
    // Kmin 0, Kmax 2, q = 1 at every enqueue: p = 32768 * (1 - 0) / 2 = 16384 (25 %)
    const lines = vectors('qcn-cp', { params: { ...dcqcn, kmin_bytes: 0, kmax_bytes: 2, pmax: 0.5 }, events });
    const enqs = lines.filter((l) => l.type === 'enq');
    expect(enqs.every((l) => l.p_q16 === 16_384)).toBe(true);
    const rate = enqs.filter((l) => l.ce === 1).length / enqs.length;
    expect(Math.abs(rate - 0.25)).toBeLessThan(0.03);
  });
});
