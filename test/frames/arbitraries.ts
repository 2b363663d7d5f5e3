// fast-check generators of valid control frames (any field value the codecs accept).
import fc from 'fast-check';
import type { ControlFrame } from '../../host/frames/index.js';
import { formatMac } from '../../host/frames/bytes.js';

export const macArb = fc.uint8Array({ minLength: 6, maxLength: 6 }).map((b) => formatMac(b));
const u16 = fc.integer({ min: 0, max: 0xffff });
const vec8 = fc.array(u16, { minLength: 8, maxLength: 8 });
const prioSet = fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 8 }).map((a) => a.sort((x, y) => x - y));
const hexBytes = (min: number, max: number) =>
  fc.uint8Array({ minLength: min, maxLength: max }).map((b) => Array.from(b, (v) => v.toString(16).padStart(2, '0')).join(''));

export const pfcArb = fc.record({ kind: fc.constant('pfc' as const), dst: macArb, src: macArb, enable: prioSet, time: vec8 });
export const pauseArb = fc.record({ kind: fc.constant('pause' as const), dst: macArb, src: macArb, time: u16 });
export const ceSyncArb = fc.record({ kind: fc.constant('ce-sync' as const), dst: macArb, src: macArb, channel: u16, enable: prioSet, tbs: vec8, request: vec8 });
export const ceGrantArb = fc.record({ kind: fc.constant('ce-grant' as const), dst: macArb, src: macArb, channel: u16, enable: prioSet, cl: vec8 });
export const cnmArb = fc.record(
  {
    kind: fc.constant('cnm' as const),
    dst: macArb,
    src: macArb,
    vlan: fc.record({ pcp: fc.integer({ min: 0, max: 7 }), dei: fc.integer({ min: 0, max: 1 }), vid: fc.integer({ min: 0, max: 4095 }) }),
    cn_tag: u16,
    qf: fc.integer({ min: 0, max: 63 }),
    cpid: hexBytes(8, 8),
    q_off: fc.integer({ min: -32768, max: 32767 }),
    q_delta: fc.integer({ min: -32768, max: 32767 }),
    encap_priority: fc.integer({ min: 0, max: 7 }),
    encap_dst: macArb,
    encap_msdu: hexBytes(0, 64),
  },
  { requiredKeys: ['kind', 'dst', 'src', 'qf', 'cpid', 'q_off', 'q_delta', 'encap_priority', 'encap_dst', 'encap_msdu'] },
);

export const controlFrameArb: fc.Arbitrary<ControlFrame> = fc.oneof(pfcArb, pauseArb, ceSyncArb, ceGrantArb, cnmArb);
