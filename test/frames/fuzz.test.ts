// 10^5 random and mutated inputs per frame decoder (docs/design.md §7): only typed errors, and whatever is
// accepted re-encodes to the same bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCnm } from '../../host/frames/cnm.js';
import { decodeCeGrant, decodeCeSync } from '../../host/frames/credit.js';
import { decodeFrame, encodeFrame, type ControlFrame } from '../../host/frames/index.js';
import { decodePause } from '../../host/frames/pause.js';
import { decodePfc } from '../../host/frames/pfc.js';
import { readPcap, writePcap } from '../../host/capture/pcap.js';
import { fuzzDecoder } from '../fuzz.js';
import { ceGrantArb, ceSyncArb, cnmArb, controlFrameArb, pauseArb, pfcArb } from './arbitraries.js';

const RUNS = 100_000;
const seedsOf = (arb: fc.Arbitrary<ControlFrame>, seed: number) => fc.sample(arb, { seed, numRuns: 40 }).map((f) => encodeFrame(f));
const enc = (f: ControlFrame) => encodeFrame(f);

describe('frame decoders under 10^5 fuzzed inputs each', () => {
  const cases: [string, Uint8Array[], (b: Uint8Array) => ControlFrame][] = [
    ['PFC', seedsOf(pfcArb, 1), decodePfc],
    ['PAUSE', seedsOf(pauseArb, 2), decodePause],
    ['CE sync', seedsOf(ceSyncArb, 3), decodeCeSync],
    ['CE grant', seedsOf(ceGrantArb, 4), decodeCeGrant],
    ['CNM', seedsOf(cnmArb, 5), decodeCnm],
    ['any control frame', seedsOf(controlFrameArb, 6), (b) => decodeFrame(b)],
  ];
  it.each(cases)('%s', (_name, seeds, decode) => {
    const s = fuzzDecoder(seeds, decode, enc, { runs: RUNS, seed: 7 });
    expect(s.runs).toBe(RUNS);
    // both outcomes occur: the mutations reach past the first checks
    expect(s.accepted).toBeGreaterThan(0);
    expect(s.errors.size).toBeGreaterThan(1);
  }, 30_000);

  it('pcap reader', () => {
    const seeds = [0, 1, 3].map((n) => writePcap(seedsOf(controlFrameArb, 10 + n).slice(0, n).map((data, i) => ({ t_ps: BigInt(i) * 1000n, data }))));
    const s = fuzzDecoder(seeds, readPcap, null, { runs: RUNS, seed: 8, maxLen: 300 });
    expect(s.accepted).toBeGreaterThan(0);
  }, 30_000);
});
