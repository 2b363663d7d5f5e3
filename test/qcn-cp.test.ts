// Spec vectors for the QCN congestion point, profile qau-pc (docs/design.md §4.4), the shared generator
// (docs/design.md §2), and the dcqcn marking CP. Defaults: Qeq = 26000 B, w = 2, Fbmax = 26000 * 5 = 130000.
import { describe, expect, it } from 'vitest';
import { Core } from '../host/core/loader.js';
import { Xorshift32, vectors } from './qcn-oracle.js';

const enq = (bytes: number, src: number | string = 7) => ({ type: 'enq', bytes, src });
const deq = (bytes: number) => ({ type: 'deq', bytes });

describe('xorshift32 and jitter (docs/design.md §2)', () => {
  const core = new Core('release');
  const at = core.constant('SCRATCH');
  const next = core.fn<(p: number) => number>('qcnRngNext');
  const jitter = core.fn<(base: bigint, p: number) => bigint>('qcnJitter');

  it('from state 1 the first output is 270369 (Marsaglia 2003, shifts 13, 17, 5)', () => {
    // 1 ^ 1 << 13 = 8193; 8193 ^ 8193 >>> 17 = 8193; 8193 ^ 8193 << 5 = 8193 ^ 262176 = 270369
    core.setI32(at, 1);
    expect(next(at) >>> 0).toBe(270369);
    expect(new Xorshift32(1).next()).toBe(270369);
  });

  it('jitter(base) lies in [0.85 base, 1.15 base) and is (base * (55706 + r % 19661)) >> 16', () => {
    const oracle = new Xorshift32(0x12345678);
    core.setI32(at, 0x12345678);
    for (let k = 0; k < 2000; k++) {
      const base = BigInt(1 + ((k * 7919) % 150_000)) * (k % 2 ? 100_000n : 1n);
      const j = jitter(base, at);
      expect(j).toBe(oracle.jitter(base));
      // 55706 / 65536 = 0.8500061; (55706 + 19660) / 65536 = 1.1499939
      expect(j * 100n >= base * 85n - 100n).toBe(true);
      expect(j * 100n < base * 115n).toBe(true);
    }
  });

  it('extreme draws give the exact ends of the range for base 65536', () => {
    // r % 19661 = 0 -> 65536 * 55706 >> 16 = 55706; = 19660 -> 75366 (never 1.15 * 65536 = 75366.4)
    expect((65536n * 55706n) >> 16n).toBe(55706n);
    expect((65536n * (55706n + 19660n)) >> 16n).toBe(75366n);
  });
});

describe('qcn-cp qau-pc: feedback and quantiser', () => {
  it('fb = (Qeq - q) - w (q - qOld), clamped to [-Fbmax, 0]; linear qf = floor(-fb * 63 / Fbmax)', () => {
    const lines = vectors('qcn-cp', { events: [enq(30_000), deq(30_000), enq(1000), enq(60_000)] });
    // q = 30000, qOld = 0: fb = (26000 - 30000) - 2 * 30000 = -64000; qf = floor(4,032,000 / 130000) = 31
    expect(lines[0]).toEqual({ type: 'enq', q: 30_000, q_old: 0, fb: -64_000, qf: 31, ttm: 120_000, cnm: null });
    expect(lines[1]).toEqual({ type: 'deq', q: 0, q_old: 0, fb: 0, qf: 0, ttm: 120_000, cnm: null });
    // q = 1000: fb = 25000 - 2000 = 23000 > 0 -> clamped to 0
    expect(lines[2]).toMatchObject({ q: 1000, fb: 0, qf: 0 });
    // q = 61000: fb = (26000 - 61000) - 2 * 61000 = -157000 < -130000 -> -130000, qf = 63
    expect(lines[3]).toMatchObject({ q: 61_000, fb: -130_000, qf: 63, ttm: 59_000 });
  });

  it('linear and msb quantisers differ where the msb one saturates early (>> bitlen(130000) - 6 = 11)', () => {
    // q = 51800: fb = 26000 - 3 * 51800 = -129400
    const linear = vectors('qcn-cp', { events: [enq(51_800)] })[0];
    const msb = vectors('qcn-cp', { params: { quantiser: 'msb' }, events: [enq(51_800)] })[0];
    expect(linear).toMatchObject({ fb: -129_400, qf: 62 }); // 129400 * 63 / 130000 = 62.71
    expect(msb).toMatchObject({ fb: -129_400, qf: 63 }); // 129400 >> 11 = 63 (63.18)
    // q = 30000 again: both 31 (4,032,000 / 130000 = 31.02; 64000 >> 11 = 31.25)
    expect(vectors('qcn-cp', { params: { quantiser: 'msb' }, events: [enq(30_000)] })[0].qf).toBe(31);
    // Qeq 33000: Fbmax 165000 (18 bits) -> >> 12; |fb| at the clamp gives 165000 >> 12 = 40, the
    // msb variant's known ceiling for this Qeq
    const sat = vectors('qcn-cp', { params: { quantiser: 'msb', q_eq: 33_000 }, events: [enq(65_535), enq(65_535)] });
    expect(sat[1]).toMatchObject({ fb: -165_000, qf: 40 });
  });

  it('samples when ttm goes negative: CNM to the source with qOff and qDelta, qOld = q, ttm = jitter(SAMPLE[qf >> 3])', () => {
    const lines = vectors('qcn-cp', { events: [enq(60_000), enq(60_000), enq(60_000, '02:00:00:00:00:09')] });
    // ttm 150000 -> 90000 -> 30000 -> -30000: third enqueue sampled. q = 180000, qOld = 0:
    // fb = -154000 - 360000 -> -130000, qf = 63; qOff = 180000 - 26000 = 154000; qDelta = 180000
    const rng = Xorshift32.forEntity(1, 0);
    expect(lines[2]).toEqual({
      type: 'enq', q: 180_000, q_old: 180_000, fb: -130_000, qf: 63,
      ttm: Number(rng.jitter(18_500n)), // 63 >> 3 = 7 -> 18500 B
      cnm: { dst: '02:00:00:00:00:09', qf: 63, q_off: 154_000, q_delta: 180_000 },
    });
  });

  it('a sample with qf = 0 sends nothing but still moves qOld and reloads from SAMPLE[0] = 150000', () => {
    const events = [];
    for (let k = 0; k < 101; k++) events.push(enq(1500), deq(1500));
    const lines = vectors('qcn-cp', { events });
    // the 101st enqueue: ttm = 150000 - 101 * 1500 = -1500 -> sample at q = 1500 (fb > 0 -> qf 0)
    const rng = Xorshift32.forEntity(1, 0);
    expect(lines[200]).toEqual({ type: 'enq', q: 1500, q_old: 1500, fb: 0, qf: 0, ttm: Number(rng.jitter(150_000n)), cnm: null });
    expect(lines.filter((l) => l.cnm !== null)).toHaveLength(0);
  });

  it('sampling interval table by qf >> 3: 150000 75000 50000 37500 30000 25000 21500 18500', () => {
    const core = new Core('release');
    const base = core.fn<(qf: number) => number>('qcnCpSampleBase');
    const table = [150_000, 75_000, 50_000, 37_500, 30_000, 25_000, 21_500, 18_500];
    for (let qf = 0; qf < 64; qf++) expect(base(qf)).toBe(table[qf >> 3]);
  });

  it('each band of qf reloads ttm from its own table entry', () => {
    const table = [150_000, 75_000, 50_000, 37_500, 30_000, 25_000, 21_500, 18_500];
    for (let band = 0; band < 8; band++) {
      // Aim at qf = 8 band + 4: with qOld = 0, -fb = 3q - 26000, so q = ceil((ceil(qf * 130000 / 63) + 26000) / 3).
      const want = band * 8 + 4;
      const q = Math.ceil((Math.ceil((want * 130_000) / 63) + 26_000) / 3);
      // 3 x 50000 B enqueued brings ttm to exactly 0 (no sample yet); the last 1-B frame samples at q.
      const events = [enq(50_000), deq(50_000), enq(50_000), deq(50_000), enq(50_000), deq(50_000 - (q - 1)), enq(1)];
      const last = vectors('qcn-cp', { events })[6];
      expect(last).toMatchObject({ q, fb: 26_000 - 3 * q, qf: Math.floor(((3 * q - 26_000) * 63) / 130_000) });
      expect((last.qf as number) >> 3).toBe(band);
      expect(last.ttm).toBe(Number(Xorshift32.forEntity(1, 0).jitter(BigInt(table[band]))));
    }
  });
});
