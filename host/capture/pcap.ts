// Classic libpcap capture files (the format of pcap-savefile(5)), Ethernet link type 1 only.
//
// Layout, little-endian as written here: global header 24 bytes {magic u32, version 2.4 (u16,u16),
// thiszone i32 = 0, sigfigs u32 = 0, snaplen u32, linktype u32 = 1}, then per packet a 16-byte
// record header {ts_sec u32, ts_frac u32, incl_len u32, orig_len u32} and incl_len bytes.
// We write the nanosecond variant (magic 0xA1B23C4D) because dcbkit time is in picoseconds; the
// caller gives each frame's time (t_ps, truncated to ns), nothing reads a clock, so the same
// input gives the same file. The reader accepts both byte orders and the microsecond variant;
// readCapture also reads pcapng (host/capture/pcapng.ts), telling the two apart by their first word.
import type { Problem } from '../errors/errors.js';
import { DecodeError, Reader } from '../frames/bytes.js';
import { PCAPNG_SHB, readPcapng, type PcapngRecord } from './pcapng.js';

export const LINKTYPE_ETHERNET = 1;
const MAGIC_US = 0xa1b2c3d4;
const MAGIC_NS = 0xa1b23c4d;
const SNAPLEN = 262144;
/**
 * The longest record read: libpcap's MAXIMUM_SNAPLEN (262,144 bytes, pcap-int.h), the most any
 * capture tool stores of one packet; a longer incl_len is damage (a stream would otherwise wait for
 * and buffer up to 4 GiB of it).
 */
export const PCAP_MAX_RECORD = SNAPLEN;

/** A record's incl_len after the sanity bound. */
export function checkedRecordLength(incl: number, at: number): number {
  if (incl > PCAP_MAX_RECORD) throw new DecodeError('bad_length', at, `pcap record of ${incl} bytes is over ${PCAP_MAX_RECORD}, the most a capture holds of one packet`);
  return incl;
}

export interface PcapRecord {
  /** Capture time in picoseconds (the file keeps nanoseconds). */
  t_ps: bigint;
  data: Uint8Array;
  /** Length on the wire; equals data.length unless the capture was cut at snaplen. */
  orig_len?: number;
}

export function writePcap(records: readonly PcapRecord[]): Uint8Array {
  const size = 24 + records.reduce((s, r) => s + 16 + r.data.length, 0);
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  v.setUint32(0, MAGIC_NS, true);
  v.setUint16(4, 2, true);
  v.setUint16(6, 4, true);
  v.setInt32(8, 0, true);
  v.setUint32(12, 0, true);
  v.setUint32(16, SNAPLEN, true);
  v.setUint32(20, LINKTYPE_ETHERNET, true);
  let at = 24;
  for (const r of records) {
    if (r.t_ps < 0n) throw new RangeError('pcap timestamps must not be negative');
    const ns = r.t_ps / 1000n;
    v.setUint32(at, Number(ns / 1_000_000_000n), true);
    v.setUint32(at + 4, Number(ns % 1_000_000_000n), true);
    v.setUint32(at + 8, r.data.length, true);
    v.setUint32(at + 12, r.orig_len ?? r.data.length, true);
    out.set(r.data, at + 16);
    at += 16 + r.data.length;
  }
  return out;
}

export function readPcap(bytes: Uint8Array): PcapRecord[] {
  const r = new Reader(bytes);
  r.need(0, 24, 'pcap global header');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magicLE = v.getUint32(0, true);
  const magicBE = v.getUint32(0, false);
  let le: boolean;
  let nano: boolean;
  if (magicLE === MAGIC_US || magicLE === MAGIC_NS) {
    le = true;
    nano = magicLE === MAGIC_NS;
  } else if (magicBE === MAGIC_US || magicBE === MAGIC_NS) {
    le = false;
    nano = magicBE === MAGIC_NS;
  } else {
    throw new DecodeError('wrong_type', 0, `magic 0x${magicBE.toString(16)} is neither a classic pcap nor a pcapng file`);
  }
  const major = v.getUint16(4, le);
  if (major !== 2) throw new DecodeError('bad_value', 4, `pcap version ${major} is not 2`);
  const linktype = v.getUint32(20, le) & 0x0fffffff;
  if (linktype !== LINKTYPE_ETHERNET) throw new DecodeError('bad_value', 20, `link type ${linktype} is not Ethernet (1)`);
  const out: PcapRecord[] = [];
  let at = 24;
  while (at < bytes.length) {
    r.need(at, 16, `pcap record header at ${at}`);
    const sec = BigInt(v.getUint32(at, le));
    const frac = BigInt(v.getUint32(at + 4, le));
    const incl = checkedRecordLength(v.getUint32(at + 8, le), at + 8);
    const orig = v.getUint32(at + 12, le);
    if (frac >= (nano ? 1_000_000_000n : 1_000_000n)) throw new DecodeError('bad_value', at + 4, `timestamp fraction ${frac} is out of range`);
    r.need(at + 16, incl, `packet data of record at ${at}`);
    const t_ps = sec * 1_000_000_000_000n + frac * (nano ? 1000n : 1_000_000n);
    out.push({ t_ps, data: bytes.slice(at + 16, at + 16 + incl), orig_len: orig });
    at += 16 + incl;
  }
  return out;
}

/**
 * Reads a classic pcap or a pcapng file (Wireshark's default), whichever `bytes` is. Packets of
 * non-Ethernet pcapng interfaces are left out and named in `warnings`.
 */
export function readCapture(bytes: Uint8Array): { records: PcapngRecord[]; warnings: Problem[] } {
  if (bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0) === PCAPNG_SHB) return readPcapng(bytes);
  return { records: readPcap(bytes), warnings: [] };
}
