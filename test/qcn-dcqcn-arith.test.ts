// DCQCN alpha arithmetic (docs/qcn.md "Reaction point, profile dcqcn"): alpha and g with alpha_bits
// fraction bits, every product rounded down. The default 20 bits keep the decay of Zhu et al. 2015
// (alpha (1 - g) every tau'); the NIC-like 10 bits reproduce the vectors of the build before the
// option existed byte for byte (test/fixtures/qcn-rp-q10), and collapse alpha under sparse CNPs.
// The ConnectX options (first-CNP rate, minimum decrease, cut shift, target-rate clamp rules) by
// hand, and everything line for line against the BigInt statement of test/qcn-oracle.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dcqcnRpModel, vectors, type Line } from './qcn-oracle.js';

const FIXTURES = 'test/fixtures/qcn-rp-q10';
const dcqcn = { profile: 'dcqcn' };

/** alpha of a line, whatever its fixed point, as a fraction of one. */
const alphaOf = (l: Line, bits: number) => (l[`alpha_q${bits}`] as number) / 2 ** bits;

describe('Q10 option: the old arithmetic, byte for byte', () => {
  const names = readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  it('finds the five fixtures', () => {
    expect(names.sort()).toEqual(['dense-cnp', 'docs-ce', 'mixed', 'qau-pc', 'sparse-cnp']);
  });
  for (const name of names) {
    it(`${name}: alpha_bits 10 prints what the build before alpha_bits printed`, () => {
      const stimulus = JSON.parse(readFileSync(`${FIXTURES}/${name}.json`, 'utf8'));
      if (stimulus.params?.profile === 'dcqcn') stimulus.params.alpha_bits = 10;
      const text = vectors('qcn-rp', stimulus).map((l) => JSON.stringify(l)).join('\n') + '\n';
      expect(text).toBe(gunzipSync(readFileSync(`${FIXTURES}/${name}.jsonl.gz`)).toString('utf8'));
    });
  }
});

describe('alpha_bits 20 (default)', () => {
  it('first CNP halves the rate, alpha decays by floor((2^20 - 4096) alpha / 2^20), a second CNP cuts by alpha / 2', () => {
    const lines = vectors('qcn-rp', {
      params: dcqcn,
      events: [{ t_ps: 0, type: 'cnp' }, { t_ps: 55_000_000, type: 'tick' }, { t_ps: 60_000_000, type: 'cnp' }],
    });
    // g = 1/256 = 4096 / 2^20. CNP 1: CR = 40e9 - (40e9 * 2^20 >> 21) = 20e9; alpha = ((2^20 - 4096) 2^20 >> 20) + 4096 = 2^20
    expect(lines[0]).toMatchObject({ cr_bps: 20_000_000_000, tr_bps: 40_000_000_000, alpha_q20: 1_048_576 });
    // 55 us: rate timer (CR = 30e9), then alpha = 1044480 * 2^20 / 2^20 = 1044480 (= 1020/1024 exactly)
    expect(lines.map((l) => l.type)).toEqual(['cnp', 'timer', 'alpha_timer', 'tick', 'cnp']);
    expect(lines[2]).toMatchObject({ alpha_q20: 1_044_480 });
    // CNP 2: CR = 30e9 - (30e9 * 1044480 >> 21) = 15,058,593,750; alpha = (1044480 * 1044480 >> 20) + 4096
    //   = 1040400 + 4096 = 1044496 (Q10 rounds the same product down to 1016 + 4 = 1020 = 1044480 / 1024)
    expect(lines[4]).toMatchObject({ cr_bps: 15_058_593_750, tr_bps: 30_000_000_000, alpha_q20: 1_044_496 });
    expect(lines[0]).not.toHaveProperty('alpha_q10');
  });

  it('decay without CNPs: 2^20 -> 1044480 -> 1040400 -> 1036335 (floor of 255/256 each step)', () => {
    const lines = vectors('qcn-rp', { params: { ...dcqcn, timer_ps: 10 ** 12 }, events: [{ t_ps: 0, type: 'cnp' }, { t_ps: 165_000_000, type: 'tick' }] });
    expect(lines.filter((l) => l.type === 'alpha_timer').map((l) => l.alpha_q20)).toEqual([1_044_480, 1_040_400, 1_036_335]);
  });

  it('sparse CNPs (one per 275 us, 110 ms): Q10 floors alpha to 0 between CNPs, Q20 holds the real-valued level', () => {
    const stimulus = JSON.parse(readFileSync(`${FIXTURES}/sparse-cnp.json`, 'utf8'));
    const run = (bits: number) => vectors('qcn-rp', { ...stimulus, params: { ...stimulus.params, alpha_bits: bits } });
    // alpha just before each CNP of the last 10 ms (the line before a cnp line is its alpha timer)
    const before = (lines: Line[], bits: number) =>
      lines.flatMap((l, i) => (l.type === 'cnp' && l.t_ps >= 100e9 ? [alphaOf(lines[i - 1], bits)] : []));
    // Real-valued recursion: a <- a (1 - g)^5 then a <- a (1 - g) + g per 275 us period; its fixed
    // point is g / (1 - (1 - g)^6) ... with the decays before it: alpha just before a CNP settles at
    // g (1-g)^5 / (1 - (1-g)^6) = 0.1645.
    const g = 1 / 256;
    const settled = (g * (1 - g) ** 5) / (1 - (1 - g) ** 6);
    for (const a of before(run(20), 20)) expect(Math.abs(a - settled)).toBeLessThan(0.002);
    for (const a of before(run(10), 10)) expect(a).toBe(0);
  });
});

describe('ConnectX options', () => {
  it('first_cnp_bps: the engaging CNP sets CR = TR = that rate (capped at C), later CNPs cut', () => {
    const lines = vectors('qcn-rp', {
      params: { ...dcqcn, first_cnp_bps: 25_000_000_000 },
      events: [{ t_ps: 0, type: 'cnp' }, { t_ps: 1_000_000, type: 'cnp' }],
    });
    expect(lines[0]).toMatchObject({ cr_bps: 25e9, tr_bps: 25e9, alpha_q20: 1_048_576 });
    // second: 25e9 - (25e9 * 2^20 >> 21) = 12.5e9
    expect(lines[1]).toMatchObject({ cr_bps: 12.5e9, tr_bps: 25e9 });
    const capped = vectors('qcn-rp', { params: { ...dcqcn, first_cnp_bps: 90e9 }, events: [{ t_ps: 0, type: 'cnp' }] });
    expect(capped[0]).toMatchObject({ cr_bps: 40e9, tr_bps: 40e9 });
  });

  it('alpha_cut_shift 0 cuts by alpha, min_dec_pct bounds the cut (floor(CR pct / 100)), min_bps below that', () => {
    const cut = (extra: object) => vectors('qcn-rp', { params: { ...dcqcn, alpha_cut_shift: 0, ...extra }, events: [{ t_ps: 0, type: 'cnp' }] })[0].cr_bps;
    expect(cut({})).toBe(5_000_000); // 40e9 - 40e9 = 0 -> min_bps
    expect(cut({ min_dec_pct: 50 })).toBe(20e9);
    expect(cut({ min_dec_pct: 33, line_bps: 1_000_000_001 })).toBe(330_000_000); // floor(1000000001 * 33 / 100)
    expect(vectors('qcn-rp', { params: { ...dcqcn, min_dec_pct: 75 }, events: [{ t_ps: 0, type: 'cnp' }] })[0].cr_bps).toBe(30e9);
  });

  it('clamp_tgt_rate false keeps TR unless the byte counter (or, with after_time_inc, the timer) increased since the cut', () => {
    const events = [
      { t_ps: 0, type: 'cnp' }, // CR 20e9, TR 40e9
      { t_ps: 55_000_000, type: 'tick' }, // timer: CR 30e9
      { t_ps: 60_000_000, type: 'cnp' },
    ];
    const run = (extra: object) => vectors('qcn-rp', { params: { ...dcqcn, clamp_tgt_rate: false, ...extra }, events }).at(-1)!;
    expect(run({})).toMatchObject({ tr_bps: 40e9 }); // only a timer increase: TR kept
    expect(run({ clamp_tgt_rate_after_time_inc: true })).toMatchObject({ tr_bps: 30e9 });
    const byBytes = vectors('qcn-rp', {
      params: { ...dcqcn, clamp_tgt_rate: false, bc_bytes: 1000 },
      events: [{ t_ps: 0, type: 'cnp' }, { t_ps: 1_000_000, type: 'tx', bytes: 1500, backlog: 1 }, { t_ps: 2_000_000, type: 'cnp' }],
    });
    // byte counter: CR = (20e9 + 40e9) / 2 = 30e9, si = 1; the CNP then sets TR = CR = 30e9
    expect(byBytes.at(-1)).toMatchObject({ tr_bps: 30e9 });
  });
});

describe('core = BigInt statement of the docs, every alpha_bits and option', () => {
  it('random stimuli, line for line', () => {
    const event = fc.oneof(
      fc.record({ type: fc.constantFrom('cnp', 'tick') }),
      fc.record({ type: fc.constant('tx'), bytes: fc.integer({ min: 64, max: 9216 }), backlog: fc.integer({ min: 0, max: 1 }) }),
    );
    const stim = fc.record({
      params: fc.record({
        profile: fc.constant('dcqcn'),
        line_bps: fc.integer({ min: 1e9, max: 800e9 }),
        bc_bytes: fc.integer({ min: 1000, max: 200_000 }),
        timer_ps: fc.integer({ min: 1e6, max: 100e6 }),
        th: fc.integer({ min: 1, max: 6 }),
        ai_bps: fc.integer({ min: 0, max: 100e6 }),
        hai_bps: fc.integer({ min: 0, max: 500e6 }),
        min_bps: fc.integer({ min: 1, max: 1e9 }),
        alpha_timer_ps: fc.integer({ min: 1e6, max: 100e6 }),
        alpha_bits: fc.integer({ min: 10, max: 24 }),
        g_q10: fc.integer({ min: 0, max: 1024 }),
        alpha_init_q10: fc.integer({ min: 0, max: 1024 }),
        alpha_cut_shift: fc.integer({ min: 0, max: 6 }),
        min_dec_pct: fc.integer({ min: 0, max: 100 }),
        first_cnp_bps: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 900e9 })),
        clamp_tgt_rate: fc.boolean(),
        clamp_tgt_rate_after_time_inc: fc.boolean(),
      }),
      gaps: fc.array(fc.tuple(event, fc.integer({ min: 0, max: 150e6 })), { maxLength: 80 }),
    }).map(({ params, gaps }) => {
      let t = 0;
      return { params, events: gaps.map(([e, gap]) => ({ ...e, t_ps: (t += gap) })) };
    });
    fc.assert(fc.property(stim, (s) => {
      fc.pre(s.params.min_bps <= s.params.line_bps);
      expect(vectors('qcn-rp', s)).toEqual(dcqcnRpModel(s.params, s.events));
    }), { numRuns: 300 });
  });
});

describe('bad alpha parameters', () => {
  it('name the field and the rule', () => {
    expect(() => vectors('qcn-rp', { params: { ...dcqcn, alpha_bits: 9 }, events: [] })).toThrow(/params\.alpha_bits: must be 10\.\.24/);
    expect(() => vectors('qcn-rp', { params: { ...dcqcn, alpha_cut_shift: 7 }, events: [] })).toThrow(/params\.alpha_cut_shift: must be 0\.\.6/);
    expect(() => vectors('qcn-rp', { params: { ...dcqcn, min_dec_pct: 101 }, events: [] })).toThrow(/params\.min_dec_pct: must be 0\.\.100/);
    expect(() => vectors('qcn-rp', { params: { alpha_bits: 20 }, events: [] })).toThrow(/params\.alpha_bits: unknown key/);
  });
});
