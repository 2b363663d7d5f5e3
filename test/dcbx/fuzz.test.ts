// 10^5 random and mutated inputs per DCBX decoder (docs/design.md §7): only DecodeError, and every
// accepted input re-encodes to itself.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLldpdu, decodeTlv, encodeLldpdu, encodeTlv } from '../../host/dcbx/lldpdu.js';
import { fuzzDecoder } from '../fuzz.js';
import { appTlvArb, ceeArb, cetArb, etsCfgArb, etsRecArb, lldpduArb, pfcTlvArb } from './arbitraries.js';

const RUNS = 100_000;

describe('DCBX decoders under 10^5 fuzzed inputs each', () => {
  it('LLDPDU (framing and every TLV inside)', () => {
    const seeds = fc.sample(lldpduArb, { seed: 41, numRuns: 60 }).map((p) => encodeLldpdu(p));
    const s = fuzzDecoder(seeds, (b) => decodeLldpdu(b), encodeLldpdu, { runs: RUNS, seed: 9, maxLen: 400 });
    expect(s.accepted).toBeGreaterThan(0);
    expect(s.errors.size).toBeGreaterThan(4);
  }, 60_000);

  it.each([
    ['IEEE TLVs', fc.oneof(etsCfgArb, etsRecArb, pfcTlvArb, appTlvArb)],
    ['CEE TLV', ceeArb],
    ['CET TLV', cetArb],
  ] as const)('%s on their own', (_n, arb) => {
    const seeds = fc.sample(arb as fc.Arbitrary<Parameters<typeof encodeTlv>[0]>, { seed: 42, numRuns: 60 }).map((t) => encodeTlv(t));
    const s = fuzzDecoder(seeds, (b) => decodeTlv(b), encodeTlv, { runs: RUNS, seed: 10, maxLen: 200 });
    expect(s.accepted).toBeGreaterThan(0);
    expect(s.errors.size).toBeGreaterThan(1);
  }, 60_000);
});
