// Writes pcapng capture files (IETF draft-ietf-opsawg-pcapng; host/capture/pcapng.ts reads them): one
// section, one Ethernet interface, packets as Enhanced Packet Blocks, little-endian.
//
// Blocks written: SHB (type 0x0A0D0D0A, byte-order magic 0x1A2B3C4D, version 1.0, section length
// -1 = not given); IDB (type 1: link type 1 Ethernet, snaplen, options if_name (2), if_tsresol (9)
// = 9 so timestamps count nanoseconds, if_fcslen (13) = 4 because the frames keep their FCS where
// the snap length leaves it); EPB (type 6: interface 0, the 64-bit timestamp as high and low u32,
// captured and original length, the data padded to 4 bytes). Nothing here reads a clock: the caller
// gives each packet's time, so the same input gives the same bytes.

import { BYTE_ORDER_MAGIC, EPB, IDB, OPT_IF_FCSLEN, OPT_IF_NAME, OPT_TSRESOL as OPT_IF_TSRESOL, PCAPNG_SHB as SHB } from './pcapng.js';
import { LINKTYPE_ETHERNET } from './pcap.js';

/** EPB bytes besides the padded data: type, length, interface, two time words, two lengths, trailing length. */
export const EPB_OVERHEAD = 32;

const pad4 = (n: number) => (n + 3) & ~3;

/** The section header and the interface description of a capture of one Ethernet port. */
export function pcapngHeader(interfaceName: string, snaplen: number): Uint8Array {
  const name = new TextEncoder().encode(interfaceName);
  const options = [
    { code: OPT_IF_NAME, value: name },
    { code: OPT_IF_TSRESOL, value: Uint8Array.of(9) },
    { code: OPT_IF_FCSLEN, value: Uint8Array.of(4) },
  ];
  const optBytes = options.reduce((n, o) => n + 4 + pad4(o.value.length), 0) + 4;
  const shbLen = 28;
  const idbLen = 20 + optBytes;
  const out = new Uint8Array(shbLen + idbLen);
  const v = new DataView(out.buffer);
  v.setUint32(0, SHB, true);
  v.setUint32(4, shbLen, true);
  v.setUint32(8, BYTE_ORDER_MAGIC, true);
  v.setUint16(12, 1, true);
  v.setUint16(14, 0, true);
  v.setBigInt64(16, -1n, true);
  v.setUint32(24, shbLen, true);
  let at = shbLen;
  v.setUint32(at, IDB, true);
  v.setUint32(at + 4, idbLen, true);
  v.setUint16(at + 8, LINKTYPE_ETHERNET, true);
  v.setUint32(at + 12, snaplen, true);
  let o = at + 16;
  for (const opt of options) {
    v.setUint16(o, opt.code, true);
    v.setUint16(o + 2, opt.value.length, true);
    out.set(opt.value, o + 4);
    o += 4 + pad4(opt.value.length);
  }
  o += 4; // opt_endofopt: code 0, length 0 (already zero)
  v.setUint32(o, idbLen, true);
  return out;
}

/** Bytes of the EPB of a packet whose captured data is `captured` bytes long. */
export function epbBytes(captured: number): number {
  return EPB_OVERHEAD + pad4(captured);
}

/**
 * Writes an EPB at `at` of `out` (which has epbBytes(data.length) bytes there): the packet `data`,
 * original length `origLen`, timestamp `ns` nanoseconds. Returns the offset after it.
 */
export function writeEpb(out: Uint8Array, at: number, ns: bigint, data: Uint8Array, origLen: number): number {
  const v = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const len = epbBytes(data.length);
  v.setUint32(at, EPB, true);
  v.setUint32(at + 4, len, true);
  v.setUint32(at + 8, 0, true);
  v.setUint32(at + 12, Number(ns >> 32n), true);
  v.setUint32(at + 16, Number(ns & 0xffffffffn), true);
  v.setUint32(at + 20, data.length, true);
  v.setUint32(at + 24, origLen, true);
  out.set(data, at + 28);
  out.fill(0, at + 28 + data.length, at + len - 4);
  v.setUint32(at + len - 4, len, true);
  return at + len;
}
