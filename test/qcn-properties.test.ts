// fast-check properties of the QCN/DCQCN kernels: rate bounds and TR >= CR while a rate limiter is
// active, determinism, the CP against a line-by-line TypeScript statement of docs/design.md §4.4, and a
// fixed memory size across long runs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Core } from '../host/core/loader.js';
import { cpModel, rpModel, vectors, type Line } from './qcn-oracle.js';

const RUNS = 100;

/** Sorted event times built from gaps measured in units of the timer period (so timer lines stay few). */
function timeline(period: number, gaps: number[]): number[] {
  let t = 0;
  return gaps.map((g) => (t += Math.floor(g * period)));
}

const qauParams = fc
  .record({
    line_bps: fc.integer({ min: 100_000_000, max: 400_000_000_000 }),
    bc_bytes: fc.integer({ min: 1000, max: 40_000 }),
    timer_ps: fc.integer({ min: 1_000_000, max: 20_000_000_000 }),
    th: fc.integer({ min: 1, max: 5 }),
    ai_bps: fc.integer({ min: 0, max: 100_000_000 }),
    hai_bps: fc.integer({ min: 0, max: 1_000_000_000 }),
    gd_shift: fc.integer({ min: 5, max: 10 }),
    extra_fast_recovery: fc.boolean(),
    minFrac: fc.double({ min: 0.0001, max: 0.5, noNaN: true }),
    decFrac: fc.double({ min: 0.01, max: 1, noNaN: true }),
  })
  .map(({ minFrac, decFrac, ...p }) => ({
    ...p,
    min_bps: Math.max(1, Math.floor(p.line_bps * minFrac)),
    min_dec_num: Math.max(1, Math.floor(2 ** p.gd_shift * decFrac)),
  }));

// Weighted so that runs reach the later stages (HAI, release, TR/8), not only cuts.
const rpEvent = fc.oneof(
  { arbitrary: fc.record({ type: fc.constant('cnm'), qf: fc.integer({ min: 0, max: 63 }) }), weight: 1 },
  { arbitrary: fc.record({ type: fc.constant('tx'), bytes: fc.integer({ min: 64, max: 9216 }), backlog: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100_000 })) }), weight: 16 },
  { arbitrary: fc.record({ type: fc.constant('tick') }), weight: 3 },
);

const rpStimulus = fc
  .record({
    seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    params: qauParams,
    events: fc.array(fc.tuple(rpEvent, fc.double({ min: 0, max: 1.5, noNaN: true })), { minLength: 10, maxLength: 150 }),
  })
  .map(({ seed, params, events }) => {
    const times = timeline(params.timer_ps, events.map(([, g]) => g));
    return { seed, params, events: events.map(([e], i) => ({ t_ps: times[i], ...e })) };
  });

/** One cut, then only frames and ticks: long recoveries that reach AI, HAI, TR/8 and the release. */
const recoveryStimulus = rpStimulus.chain((s) =>
  fc.integer({ min: 1, max: 63 }).map((qf) => ({
    ...s,
    events: [{ t_ps: 0, type: 'cnm', qf }, ...s.events.filter((e) => e.type !== 'cnm').map((e) => ({ ...e, t_ps: e.t_ps + 1 }))],
  })),
);

function checkRateInvariants(lines: Line[], minBps: number, lineBps: number): void {
  let t = 0;
  for (const l of lines) {
    expect(l.t_ps as number).toBeGreaterThanOrEqual(t);
    t = l.t_ps as number;
    if (l.active !== 1) continue;
    expect(l.cr_bps as number).toBeGreaterThanOrEqual(minBps);
    expect(l.cr_bps as number).toBeLessThanOrEqual(lineBps);
    expect(l.tr_bps as number).toBeGreaterThanOrEqual(l.cr_bps as number);
  }
}

describe('qcn-rp properties', () => {
  it('qau-pc: min rate <= CR <= line rate and TR >= CR on every active line; lines in time order', () => {
    fc.assert(
      fc.property(fc.oneof(rpStimulus, recoveryStimulus), (s) => {
        checkRateInvariants(vectors('qcn-rp', s), s.params.min_bps, s.params.line_bps);
      }),
      { numRuns: RUNS },
    );
  });

  it('dcqcn: the same bounds, and 0 <= alpha <= 2^alpha_bits', () => {
    const dcqcnEvent = fc.oneof(
      fc.record({ type: fc.constantFrom('cnp', 'ce', 'tick') }),
      fc.record({ type: fc.constant('tx'), bytes: fc.integer({ min: 64, max: 9216 }), backlog: fc.integer({ min: 0, max: 1 }) }),
    );
    const stim = fc
      .record({
        line_bps: fc.integer({ min: 1_000_000_000, max: 400_000_000_000 }),
        g_q10: fc.integer({ min: 0, max: 1024 }),
        alpha_bits: fc.integer({ min: 10, max: 24 }),
        bc_bytes: fc.integer({ min: 1000, max: 1_000_000 }),
        events: fc.array(fc.tuple(dcqcnEvent, fc.double({ min: 0, max: 2, noNaN: true })), { maxLength: 60 }),
      })
      .map(({ events, ...p }) => {
        const times = timeline(55_000_000, events.map(([, g]) => g));
        return { params: { profile: 'dcqcn', ...p }, events: events.map(([e], i) => ({ t_ps: times[i], ...e })) };
      });
    fc.assert(
      fc.property(stim, (s) => {
        const lines = vectors('qcn-rp', s);
        checkRateInvariants(lines, 5_000_000, s.params.line_bps);
        const field = `alpha_q${s.params.alpha_bits}`;
        for (const l of lines) expect(l[field] as number).toBeGreaterThanOrEqual(0);
        for (const l of lines) expect(l[field] as number).toBeLessThanOrEqual(2 ** s.params.alpha_bits);
      }),
      { numRuns: RUNS },
    );
  });

  it('qau-pc matches the line-by-line BigInt statement of docs/design.md §4.5 (order, draws, arithmetic)', () => {
    fc.assert(
      fc.property(fc.oneof(rpStimulus, recoveryStimulus), (s) => {
        expect(vectors('qcn-rp', s)).toEqual(rpModel(s.params, s.seed, s.events));
      }),
      { numRuns: 3 * RUNS }, // cheap, and the later stages (HAI, TR/8) show up in a few % of runs
    );
  });

  it('determinism: the same stimulus and seed give identical vectors', () => {
    fc.assert(
      fc.property(rpStimulus, (s) => {
        expect(JSON.stringify(vectors('qcn-rp', s))).toBe(JSON.stringify(vectors('qcn-rp', structuredClone(s))));
      }),
      { numRuns: 30 },
    );
  });
});

describe('qcn-cp properties', () => {
  const cpParams = fc.record({
    q_eq: fc.integer({ min: 1000, max: 100_000 }),
    w: fc.integer({ min: 1, max: 8 }),
    quantiser: fc.constantFrom('linear' as const, 'msb' as const),
  });
  /** Random enq/deq streams that never dequeue more than the queue holds. */
  const cpEvents = fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 64, max: 9216 })), { maxLength: 300 }).map((xs) => {
    let q = 0;
    return xs.map(([isEnq, bytes]) => {
      const deq = !isEnq && q > 0;
      const b = deq ? Math.min(bytes, q) : bytes;
      q += deq ? -b : b;
      return { type: deq ? 'deq' : 'enq', bytes: b };
    });
  });

  it('matches the line-by-line statement of docs/design.md §4.4 (fb, qf, sampling, CNMs, draws)', () => {
    fc.assert(
      fc.property(cpParams, fc.integer({ min: 0, max: 2 ** 32 - 1 }), cpEvents, (params, seed, events) => {
        const got = vectors('qcn-cp', { seed, params, events });
        expect(got).toEqual(cpModel(params, seed, events));
        const fbMax = params.q_eq * (2 * params.w + 1);
        for (const l of got) {
          expect(l.fb as number).toBeGreaterThanOrEqual(-fbMax);
          expect(l.qf as number).toBeLessThanOrEqual(63);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('memory', () => {
  it('does not grow over long CP and RP runs (no allocation after init)', () => {
    const core = new Core('release');
    core.fn<() => void>('qcnCpBenchSetup')();
    const run = core.fn<(n: number) => number>('qcnCpBenchRun');
    const a = run(200_000);
    expect(core.memoryBytes).toBe(core.initialBytes);
    // deterministic checksum of the CNMs (the record keeps its state, so a second run differs in phase)
    const again = new Core('release');
    again.fn<() => void>('qcnCpBenchSetup')();
    expect(again.fn<(n: number) => number>('qcnCpBenchRun')(200_000)).toBe(a);
    expect(a).not.toBe(0);
    const lines = vectors('qcn-rp', { params: { timer_ps: 1_000_000 }, events: [{ t_ps: 0, type: 'cnm', qf: 50 }, { t_ps: 2_000_000_000, type: 'tick' }] });
    expect(lines.length).toBeGreaterThan(3000); // thousands of timer expiries, one fixed record
  });
});
