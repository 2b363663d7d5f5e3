// IEEE 802.1Qau congestion notification message (CNM), EtherType 0x22E7 (IEEE 802.1Q-2022 clause 33).
// The CP sends it to the source MAC of the sampled frame, copying that frame's VLAN tag and CN-TAG.
//
// Layout: DA(6) SA(6) [0x8100 TCI(2)] [0x22E9 flowId(2)] 0x22E7(2), then the CNM PDU:
//   +0  u16: version (4 bits, 0) | reserved (6 bits, 0) | quantized feedback qf (6 bits, 0..63)
//   +2  CPID, 8 octets
//   +10 cnmQOffset, i16 (two's complement)   +12 cnmQDelta, i16
//   +14 encapsulated priority, u16: priority in bits 15..13, the rest reserved 0   [R: bit position]
//   +16 encapsulated destination MAC (6)     +22 encapsulated MSDU length, u16 (0..64)
//   +24 encapsulated MSDU (that many octets), then zero pad up to the 60-byte minimum frame.
// The wire unit of cnmQOffset/cnmQDelta is not given by the sources we could read (the IEEE8021-CN-MIB object descriptions give none): the
// codec carries the raw signed 16-bit values; callers scale and saturate.
import { InputError } from '../errors/errors.js';
import { DecodeError, Reader, Writer, formatMac, parseHex, parseMac, toHex } from './bytes.js';
import { checkU16 } from './pfc.js';

export const CNM_ETHERTYPE = 0x22e7;
export const CN_TAG_ETHERTYPE = 0x22e9;
export const VLAN_TPID = 0x8100;
const MIN_FRAME = 60;
const MAX_MSDU = 64;

export interface VlanTag {
  pcp: number;
  dei: number;
  vid: number;
}

export interface CnmFrame {
  kind: 'cnm';
  dst: string;
  src: string;
  vlan?: VlanTag;
  /** CN-TAG flow identifier, when the sampled frame carried one. */
  cn_tag?: number;
  qf: number;
  /** 16 hex digits. */
  cpid: string;
  q_off: number;
  q_delta: number;
  encap_priority: number;
  encap_dst: string;
  /** Hex of the first 0..64 octets of the sampled MSDU. */
  encap_msdu: string;
}

function checkInt(v: number, lo: number, hi: number, path: string): void {
  if (!Number.isInteger(v) || v < lo || v > hi) throw new InputError({ path, rule: `${v} is not an integer ${lo}..${hi}` });
}

export function encodeCnm(f: CnmFrame): Uint8Array {
  checkInt(f.qf, 0, 63, 'qf');
  checkInt(f.q_off, -32768, 32767, 'q_off');
  checkInt(f.q_delta, -32768, 32767, 'q_delta');
  checkInt(f.encap_priority, 0, 7, 'encap_priority');
  const cpid = parseHex(f.cpid, 'cpid');
  if (cpid.length !== 8) throw new InputError({ path: 'cpid', rule: 'must be 8 octets (16 hex digits)' });
  const msdu = parseHex(f.encap_msdu, 'encap_msdu');
  if (msdu.length > MAX_MSDU) throw new InputError({ path: 'encap_msdu', rule: `at most ${MAX_MSDU} octets` });
  const w = new Writer().bytes(parseMac(f.dst, 'dst')).bytes(parseMac(f.src, 'src'));
  if (f.vlan) {
    checkInt(f.vlan.pcp, 0, 7, 'vlan.pcp');
    checkInt(f.vlan.dei, 0, 1, 'vlan.dei');
    checkInt(f.vlan.vid, 0, 4095, 'vlan.vid');
    w.u16(VLAN_TPID).u16((f.vlan.pcp << 13) | (f.vlan.dei << 12) | f.vlan.vid);
  }
  if (f.cn_tag !== undefined) {
    checkU16(f.cn_tag, 'cn_tag');
    w.u16(CN_TAG_ETHERTYPE).u16(f.cn_tag);
  }
  w.u16(CNM_ETHERTYPE).u16(f.qf).bytes(cpid);
  w.u16(f.q_off & 0xffff).u16(f.q_delta & 0xffff).u16(f.encap_priority << 13);
  w.bytes(parseMac(f.encap_dst, 'encap_dst')).u16(msdu.length).bytes(msdu);
  if (w.length < MIN_FRAME) w.zeros(MIN_FRAME - w.length);
  return w.finish();
}

const i16 = (v: number): number => (v & 0x8000 ? v - 0x10000 : v);

export function decodeCnm(bytes: Uint8Array): CnmFrame {
  const r = new Reader(bytes);
  const dst = r.mac(0, 'destination MAC');
  const src = r.mac(6, 'source MAC');
  let at = 12;
  let type = r.u16(at, 'EtherType');
  let vlan: VlanTag | undefined;
  let cn_tag: number | undefined;
  if (type === VLAN_TPID) {
    const tci = r.u16(at + 2, 'VLAN tag');
    vlan = { pcp: tci >> 13, dei: (tci >> 12) & 1, vid: tci & 0xfff };
    at += 4;
    type = r.u16(at, 'EtherType');
  }
  if (type === CN_TAG_ETHERTYPE) {
    cn_tag = r.u16(at + 2, 'CN-TAG flow id');
    at += 4;
    type = r.u16(at, 'EtherType');
  }
  if (type !== CNM_ETHERTYPE) throw new DecodeError('wrong_type', at, `EtherType 0x${type.toString(16)} is not CNM (0x22e7)`);
  const pdu = at + 2;
  const head = r.u16(pdu, 'CNM version/feedback');
  if (head >> 12) throw new DecodeError('bad_value', pdu, `CNM version ${head >> 12} is not 0`);
  if ((head >> 6) & 0x3f) throw new DecodeError('reserved_nonzero', pdu, 'CNM ReservedV bits must be 0');
  const cpid = toHex(r.slice(pdu + 2, 8, 'CPID'));
  const q_off = i16(r.u16(pdu + 10, 'cnmQOffset'));
  const q_delta = i16(r.u16(pdu + 12, 'cnmQDelta'));
  const prio = r.u16(pdu + 14, 'encapsulated priority');
  if (prio & 0x1fff) throw new DecodeError('reserved_nonzero', pdu + 14, 'encapsulated priority: bits 12..0 are reserved and must be 0');
  const encap_dst = formatMac(r.slice(pdu + 16, 6, 'encapsulated destination MAC'));
  const msduLen = r.u16(pdu + 22, 'encapsulated MSDU length');
  if (msduLen > MAX_MSDU) throw new DecodeError('bad_length', pdu + 22, `encapsulated MSDU length ${msduLen} exceeds ${MAX_MSDU}`);
  const encap_msdu = toHex(r.slice(pdu + 24, msduLen, 'encapsulated MSDU'));
  const end = pdu + 24 + msduLen;
  const frameEnd = Math.max(end, MIN_FRAME);
  if (bytes.length < frameEnd) throw new DecodeError('truncated', bytes.length, `CNM frame ends at ${bytes.length}, pad to the ${MIN_FRAME}-byte minimum is missing`);
  if (bytes.length > frameEnd) throw new DecodeError('oversized', frameEnd, `${bytes.length - frameEnd} byte(s) after the CNM`);
  r.zeros(end, frameEnd, 'CNM pad');
  return {
    kind: 'cnm', dst, src,
    ...(vlan ? { vlan } : {}),
    ...(cn_tag !== undefined ? { cn_tag } : {}),
    qf: head & 0x3f, cpid, q_off, q_delta, encap_priority: prio >> 13, encap_dst, encap_msdu,
  };
}
