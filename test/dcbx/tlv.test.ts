// DCBX TLV and LLDPDU codecs: golden bytes laid out from IEEE 802.1Q-2022 Annex D.2.9-D.2.12 and CEE DCBX 1.01 (verified there with
// tshark and lldptool), lossless round trips, and lldpad's receive rules as typed errors.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLldpdu, decodeTlv, encodeLldpdu, encodeTlv, type Lldpdu } from '../../host/dcbx/lldpdu.js';
import { parseHex, toHex } from '../../host/frames/bytes.js';
import { lldpduArb, tlvListArb } from './arbitraries.js';
import { errorOf } from '../helpers.js';

const hex = (s: string) => parseHex(s.replace(/\s+/g, ''), 'golden');

describe('golden TLVs of IEEE 802.1Q-2022 Annex D.2.9-D.2.12 (IEEE) and CEE DCBX 1.01 (CEE)', () => {
  const golden: [string, string, unknown][] = [
    // fe19: type 127 (0xfe >> 1), length 0x019 = 25; c3 = willing(0x80) | CBS(0x40) | max TCs 3
    ['ETS-CFG', 'fe19 0080c2 09 c3 01234567 0a141e2800000000 02020202 00 01 00 ff',
      { type: 'ets_cfg', willing: true, cbs: true, max_tcs: 3, prio_tc: [0, 1, 2, 3, 4, 5, 6, 7], bw: [10, 20, 30, 40, 0, 0, 0, 0], tsa: ['ets', 'ets', 'ets', 'ets', 'strict', 'cbs', 'strict', 'vendor'] }],
    ['ETS-REC', 'fe19 0080c2 0a 00 11234567 3232000000000000 0202000000000000',
      { type: 'ets_rec', prio_tc: [1, 1, 2, 3, 4, 5, 6, 7], bw: [50, 50, 0, 0, 0, 0, 0, 0], tsa: ['ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'] }],
    // c8 = willing | MBC | cap 8; 18 = bits 3 and 4
    ['PFC', 'fe06 0080c2 0b c8 18', { type: 'pfc', willing: true, mbc: true, cap: 8, enable: [3, 4] }],
    // length 0x11 = 17 = 5 + 3 x 4 entries; 61 = prio 3 << 5 | sel 1; 83 = 4 << 5 | 3; a5 = 5 << 5 | 5; 42 = 2 << 5 | 2
    ['APP', 'fe11 0080c2 0c 00 61 8906 83 12b7 a5 001a 42 0cbc',
      { type: 'app', app: [{ selector: 'ethertype', protocol: 0x8906, priority: 3 }, { selector: 'dgram', protocol: 4791, priority: 4 }, { selector: 'dscp', protocol: 26, priority: 5 }, { selector: 'stream', protocol: 3260, priority: 2 }] }],
    // length 0x3d = 61 = 4 + (2+10) + (2+17) + (2+6) + (2+16)
    ['CEE', 'fe3d 001b21 02  020a 0000 00000005 00000003  0411 0000c000 001122f7 1919191900000000 08  0606 0000a000 08 08  0810 00008000 8906 00 1b21 08 0cbc 01 1b21 10',
      {
        type: 'cee', control: { oper_version: 0, max_version: 0, seq: 5, ack: 3 }, order: [1, 2, 3, 4],
        pg: { oper_version: 0, max_version: 0, enable: true, willing: true, error: false, subtype: 0, prio_pgid: [0, 0, 1, 1, 2, 2, 15, 7], pg_bw: [25, 25, 25, 25, 0, 0, 0, 0], num_tcs: 8 },
        pfc: { oper_version: 0, max_version: 0, enable: true, willing: false, error: true, subtype: 0, enable_prios: [3], num_tcs: 8 },
        app: { oper_version: 0, max_version: 0, enable: true, willing: false, error: false, subtype: 0, app: [{ protocol: 0x8906, selector: 'ethertype', oui: 0x1b21, priorities: [3] }, { protocol: 3260, selector: 'port', oui: 0x1b21, priorities: [4] }] },
      }],
  ];
  it.each(golden)('%s decodes to the documented fields and re-encodes byte for byte', (_name, bytes, fields) => {
    const t = decodeTlv(hex(bytes));
    expect(t).toEqual(fields);
    expect(toHex(encodeTlv(t))).toBe(toHex(hex(bytes)));
  });
});

describe('LLDPDU framing (802.1AB) round trip', () => {
  it('decode(encode(pdu)) = pdu and encode(decode(bytes)) = bytes', () => {
    fc.assert(
      fc.property(lldpduArb, (pdu) => {
        const b = encodeLldpdu(pdu);
        const d = decodeLldpdu(b);
        expect(d).toEqual(pdu);
        expect(toHex(encodeLldpdu(d))).toBe(toHex(b));
      }),
      { seed: 21, numRuns: 400 },
    );
  });
  it('pads short LLDPDUs to 60 bytes after the End TLV', () => {
    const pdu: Lldpdu = { dst: '01:80:c2:00:00:0e', src: '02:00:00:00:00:01', chassis: { subtype: 4, id: '02:00:00:00:00:01' }, port: { subtype: 5, id: 'e0' }, ttl: 120, tlvs: [], end: true };
    const b = encodeLldpdu(pdu);
    // 14 header + (2+7 chassis) + (2+3 port) + (2+2 TTL) + 2 End = 34, padded to 60
    expect(b.length).toBe(60);
    expect(toHex(b.subarray(14, 34))).toBe('0207040200000000010403056530' + '06020078' + '0000');
  });
});

describe("lldpad's receive rules are typed errors with the offending byte", () => {
  const base: Lldpdu = { dst: '01:80:c2:00:00:0e', src: '02:00:00:00:00:01', chassis: { subtype: 4, id: '02:00:00:00:00:01' }, port: { subtype: 5, id: 'eth0' }, ttl: 120, tlvs: [{ type: 'pfc', willing: false, mbc: false, cap: 8, enable: [3] }], end: true };
  // Byte map: 14 chassis TLV (9), 23 port TLV (7), 30 TTL TLV (4), 34 PFC TLV (8), 42 End.
  const bytes = () => encodeLldpdu(base);
  it('knows the offsets it claims', () => {
    expect(toHex(bytes().subarray(30, 34))).toBe('06020078');
    expect(toHex(bytes().subarray(34, 44))).toBe('fe060080c20b0808' + '0000');
  });
  it('mandatory TLVs out of order', () => {
    const b = bytes();
    b.set(bytes().subarray(23, 30), 14); // Port ID first
    b.set(bytes().subarray(14, 23), 21);
    expect(errorOf(() => decodeLldpdu(b))).toMatchObject({ code: 'tlv_order', offset: 14 });
  });
  it('missing TTL (the PFC TLV comes third)', () => {
    const b = Uint8Array.from([...bytes().subarray(0, 30), ...bytes().subarray(34)]);
    expect(errorOf(() => decodeLldpdu(b))).toMatchObject({ code: 'tlv_order', offset: 30 });
  });
  it('duplicate DCBX TLV', () => {
    const withTwo = encodeLldpdu({ ...base, tlvs: [base.tlvs[0], base.tlvs[0]] });
    expect(errorOf(() => decodeLldpdu(withTwo))).toMatchObject({ code: 'duplicate_tlv', offset: 42 });
  });
  it('duplicate TTL', () => {
    const b = Uint8Array.from([...bytes().subarray(0, 34), ...bytes().subarray(30, 34), 0, 0]);
    expect(errorOf(() => decodeLldpdu(b))).toMatchObject({ code: 'duplicate_tlv', offset: 34 });
  });
  it('TTL of length 3', () => {
    const b = bytes();
    b[31] = 3;
    expect(errorOf(() => decodeLldpdu(b))).toMatchObject({ code: 'bad_length', offset: 30 });
  });
  it('a TLV running past the frame (truncated)', () => {
    const b = bytes().subarray(0, 40);
    expect(errorOf(() => decodeLldpdu(b))).toMatchObject({ code: 'truncated', offset: 36 });
  });
  it('a PFC TLV of length 5 (tshark: malformed)', () => {
    const b = bytes();
    b[35] = 5;
    expect(errorOf(() => decodeLldpdu(b))).toMatchObject({ code: 'bad_length', offset: 34 });
  });
  it('bytes after End that are not pad (oversized)', () => {
    const b = Uint8Array.from([...bytes(), 0xaa]);
    expect(errorOf(() => decodeLldpdu(b))).toMatchObject({ code: 'oversized', offset: 44 });
  });
  it('an ETS TC of 9 and a bandwidth of 101 are bad values', () => {
    const pdu = encodeLldpdu({ ...base, tlvs: [{ type: 'ets_cfg', willing: false, cbs: false, max_tcs: 8, prio_tc: [0, 0, 0, 0, 0, 0, 0, 0], bw: [100, 0, 0, 0, 0, 0, 0, 0], tsa: ['ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'] }] });
    // ETS TLV at 34: header 2, OUI 3, subtype 1, flags 1 -> priority table at 41, bandwidths at 45
    const a = pdu.slice();
    a[41] = 0x90;
    expect(errorOf(() => decodeLldpdu(a))).toMatchObject({ code: 'bad_value', offset: 41 });
    const c = pdu.slice();
    c[45] = 101;
    expect(errorOf(() => decodeLldpdu(c))).toMatchObject({ code: 'bad_value', offset: 45 });
  });
  it('TLV lists that only differ in order encode differently but both round-trip', () => {
    fc.assert(fc.property(tlvListArb, (tlvs) => {
      const pdu = { ...base, tlvs };
      expect(decodeLldpdu(encodeLldpdu(pdu)).tlvs).toEqual(tlvs);
    }), { seed: 5, numRuns: 200 });
  });
});
