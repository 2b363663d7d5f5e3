// Frame codecs: golden bytes laid out from IEEE 802.3 Annex 31B/31D, lossless round trips, typed errors.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHex, toHex } from '../../host/frames/bytes.js';
import { appendFcs, crc32 } from '../../host/frames/fcs.js';
import { decodeFrame, encodeFrame } from '../../host/frames/index.js';
import { decodePfc, encodePfc } from '../../host/frames/pfc.js';
import { readPcap, writePcap } from '../../host/capture/pcap.js';
import { controlFrameArb } from './arbitraries.js';
import { errorOf } from '../helpers.js';

describe('PFC frame (802.1Qbb, Annex 31D)', () => {
  // IEEE 802.3 Annex 31D layout, golden vector: priority 3 paused 0xFFFF quanta, priority 4 0x1234;
  // enable vector 0x0018 = bits 3 and 4; 16 header/opcode bytes + 2 + 16 + 26 pad = 60 bytes.
  const golden = '0180c2000001' + '020000000001' + '8808' + '0101' + '0018' + '0000'.repeat(3) + 'ffff' + '1234' + '0000'.repeat(3) + '00'.repeat(26);
  it('decodes and re-encodes the golden vector of §1.1 exactly', () => {
    const f = decodePfc(parseHex(golden, 'hex'));
    expect(f).toEqual({ kind: 'pfc', dst: '01:80:c2:00:00:01', src: '02:00:00:00:00:01', enable: [3, 4], time: [0, 0, 0, 0xffff, 0x1234, 0, 0, 0] });
    expect(toHex(encodePfc(f))).toBe(golden);
    expect(golden.length / 2).toBe(60);
  });
  it('rejects a non-zero upper enable octet at offset 16 (Wireshark macc.cbfc.enbv.not_zero)', () => {
    const b = parseHex(golden, 'hex');
    b[16] = 1;
    expect(errorOf(() => decodePfc(b))).toMatchObject({ code: 'reserved_nonzero', offset: 16 });
  });
  it('reports truncation, extra bytes and a wrong opcode with their offsets', () => {
    const b = parseHex(golden, 'hex');
    expect(errorOf(() => decodePfc(b.subarray(0, 40)))).toMatchObject({ code: 'truncated', offset: 40 });
    expect(errorOf(() => decodePfc(Uint8Array.from([...b, 0])))).toMatchObject({ code: 'oversized', offset: 60 });
    b[15] = 0x01 + 0x10;
    expect(errorOf(() => decodePfc(b))).toMatchObject({ code: 'wrong_type', offset: 14 });
    expect(errorOf(() => decodePfc(b.subarray(0, 5)))).toMatchObject({ code: 'truncated', offset: 5 });
  });
});

describe('FCS (802.3 clause 3.2.9)', () => {
  it('is the CRC-32 of the check string "123456789" = 0xCBF43926 (the standard CRC-32 check value)', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });
  it('is appended little-endian and checked on decode', () => {
    const f = { kind: 'pause' as const, dst: '01:80:c2:00:00:01', src: '02:00:00:00:00:02', time: 7 };
    const withFcs = encodeFrame(f, { fcs: true });
    expect(withFcs.length).toBe(64);
    expect(decodeFrame(withFcs, { fcs: true })).toEqual(f);
    withFcs[63] ^= 1;
    expect(errorOf(() => decodeFrame(withFcs, { fcs: true }))).toMatchObject({ code: 'bad_fcs', offset: 60 });
    expect(appendFcs(new Uint8Array(0)).length).toBe(4);
  });
});

describe('every control frame round-trips losslessly', () => {
  it('decode(encode(f)) = f and encode(decode(b)) = b', () => {
    fc.assert(
      fc.property(controlFrameArb, fc.boolean(), (f, fcs) => {
        const b = encodeFrame(f, { fcs });
        const d = decodeFrame(b, { fcs });
        expect(d).toEqual(f);
        expect(toHex(encodeFrame(d, { fcs }))).toBe(toHex(b));
        expect(b.length).toBeGreaterThanOrEqual(fcs ? 64 : 60);
      }),
      { seed: 4, numRuns: 500 },
    );
  });
});

describe('pcap (pcap-savefile(5))', () => {
  it('writes nanosecond timestamps from the caller and reads them back', () => {
    const frames = [parseHex('00'.repeat(60), 'a'), parseHex('ff'.repeat(64), 'b')];
    const file = writePcap([
      { t_ps: 1_500_000_000_123_000n, data: frames[0] }, // 1500 s + 123 ns
      { t_ps: 999n, data: frames[1] }, // below 1 ns: truncated to 0
    ]);
    // 24-byte global header + 2 x 16-byte record headers + 60 + 64 data bytes
    expect(file.length).toBe(24 + 32 + 124);
    expect(toHex(file.subarray(0, 4))).toBe('4d3cb2a1'); // 0xA1B23C4D little-endian: ns resolution
    const back = readPcap(file);
    expect(back.map((r) => r.t_ps)).toEqual([1_500_000_000_123_000n, 0n]);
    expect(back.map((r) => toHex(r.data))).toEqual(frames.map(toHex));
  });
  it('reads big-endian microsecond files', () => {
    const b = parseHex('a1b2c3d4 0002 0004 00000000 00000000 0000ffff 00000001' + '00000002 00000003 00000002 00000002 abcd', 'x');
    expect(readPcap(b)).toEqual([{ t_ps: 2_000_003_000_000n, data: parseHex('abcd', 'x'), orig_len: 2 }]);
  });
  it('rejects other link types and cut records with typed errors', () => {
    const ok = writePcap([{ t_ps: 0n, data: new Uint8Array(10) }]);
    expect(errorOf(() => readPcap(ok.subarray(0, ok.length - 1)))).toMatchObject({ code: 'truncated', offset: 40 });
    const bad = ok.slice();
    bad[20] = 105;
    expect(errorOf(() => readPcap(bad))).toMatchObject({ code: 'bad_value', offset: 20 });
    expect(errorOf(() => readPcap(new Uint8Array(3)))).toMatchObject({ code: 'truncated', offset: 0 });
  });
});
