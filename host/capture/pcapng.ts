// pcapng capture files (IETF draft-ietf-opsawg-pcapng, Wireshark's default format), read only.
//
// A file is a sequence of blocks {type u32, total length u32, body, total length u32}, lengths a
// multiple of 4 and at least 12. A Section Header Block (SHB, type 0x0A0D0D0A) opens each section
// and fixes its byte order through its byte-order magic 0x1A2B3C4D; interface ids count from 0
// again in every section. Blocks read here:
//   IDB (1)  Interface Description: link type u16, reserved u16, snaplen u32, options, of which
//            if_tsresol (9: 10^-v s, or 2^-v s when the top bit is set; default 10^-6) and
//            if_tsoffset (14: seconds added to every timestamp) matter;
//   EPB (6)  Enhanced Packet: interface id, timestamp high and low u32, captured and original
//            length, data padded to 4 bytes, options;
//   SPB (3)  Simple Packet: original length and data, interface 0, no timestamp; the captured
//            length is what the block holds, capped at the original length and the snaplen;
//   PB (2)   the obsolete Packet Block: an EPB with a u16 interface id and a u16 drop count.
// Every other block (name resolution, statistics, custom, ...) carries no packet and is passed over.
// Packets of non-Ethernet interfaces are skipped with one warning per interface, so a capture
// taken on several interfaces still decodes. Malformed input ends in a DecodeError: every loop
// advances by a checked block or option length, so the reader always returns.
import { DecodeError, Reader } from '../frames/bytes.js';
import type { Problem } from '../errors/errors.js';
import { LINKTYPE_ETHERNET, type PcapRecord } from './pcap.js';

// Block types and option codes, shared with the writer (pcapng-write.ts).
export const PCAPNG_SHB = 0x0a0d0d0a;
export const BYTE_ORDER_MAGIC = 0x1a2b3c4d;
export const IDB = 1;
const SPB = 3;
const OBSOLETE_PB = 2;
export const EPB = 6;
const OPT_END = 0;
export const OPT_IF_NAME = 2;
export const OPT_TSRESOL = 9;
export const OPT_IF_FCSLEN = 13;
const OPT_TSOFFSET = 14;
const PS_PER_S = 1_000_000_000_000n;

/** One packet of a pcapng file; t_ps is absent for a Simple Packet Block (it has no timestamp). */
export interface PcapngRecord extends Omit<PcapRecord, 't_ps'> {
  t_ps?: bigint;
}

interface Interface {
  linkType: number;
  snaplen: number;
  /** timestamp units per second: 10^v or 2^v */
  unitsPerSecond: bigint;
  offsetPs: bigint;
  skipped: number;
}

interface Section {
  le: boolean;
  interfaces: Interface[];
  index: number;
}

/**
 * A pcapng reader fed one block at a time (a file in a loop, a stream as its blocks complete): the
 * sections and their interfaces are kept, so each block costs its own length, however many
 * interface blocks came before it.
 */
export class PcapngBlocks {
  private readonly sections: Section[] = [];
  private section: Section | undefined;

  /**
   * Reads the block that starts at `at` of `bytes` (all of it there); returns its length and the
   * packet it holds, if any. Error offsets count from the start of `bytes`.
   */
  block(bytes: Uint8Array, at: number): { length: number; record?: PcapngRecord } {
    const r = new Reader(bytes);
    const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    r.need(at, 12, `pcapng block header at ${at}`);
    const type = v.getUint32(at, this.section?.le ?? true); // the SHB type reads the same in both orders
    const le = type === PCAPNG_SHB ? sectionByteOrder(v, at) : this.section?.le;
    if (le === undefined) throw new DecodeError('wrong_type', at, 'a pcapng file starts with a Section Header Block');
    const length = checkedBlockLength(v.getUint32(at + 4, le), at + 4);
    r.need(at, length, `pcapng block at ${at}`);
    if (v.getUint32(at + length - 4, le) !== length) throw new DecodeError('bad_length', at + length - 4, `pcapng block at ${at}: trailing length differs from ${length}`);
    if (type === PCAPNG_SHB) {
      if (length < 28) throw new DecodeError('bad_length', at + 4, `pcapng section header block of ${length} bytes is shorter than 28`);
      const major = v.getUint16(at + 12, le);
      if (major !== 1) throw new DecodeError('bad_value', at + 12, `pcapng version ${major} is not 1`);
      this.section = { le, interfaces: [], index: this.sections.length };
      this.sections.push(this.section);
    }
    const section = this.section!;
    const body = at + 8;
    const end = at + length - 4;
    if (type === IDB) section.interfaces.push(readInterface(v, body, end, le));
    else if (type === EPB || type === OBSOLETE_PB || type === SPB) {
      const record = type === SPB ? readSimple(bytes, v, body, end, section) : readEnhanced(bytes, v, body, end, section, type === OBSOLETE_PB);
      return { length, record };
    }
    return { length };
  }

  /** One warning per interface whose packets were skipped (not Ethernet), with their count. */
  warnings(): Problem[] {
    const warnings: Problem[] = [];
    for (const s of this.sections) {
      s.interfaces.forEach((ifc, i) => {
        if (ifc.skipped > 0) {
          warnings.push({
            path: `pcapng section ${s.index} interface ${i}`,
            rule: `link type ${ifc.linkType} is not Ethernet (1): ${ifc.skipped} packet(s) skipped`,
          });
        }
      });
    }
    return warnings;
  }
}

/**
 * The largest pcapng block read: 16 MiB, far above a block holding the largest packet libpcap
 * captures (MAXIMUM_SNAPLEN, 262,144 bytes) with its options; a larger length is damage, and a
 * stream reader would otherwise wait for (and buffer) up to 4 GiB of it.
 */
export const PCAPNG_MAX_BLOCK = 16 * 1024 * 1024;

/** A block's total length after the format's rules (multiple of 4, at least 12, at most PCAPNG_MAX_BLOCK). */
export function checkedBlockLength(length: number, at: number): number {
  if (length < 12 || length % 4 !== 0) throw new DecodeError('bad_length', at, `pcapng block length ${length} is not a multiple of 4 of at least 12`);
  if (length > PCAPNG_MAX_BLOCK) throw new DecodeError('bad_length', at, `pcapng block length ${length} is over ${PCAPNG_MAX_BLOCK} bytes, the most a block may have here`);
  return length;
}

/** Reads every Ethernet packet of a pcapng file, in file order; warnings name skipped interfaces. */
export function readPcapng(bytes: Uint8Array): { records: PcapngRecord[]; warnings: Problem[] } {
  const reader = new PcapngBlocks();
  const records: PcapngRecord[] = [];
  for (let at = 0; at < bytes.length;) {
    const { length, record } = reader.block(bytes, at);
    if (record) records.push(record);
    at += length;
  }
  return { records, warnings: reader.warnings() };
}

/** The byte order of the section whose header block starts at `at` (its bytes 8..11 are in range). */
function sectionByteOrder(v: DataView, at: number): boolean {
  if (v.getUint32(at + 8, true) === BYTE_ORDER_MAGIC) return true;
  if (v.getUint32(at + 8, false) === BYTE_ORDER_MAGIC) return false;
  throw new DecodeError('bad_value', at + 8, `pcapng byte-order magic 0x${v.getUint32(at + 8, false).toString(16)} is not 0x1a2b3c4d`);
}

/** Calls `visit(code, valueOffset, length)` for each option in [at, end) up to opt_endofopt. */
function forEachOption(v: DataView, at: number, end: number, le: boolean, visit: (code: number, value: number, length: number) => void): void {
  while (at + 4 <= end) {
    const code = v.getUint16(at, le);
    const length = v.getUint16(at + 2, le);
    if (code === OPT_END) return;
    if (at + 4 + length > end) throw new DecodeError('bad_length', at + 2, `pcapng option ${code} of ${length} byte(s) runs past its block`);
    visit(code, at + 4, length);
    at += 4 + ((length + 3) & ~3);
  }
}

function readInterface(v: DataView, body: number, end: number, le: boolean): Interface {
  if (body + 8 > end) throw new DecodeError('bad_length', body - 4, 'pcapng interface description block is shorter than 20 bytes');
  const ifc: Interface = { linkType: v.getUint16(body, le), snaplen: v.getUint32(body + 4, le), unitsPerSecond: 1_000_000n, offsetPs: 0n, skipped: 0 };
  forEachOption(v, body + 8, end, le, (code, value, length) => {
    if (code === OPT_TSRESOL && length >= 1) {
      const res = v.getUint8(value);
      const exp = BigInt(res & 0x7f);
      ifc.unitsPerSecond = res & 0x80 ? 1n << exp : 10n ** exp;
    } else if (code === OPT_TSOFFSET && length >= 8) {
      ifc.offsetPs = v.getBigInt64(value, le) * PS_PER_S;
    }
  });
  return ifc;
}

function interfaceOf(section: Section, id: number, at: number): Interface {
  const ifc = section.interfaces[id];
  if (!ifc) throw new DecodeError('bad_value', at, `packet of interface ${id}, but the section describes ${section.interfaces.length} interface(s)`);
  return ifc;
}

/** An enhanced packet block, or with `obsolete` a packet block (u16 interface id, u16 drops). */
function readEnhanced(bytes: Uint8Array, v: DataView, body: number, end: number, section: Section, obsolete: boolean): PcapngRecord | undefined {
  const le = section.le;
  if (body + 20 > end) throw new DecodeError('bad_length', body - 4, 'pcapng packet block is shorter than 32 bytes');
  const ifc = interfaceOf(section, obsolete ? v.getUint16(body, le) : v.getUint32(body, le), body);
  const units = (BigInt(v.getUint32(body + 4, le)) << 32n) | BigInt(v.getUint32(body + 8, le));
  const captured = v.getUint32(body + 12, le);
  const orig = v.getUint32(body + 16, le);
  const data = body + 20;
  if (captured > end - data) throw new DecodeError('truncated', body + 12, `pcapng packet of ${captured} byte(s) runs past its block`);
  if (ifc.linkType !== LINKTYPE_ETHERNET) {
    ifc.skipped++;
    return undefined;
  }
  const t_ps = ifc.offsetPs + (units * PS_PER_S) / ifc.unitsPerSecond;
  return { t_ps, data: bytes.slice(data, data + captured), orig_len: orig };
}

function readSimple(bytes: Uint8Array, v: DataView, body: number, end: number, section: Section): PcapngRecord | undefined {
  if (body + 4 > end) throw new DecodeError('bad_length', body - 4, 'pcapng simple packet block is shorter than 16 bytes');
  const ifc = interfaceOf(section, 0, body);
  const orig = v.getUint32(body, section.le);
  let captured = Math.min(orig, end - (body + 4));
  if (ifc.snaplen > 0) captured = Math.min(captured, ifc.snaplen);
  if (ifc.linkType !== LINKTYPE_ETHERNET) {
    ifc.skipped++;
    return undefined;
  }
  return { data: bytes.slice(body + 4, body + 4 + captured), orig_len: orig };
}
