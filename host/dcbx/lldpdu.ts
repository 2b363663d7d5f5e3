// LLDPDU framing (IEEE 802.1AB-2016 clause 8) carrying the DCBX TLVs.
//
// Frame: DA 01-80-C2-00-00-0E (nearest bridge; -03 and -00 also accepted), SA, EtherType 0x88CC,
// then TLVs, each a u16 header (type = upper 7 bits, length = lower 9 bits) and `length` octets:
// Chassis ID (1) first, Port ID (2) second, TTL (3, length 2) third, optional TLVs, End (0, length
// 0); zero pad to the 60-byte minimum frame. lldpad's receive rules (lldp/rx.c rxProcessFrame) are
// errors here: mandatory TLVs missing or out of order, duplicates of them, a TTL length other
// than 2, a TLV running past the frame; and each DCBX TLV at most once (DUP_IEEE8021QAZ_TLV_*).
// Optional TLVs the model does not interpret are kept raw, in order, so decode -> encode is lossless.
import { InputError } from '../errors/errors.js';
import { DecodeError, Reader, Writer, formatMac, parseHex, parseMac, toHex } from '../frames/bytes.js';
import { CEE_OUI, CEE_SUBTYPE, decodeCeeBody, encodeCeeBody, type CeeTlv } from './cee.js';
import { CET_DEFAULT_OUI, CET_SUBTYPE, decodeCetTlv, encodeCetBody, parseCetOui, type CetTlv } from './cet.js';
import { IEEE_8021_OUI, decodeIeeeTlv, encodeIeeeBody, ieeeSubtype, type IeeeTlv } from './ieee.js';

export const LLDP_ETHERTYPE = 0x88cc;
export const LLDP_NEAREST_BRIDGE = '01:80:c2:00:00:0e';
const LLDP_GROUP_ADDRESSES = new Set(['01:80:c2:00:00:0e', '01:80:c2:00:00:03', '01:80:c2:00:00:00']);
const MIN_FRAME = 60;
/** 1500-octet MAC client data + 14-octet header. */
const MAX_FRAME = 1514;
const T_END = 0;
const T_CHASSIS = 1;
const T_PORT = 2;
const T_TTL = 3;
const T_ORG = 127;

/** Chassis or Port ID: a MAC (subtype 4 chassis / 3 port with six octets), text, or raw hex. */
export interface LldpId {
  subtype: number;
  id?: string;
  id_hex?: string;
}

export interface RawTlv {
  type: 'raw';
  tlv_type: number;
  hex: string;
}

export type DcbxTlv = IeeeTlv | CeeTlv | CetTlv;
export type LldpTlv = DcbxTlv | RawTlv;

export interface Lldpdu {
  dst: string;
  src: string;
  chassis: LldpId;
  port: LldpId;
  /** Seconds; 0 = shut down, delete this neighbour. */
  ttl: number;
  tlvs: LldpTlv[];
  /** End TLV present (always emitted by dcbkit; optional since 802.1AB-2016). */
  end: boolean;
  /** The frame is shorter than 60 bytes, not padded (how a host captures its own transmissions). */
  unpadded?: true;
}

export interface LldpOptions {
  /** OUI of the CET credit capability TLV (docs/dcbx.md), default 0A-DC-B0. */
  cetOui?: number;
}

const isMacSubtype = (tlvType: number, subtype: number) => (tlvType === T_CHASSIS ? subtype === 4 : subtype === 3);

function encodeId(w: Writer, tlvType: number, id: LldpId, path: string): void {
  if (!Number.isInteger(id.subtype) || id.subtype < 0 || id.subtype > 255) throw new InputError({ path: `${path}.subtype`, rule: 'must be 0..255' });
  let bytes: Uint8Array;
  if (id.id_hex !== undefined) bytes = parseHex(id.id_hex, `${path}.id_hex`);
  else if (id.id === undefined) throw new InputError({ path: `${path}.id`, rule: 'give id or id_hex' });
  else if (isMacSubtype(tlvType, id.subtype)) bytes = parseMac(id.id, `${path}.id`);
  else bytes = new TextEncoder().encode(id.id);
  if (bytes.length < 1 || bytes.length > 255) throw new InputError({ path, rule: 'the id must be 1..255 octets' });
  w.u16((tlvType << 9) | (bytes.length + 1)).u8(id.subtype).bytes(bytes);
}

function decodeId(r: Reader, tlvType: number, at: number, len: number): LldpId {
  if (len < 2 || len > 256) throw new DecodeError('bad_length', at, `${tlvType === T_CHASSIS ? 'Chassis' : 'Port'} ID TLV length ${len} is not 2..256`);
  const subtype = r.u8(at + 2, 'ID subtype');
  const b = r.slice(at + 3, len - 1, 'ID');
  if (isMacSubtype(tlvType, subtype)) return b.length === 6 ? { subtype, id: formatMac(b) } : { subtype, id_hex: toHex(b) };
  if (b.every((c) => c >= 0x20 && c < 0x7f)) return { subtype, id: Buffer.from(b).toString('latin1') };
  return { subtype, id_hex: toHex(b) };
}

function orgTlv(w: Writer, oui: number, subtype: number, body: (w: Writer) => void, path: string): void {
  const start = w.length;
  w.u16(0).u8(oui >> 16).u16(oui & 0xffff).u8(subtype);
  body(w);
  const len = w.length - start - 2;
  if (len > 511) throw new InputError({ path, rule: `TLV of ${len} octets exceeds the 511 a 9-bit length allows` });
  w.patchU16(start, (T_ORG << 9) | len);
}

/** Writes one optional TLV (header included). */
export function writeTlv(w: Writer, t: LldpTlv, path: string): void {
  switch (t.type) {
    case 'raw': {
      const body = parseHex(t.hex, `${path}.hex`);
      if (!Number.isInteger(t.tlv_type) || t.tlv_type < 4 || t.tlv_type > 127) throw new InputError({ path: `${path}.tlv_type`, rule: 'optional TLV types are 4..127' });
      if (body.length > 511) throw new InputError({ path: `${path}.hex`, rule: 'at most 511 octets' });
      w.u16((t.tlv_type << 9) | body.length).bytes(body);
      return;
    }
    case 'cee':
      return orgTlv(w, CEE_OUI, CEE_SUBTYPE, (b) => encodeCeeBody(t, b, path), path);
    case 'cet':
      return orgTlv(w, parseCetOui(t.oui, `${path}.oui`), CET_SUBTYPE, (b) => encodeCetBody(t, b, path), path);
    default:
      return orgTlv(w, IEEE_8021_OUI, ieeeSubtype(t), (b) => encodeIeeeBody(t, b, path), path);
  }
}

/** One optional TLV on its own (header included), e.g. the golden TLVs of the spec-vector tests. */
export function encodeTlv(t: LldpTlv): Uint8Array {
  const w = new Writer();
  writeTlv(w, t, 'tlv');
  return w.finish();
}

/** Decodes one optional TLV (type 4..127) that spans all of `bytes`. */
export function decodeTlv(bytes: Uint8Array, opts: LldpOptions = {}): LldpTlv {
  const r = new Reader(bytes);
  const h = r.u16(0, 'TLV header');
  const len = h & 0x1ff;
  r.need(2, len, `TLV type ${h >> 9} (length ${len})`);
  if (bytes.length > 2 + len) throw new DecodeError('oversized', 2 + len, `${bytes.length - 2 - len} byte(s) after the TLV`);
  if (h >> 9 < 4) throw new DecodeError('wrong_type', 0, `TLV type ${h >> 9} is not an optional TLV`);
  return readOptionalTlv(r, 0, h >> 9, len, opts.cetOui ?? CET_DEFAULT_OUI);
}

function readOptionalTlv(r: Reader, at: number, tlvType: number, len: number, cetOui: number): LldpTlv {
  const info = at + 2;
  if (tlvType === T_ORG) {
    if (len < 4) throw new DecodeError('bad_length', at, `organizationally specific TLV length ${len} is below 4 (OUI + subtype)`);
    const oui = (r.u8(info, 'OUI') << 16) | r.u16(info + 1, 'OUI');
    const subtype = r.u8(info + 3, 'subtype');
    if (oui === IEEE_8021_OUI && subtype >= 9 && subtype <= 12) return decodeIeeeTlv(r, at, info, len, subtype);
    if (oui === CEE_OUI && subtype === CEE_SUBTYPE) return decodeCeeBody(r, info + 4, info + len);
    if (oui === cetOui && subtype === CET_SUBTYPE) return decodeCetTlv(r, at, info, len);
  }
  return { type: 'raw', tlv_type: tlvType, hex: toHex(r.slice(info, len, 'TLV')) };
}

export function encodeLldpdu(pdu: Lldpdu): Uint8Array {
  const w = new Writer().bytes(parseMac(pdu.dst, 'dst')).bytes(parseMac(pdu.src, 'src')).u16(LLDP_ETHERTYPE);
  encodeId(w, T_CHASSIS, pdu.chassis, 'chassis');
  encodeId(w, T_PORT, pdu.port, 'port');
  if (!Number.isInteger(pdu.ttl) || pdu.ttl < 0 || pdu.ttl > 0xffff) throw new InputError({ path: 'ttl', rule: 'must be an integer 0..65535 seconds' });
  w.u16((T_TTL << 9) | 2).u16(pdu.ttl);
  pdu.tlvs.forEach((t, i) => writeTlv(w, t, `tlvs[${i}]`));
  if (pdu.end) w.u16(0);
  if (pdu.unpadded) {
    if (w.length >= MIN_FRAME) throw new InputError({ path: 'unpadded', rule: `only for frames below ${MIN_FRAME} bytes` });
    return w.finish();
  }
  if (!pdu.end && w.length < MIN_FRAME) throw new InputError({ path: 'end', rule: `an LLDPDU without End TLV must fill the ${MIN_FRAME}-byte minimum frame (its pad would read as End)` });
  if (w.length < MIN_FRAME) w.zeros(MIN_FRAME - w.length);
  if (w.length > MAX_FRAME) throw new InputError({ path: 'tlvs', rule: `the LLDPDU needs ${w.length - 14} octets, more than the 1500 of one frame` });
  return w.finish();
}

export function decodeLldpdu(bytes: Uint8Array, opts: LldpOptions = {}): Lldpdu {
  const cetOui = opts.cetOui ?? CET_DEFAULT_OUI;
  const r = new Reader(bytes);
  const dst = r.mac(0, 'destination MAC');
  const src = r.mac(6, 'source MAC');
  const type = r.u16(12, 'EtherType');
  if (type !== LLDP_ETHERTYPE) throw new DecodeError('wrong_type', 12, `EtherType 0x${type.toString(16).padStart(4, '0')} is not LLDP (0x88cc)`);
  if (!LLDP_GROUP_ADDRESSES.has(dst)) throw new DecodeError('wrong_type', 0, `destination ${dst} is not an LLDP group address`);
  if (bytes.length > MAX_FRAME) throw new DecodeError('oversized', MAX_FRAME, `frame of ${bytes.length} bytes exceeds ${MAX_FRAME}`);
  const pdu: Partial<Lldpdu> & { tlvs: LldpTlv[] } = { dst, src, tlvs: [], end: false };
  const seenOrg = new Set<string>();
  let at = 14;
  let index = 0;
  while (at < bytes.length) {
    const h = r.u16(at, `TLV header ${index}`);
    const tlvType = h >> 9;
    const len = h & 0x1ff;
    const info = at + 2;
    r.need(info, len, `TLV type ${tlvType} (length ${len})`);
    const expected = [T_CHASSIS, T_PORT, T_TTL][index];
    if (expected !== undefined && tlvType !== expected) {
      throw new DecodeError('tlv_order', at, `TLV ${index + 1} is type ${tlvType}; an LLDPDU starts with Chassis ID (1), Port ID (2), TTL (3)`);
    }
    if (index >= 3 && tlvType >= T_CHASSIS && tlvType <= T_TTL) throw new DecodeError('duplicate_tlv', at, `a second ${['', 'Chassis ID', 'Port ID', 'TTL'][tlvType]} TLV`);
    switch (tlvType) {
      case T_END: {
        if (len !== 0) throw new DecodeError('bad_length', at, `End TLV has length ${len}, must be 0`);
        pdu.end = true;
        const end = info;
        if (end === bytes.length && end < MIN_FRAME) pdu.unpadded = true;
        if (end < bytes.length) {
          if (bytes.length > MIN_FRAME) throw new DecodeError('oversized', end, `${bytes.length - end} byte(s) after the End TLV`);
          if (bytes.length < MIN_FRAME) throw new DecodeError('truncated', bytes.length, `pad after the End TLV stops at ${bytes.length} bytes, short of the ${MIN_FRAME}-byte minimum`);
          r.zeros(end, bytes.length, 'pad after the End TLV');
        }
        return ordered(pdu as Lldpdu);
      }
      case T_CHASSIS:
        pdu.chassis = decodeId(r, T_CHASSIS, at, len);
        break;
      case T_PORT:
        pdu.port = decodeId(r, T_PORT, at, len);
        break;
      case T_TTL:
        if (len !== 2) throw new DecodeError('bad_length', at, `TTL TLV has length ${len}, must be 2`);
        pdu.ttl = r.u16(info, 'TTL');
        break;
      default: {
        const tlv = readOptionalTlv(r, at, tlvType, len, cetOui);
        if (tlv.type !== 'raw') {
          if (seenOrg.has(tlv.type)) throw new DecodeError('duplicate_tlv', at, `a second ${tlv.type} TLV in one LLDPDU`);
          seenOrg.add(tlv.type);
        }
        pdu.tlvs.push(tlv);
      }
    }
    at = info + len;
    index++;
  }
  if (index < 3) throw new DecodeError('tlv_order', bytes.length, 'the LLDPDU ends before its Chassis ID, Port ID and TTL TLVs');
  if (bytes.length < MIN_FRAME) pdu.unpadded = true;
  return ordered(pdu as Lldpdu);
}

/** The fields in wire order (JSON output reads top to bottom like the frame). */
function ordered(p: Lldpdu): Lldpdu {
  return { dst: p.dst, src: p.src, chassis: p.chassis, port: p.port, ttl: p.ttl, tlvs: p.tlvs, end: p.end, ...(p.unpadded ? { unpadded: true as const } : {}) };
}
