// ETS (802.1Qaz, assembly/ets.ts): spec vectors with their arithmetic, DRR invariants as
// properties, and the `vectors ets` command.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EtsHarness, type EtsConfig, type TsaName } from '../../host/core/ets.js';
import { Core } from '../../host/core/loader.js';
import { runCli } from '../helpers.js';

const core = new Core('debug'); // bounds-checked build: an out-of-range access aborts the test
const cfg4040 = (): EtsConfig => ({
  prio_tc: [0, 0, 1, 1, 2, 2, 3, 3],
  tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'],
  bw: [40, 40, 20, 0, 0, 0, 0, 0],
});

/** Keeps the given TCs saturated (refilled after every transmission) and counts wire bytes per TC. */
function saturate(h: EtsHarness, prioOfTc: number[], frames: number, sizeOf: (i: number) => number): number[] {
  const wire = new Array(8).fill(0);
  for (const p of prioOfTc) for (let k = 0; k < 4; k++) h.enqueue(p, sizeOf(k));
  for (let i = 0; i < frames; i++) {
    const r = h.transmit()!;
    wire[r.tc] += r.bytes + 20;
    h.enqueue(prioOfTc.find((p) => h.cfg.prio_tc[p] === r.tc)!, sizeOf(i + 7));
  }
  return wire;
}
const lcgSize = (i: number) => 64 + ((i * 2654435761) >>> 0) % (1518 - 64 + 1);
const shares = (w: number[]) => { const t = w.reduce((a, b) => a + b, 0); return w.map((x) => (100 * x) / t); };

describe('ETS quantum derivation', () => {
  it('40/40/20 at max frame 1518: Q = ceil(1538 / 20) = 77, quanta 3080/3080/1540', () => {
    const s = new EtsHarness(core, cfg4040(), 1518).snapshot();
    expect(s.q_unit).toBe(77); // 1538 / 20 = 76.9 -> 77
    expect(s.quantum).toEqual([3080, 3080, 1540, 0, 0, 0, 0, 0]); // 40*77, 40*77, 20*77; strict TCs none
    expect(s.cur).toBe(7); // the first round starts at TC 0
  });
  it('33/33/34 at 9216: Q = ceil(9236 / 33) = 280, every quantum >= one max wire frame (9236)', () => {
    const c: EtsConfig = { prio_tc: [0, 1, 2, 0, 0, 0, 0, 0], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [33, 33, 34, 0, 0, 0, 0, 0] };
    const s = new EtsHarness(core, c, 9216).snapshot();
    expect(s.q_unit).toBe(280); // 9236 / 33 = 279.88
    expect(s.quantum.slice(0, 3)).toEqual([9240, 9240, 9520]);
  });
  it('a 0 % ETS TC gets a quantum of one max wire frame; all-strict has none', () => {
    const c: EtsConfig = { prio_tc: [0, 1, 2, 3, 4, 5, 6, 7], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [50, 50, 0, 0, 0, 0, 0, 0] };
    const s = new EtsHarness(core, c, 1518).snapshot();
    expect(s.q_unit).toBe(31); // ceil(1538 / 50) = 30.76 -> 31
    expect(s.quantum.slice(0, 3)).toEqual([1550, 1550, 1538]);
    const strict = new EtsHarness(core, { prio_tc: [0, 1, 2, 3, 4, 5, 6, 7], tsa: Array(8).fill('strict') as TsaName[], bw: Array(8).fill(0) }, 1518).snapshot();
    expect(strict.quantum).toEqual(Array(8).fill(0));
  });
});

describe('ETS selection', () => {
  it('hand-worked DRR trace (40/40/20, Q = 77)', () => {
    const h = new EtsHarness(core, cfg4040(), 1518);
    for (let i = 0; i < 3; i++) h.enqueue(0, 1500); // TC 0, wire 1520
    for (let i = 0; i < 2; i++) h.enqueue(2, 1000); // TC 1, wire 1020
    const steps: [number, number[]][] = [];
    for (let i = 0; i < 5; i++) { const r = h.transmit()!; steps.push([r.tc, h.snapshot().deficit.slice(0, 2)]); }
    expect(steps).toEqual([
      [0, [1560, 0]], // visit TC 0: 0 + 3080 - 1520
      [0, [40, 0]], //   1520 <= 1560: 1560 - 1520
      [1, [40, 2060]], // 1520 > 40 ends TC 0's visit (keeps 40); TC 1: 3080 - 1020
      [1, [40, 0]], //   2060 - 1020 = 1040, then TC 1 empties -> reset to 0
      [0, [0, 0]], // TC 0: 40 + 3080 - 1520 = 1600, then empty -> 0
    ]);
    expect(h.transmit()).toBeNull();
  });

  it('40/40/20 under saturation: wire-byte shares within 1 pp of the configuration', () => {
    const h = new EtsHarness(core, cfg4040(), 1518);
    const s = shares(saturate(h, [0, 2, 4], 20000, lcgSize));
    expect(Math.abs(s[0] - 40)).toBeLessThan(1);
    expect(Math.abs(s[1] - 40)).toBeLessThan(1);
    expect(Math.abs(s[2] - 20)).toBeLessThan(1);
  });

  it('strict TCs first, the highest TC number first, ETS only when no strict TC is backlogged', () => {
    const h = new EtsHarness(core, cfg4040(), 1518);
    h.enqueue(0, 100); // TC 0 (ets)
    h.enqueue(6, 200); // TC 3 (strict)
    h.enqueue(6, 300); // TC 3
    h.enqueue(4, 400); // TC 2 (ets)
    const c2: EtsConfig = { ...cfg4040(), prio_tc: [0, 0, 1, 1, 2, 2, 3, 5] };
    const h2 = new EtsHarness(core, { ...c2 }, 1518);
    h2.enqueue(6, 100); h2.enqueue(7, 200); h2.enqueue(0, 300);
    expect([h2.transmit()!.tc, h2.transmit()!.tc, h2.transmit()!.tc]).toEqual([5, 3, 0]);
    expect([h.transmit()!.bytes, h.transmit()!.bytes]).toEqual([200, 300]);
    expect(h.transmit()!.tc).toBe(0);
  });

  it('a 0 % TC is served only when no other ETS TC is backlogged', () => {
    const c: EtsConfig = { prio_tc: [0, 1, 2, 3, 4, 5, 6, 7], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [50, 50, 0, 0, 0, 0, 0, 0] };
    const h = new EtsHarness(core, c, 1518);
    for (let i = 0; i < 5; i++) { h.enqueue(0, 500); h.enqueue(1, 500); h.enqueue(2, 500); }
    const order = Array.from({ length: 15 }, () => h.transmit()!.tc);
    expect(order.slice(0, 10).includes(2)).toBe(false);
    expect(order.slice(10)).toEqual([2, 2, 2, 2, 2]);
    // ... and when the weighted TCs are blocked rather than empty (work conservation).
    for (let i = 0; i < 3; i++) { h.enqueue(0, 500); h.enqueue(2, 500); }
    h.blocked = 0b1;
    expect(h.transmit()!.tc).toBe(2);
  });

  it('work conserving: an idle ETS TC\'s share goes to the others in proportion (40:20 -> 66.7:33.3)', () => {
    const h = new EtsHarness(core, cfg4040(), 1518);
    const s = shares(saturate(h, [0, 4], 20000, lcgSize));
    expect(Math.abs(s[0] - 200 / 3)).toBeLessThan(1); // 40 / (40 + 20)
    expect(Math.abs(s[2] - 100 / 3)).toBeLessThan(1);
  });

  it('a blocked TC is skipped and never selected; the others share its bandwidth', () => {
    const h = new EtsHarness(core, cfg4040(), 1518);
    h.blocked = 0b1; // TC 0 paused
    const s = shares(saturate(h, [0, 2, 4], 20000, lcgSize));
    expect(s[0]).toBe(0);
    expect(Math.abs(s[1] - 200 / 3)).toBeLessThan(1); // 40 / (40 + 20)
    expect(h.queues[0].length).toBe(4);
    h.blocked = 0b1000; // a blocked strict TC lets ETS through
    h.enqueue(6, 100);
    expect(h.transmit()!.tc).not.toBe(3);
  });
});

const tsaArb = fc.constantFrom<TsaName>('strict', 'ets', 'ets', 'cbs', 'vendor');
const configArb = fc
  .record({ prio_tc: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 8, maxLength: 8 }), tsa: fc.array(tsaArb, { minLength: 8, maxLength: 8 }), w: fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 8, maxLength: 8 }) })
  .map(({ prio_tc, tsa, w }) => {
    // Turn weights into integer percentages of the weighted TCs summing to exactly 100.
    const weighted = tsa.map((t) => t === 'ets' || t === 'vendor');
    const bw = new Array(8).fill(0);
    const idx = [0, 1, 2, 3, 4, 5, 6, 7].filter((i) => weighted[i]);
    const total = idx.reduce((a, i) => a + w[i], 0);
    if (idx.length) {
      if (total === 0) bw[idx[0]] = 100;
      else { let acc = 0; let prev = 0; for (const i of idx) { acc += w[i]; const cum = Math.floor((acc * 100) / total); bw[i] = cum - prev; prev = cum; } }
    }
    return { prio_tc, tsa, bw } as EtsConfig;
  });
const opArb = fc.oneof(
  fc.record({ k: fc.constant('enq' as const), prio: fc.integer({ min: 0, max: 7 }), bytes: fc.integer({ min: 64, max: 1518 }) }),
  fc.record({ k: fc.constant('tx' as const) }),
  fc.record({ k: fc.constant('block' as const), mask: fc.integer({ min: 0, max: 255 }) }),
);

describe('ETS properties', () => {
  it('deficit bounds: 0 <= d < quantum + max_wire; d < max_wire off-visit; 0 when empty', () => {
    fc.assert(
      fc.property(configArb, fc.array(opArb, { maxLength: 300 }), (cfg, ops) => {
        const h = new EtsHarness(core, cfg, 1518);
        const maxWire = 1538;
        for (const op of ops) {
          if (op.k === 'enq') h.enqueue(op.prio, op.bytes);
          else if (op.k === 'block') h.blocked = op.mask;
          else h.transmit();
          const s = h.snapshot();
          for (let tc = 0; tc < 8; tc++) {
            const d = s.deficit[tc];
            expect(d).toBeGreaterThanOrEqual(0);
            expect(d).toBeLessThan(s.quantum[tc] + maxWire);
            if (tc !== s.cur) expect(d).toBeLessThan(maxWire);
            if (h.queues[tc].length === 0 && tc !== s.cur) expect(d).toBe(0);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('DRR fairness: two always-backlogged ETS TCs stay within 3 + Max/q_i + Max/q_j quanta of each other', () => {
    // Over any interval, TC i receives one quantum per visit it starts; the deficit at either end is
    // in [0, q_i + Max), so sent_i / q_i differs from its visit count by less than 1 + Max / q_i, and
    // visit counts of two backlogged TCs in one round-robin differ by at most 1. Max = 1538 (wire).
    const weightedArb = fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 2, maxLength: 8 }).map((w) => {
      const total = w.reduce((a, b) => a + b, 0);
      const bw = new Array(8).fill(0);
      let acc = 0; let prev = 0;
      w.forEach((x, i) => { acc += x; const cum = Math.floor((acc * 100) / total); bw[i] = cum - prev; prev = cum; });
      if (bw.some((b, i) => i < w.length && b === 0)) return null; // a 0 % TC is not guaranteed anything
      return { prio_tc: [0, 1, 2, 3, 4, 5, 6, 7], tsa: bw.map((_, i) => (i < w.length ? 'ets' : 'strict')), bw } as EtsConfig;
    });
    fc.assert(
      fc.property(weightedArb, fc.array(fc.integer({ min: 64, max: 1518 }), { minLength: 64, maxLength: 64 }), fc.nat(), fc.nat(), (cfg, sizes, a0, b0) => {
        if (!cfg) return;
        const n = cfg.bw.filter((_, i) => cfg.tsa[i] === 'ets').length;
        const h = new EtsHarness(core, cfg, 1518);
        const sent: number[][] = [];
        for (let tc = 0; tc < n; tc++) for (let k = 0; k < 3; k++) h.enqueue(tc, sizes[(tc * 7 + k) % 64]);
        const acc = new Array(8).fill(0);
        for (let i = 0; i < 400; i++) {
          const r = h.transmit()!;
          acc[r.tc] += r.bytes + 20;
          sent.push([...acc]);
          h.enqueue(r.tc, sizes[i % 64]);
        }
        const q = h.snapshot().quantum;
        const a = a0 % 400;
        const b = a + (b0 % (400 - a));
        for (let i = 0; i < n; i++) {
          for (let j = i + 1; j < n; j++) {
            const si = (sent[b][i] - sent[a][i]) / q[i];
            const sj = (sent[b][j] - sent[a][j]) / q[j];
            expect(Math.abs(si - sj)).toBeLessThan(3 + 1538 / q[i] + 1538 / q[j]);
          }
        }
      }),
      { numRuns: 120 },
    );
  });

  it('work conservation: a frame is sent iff some TC is backlogged and unblocked; strict TCs by number', () => {
    fc.assert(
      fc.property(configArb, fc.array(opArb, { maxLength: 300 }), (cfg, ops) => {
        const h = new EtsHarness(core, cfg, 1518);
        for (const op of ops) {
          if (op.k === 'enq') h.enqueue(op.prio, op.bytes);
          else if (op.k === 'block') h.blocked = op.mask;
          else {
            const eligible = h.backlog & ~h.blocked & 0xff;
            const strict = [0, 1, 2, 3, 4, 5, 6, 7].filter((t) => (eligible >> t) & 1 && (cfg.tsa[t] === 'strict' || cfg.tsa[t] === 'cbs'));
            const r = h.transmit();
            if (eligible === 0) expect(r).toBeNull();
            else {
              expect(r).not.toBeNull();
              expect((eligible >> r!.tc) & 1).toBe(1);
              if (strict.length) expect(r!.tc).toBe(Math.max(...strict));
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('dcbkit vectors ets', () => {
  const stim = {
    max_frame: 1518,
    ets: cfg4040(),
    events: [
      { type: 'enq', prio: 0, bytes: 1500 },
      { type: 'enq', prio: 2, bytes: 1000 },
      { type: 'block', tcs: [0] },
      { type: 'tx' },
      { type: 'block', tcs: [] },
      { type: 'tx' },
      { type: 'tx' },
    ],
  };
  it('prints one line per event with the state after it', () => {
    const r = runCli(['vectors', 'ets', '--stimulus=-'], { input: JSON.stringify(stim) });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(7);
    expect(lines[0]).toMatchObject({ type: 'enq', tc: 0, bytes: 1500, queued_frames: [1, 0, 0, 0, 0, 0, 0, 0] });
    // TC 0 blocked: TC 1 is visited first, 3080 - 1020 = 2060, then it empties -> 0.
    expect(lines[3]).toMatchObject({ type: 'tx', tc: 1, bytes: 1000, cur: 1, blocked: [0] });
    expect(lines[3].deficit[1]).toBe(0);
    expect(lines[5]).toMatchObject({ type: 'tx', tc: 0, cur: 0, deficit: [0, 0, 0, 0, 0, 0, 0, 0] });
    expect(lines[6]).toMatchObject({ type: 'tx', tc: null, bytes: 0 });
  });
  it('rejects a bandwidth table that does not sum to 100 with exit 2 and no output', () => {
    const bad = { ...stim, ets: { ...cfg4040(), bw: [40, 40, 10, 0, 0, 0, 0, 0] } };
    const r = runCli(['vectors', 'ets', '--stimulus=-'], { input: JSON.stringify(bad) });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^ets\.bw: bandwidths of ETS TCs sum to 90, must be 100$/m);
  });
  it('rejects a strict TC with bandwidth and an oversized frame', () => {
    const bad = { ...stim, ets: { ...cfg4040(), bw: [40, 40, 10, 10, 0, 0, 0, 0] }, events: [{ type: 'enq', prio: 0, bytes: 2000 }] };
    const r = runCli(['vectors', 'ets', '--stimulus=-'], { input: JSON.stringify(bad) });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/ets\.bw\[3\]: TC 3 has TSA strict; its bandwidth must be 0, got 10/);
    expect(r.stderr).toMatch(/events\[0\]\.bytes: frame of 2000 B exceeds max_frame 1518/);
  });
  it('applies the config\'s ETS rules (one validator): a vendor TC with bandwidth is refused as validate refuses it', () => {
    const tables = { ...cfg4040(), tsa: ['ets', 'ets', 'vendor', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 30, 30, 0, 0, 0, 0, 0] };
    const r = runCli(['vectors', 'ets', '--stimulus=-'], { input: JSON.stringify({ ...stim, ets: tables }) });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('ets.bw[2]: TC 2 has TSA vendor; its bandwidth must be 0, got 30');
    const v = runCli(['validate', '-'], { input: JSON.stringify({ ets: tables }) });
    expect(v.status).toBe(2);
    expect(v.stderr).toContain('ets.bw[2]: TC 2 has TSA vendor; its bandwidth must be 0, got 30');
  });
});
