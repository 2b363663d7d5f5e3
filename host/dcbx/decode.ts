// Decoding captures for `dcbx decode`: every LLDP or DCB control frame of a pcap or pcapng (or one hex
// frame) becomes one JSON object — an LLDPDU with its TLVs in the config's key names, or a
// PFC/PAUSE/CNM/CE frame. Frames of other EtherTypes (IPv6 neighbour discovery, ARP, ... on a real
// capture) are skipped and counted; `frame` keeps the capture's numbering. An LLDP or DCB control
// frame that does not decode makes the whole input an InputError naming the frame and the byte.
import { InputError, type Problem } from '../errors/errors.js';
import { DecodeError, Reader } from '../frames/bytes.js';
import { decodeFrame, stripFcs } from '../frames/index.js';
import { readCapture } from '../capture/pcap.js';
import type { PcapngRecord } from '../capture/pcapng.js';
import { LLDP_ETHERTYPE, decodeLldpdu, type LldpOptions } from './lldpdu.js';

export interface DecodedFrame {
  frame: number;
  /** capture time in ps: a number while exact, else a decimal string */
  t_ps?: number | string;
  kind: string;
  [key: string]: unknown;
}

export function decodeAny(bytes: Uint8Array, opts: LldpOptions & { fcs?: boolean } = {}): Record<string, unknown> {
  const b = opts.fcs ? stripFcs(bytes) : bytes;
  if (b.length >= 14 && new Reader(b).u16(12, 'EtherType') === LLDP_ETHERTYPE) return { kind: 'lldp', ...decodeLldpdu(b, opts) };
  return { ...decodeFrame(b) };
}

export function problem(where: string, e: DecodeError): InputError {
  return new InputError({ path: where, rule: `byte ${e.offset}: ${e.message}` }); // e.message says what is wrong; e.code is for programs
}

// EtherTypes dcbx decode reads: LLDP; MAC Control (PFC, PAUSE, CE); CNM and the CN-TAG (802.1Qau),
// the latter two also behind a C-VLAN tag, as host/frames decodes them
const DCB_ETHERTYPES = new Set([LLDP_ETHERTYPE, 0x8808, 0x22e7, 0x22e9]);
const VLAN_TPID = 0x8100;

/** True for a frame `dcbx decode` reads; anything else (or too short to carry an EtherType) is skipped. */
export function isDcbFrame(data: Uint8Array): boolean {
  if (data.length < 14) return false;
  const type = (data[12] << 8) | data[13];
  if (type === VLAN_TPID) {
    const inner = data.length >= 18 ? (data[16] << 8) | data[17] : 0;
    return inner === 0x22e7 || inner === 0x22e9; // LLDP and MAC Control frames are never tagged
  }
  return DCB_ETHERTYPES.has(type);
}

/** One record of a capture: its decoded object, or undefined when it is not an LLDP/DCB frame. */
export function decodeRecord(r: PcapngRecord & { t_ps?: bigint }, index: number, opts: LldpOptions & { fcs?: boolean } = {}): DecodedFrame | undefined {
  if (!isDcbFrame(r.data)) return undefined;
  try {
    // a pcapng simple packet block has no timestamp
    // a number while exact, else the decimal digits (an if_tsoffset can make a time negative)
    const t = r.t_ps === undefined ? undefined : r.t_ps <= BigInt(Number.MAX_SAFE_INTEGER) && r.t_ps >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(r.t_ps) : r.t_ps.toString();
    return { frame: index, ...(t === undefined ? {} : { t_ps: t }), ...decodeAny(r.data, opts) } as DecodedFrame;
  } catch (e) {
    if (e instanceof DecodeError) throw problem(`frame[${index}]`, e);
    throw e;
  }
}

/** Decodes a pcap or pcapng file; `warn` hears of packets left out (non-Ethernet interfaces). */
export function decodeCapture(pcap: Uint8Array, opts: LldpOptions & { fcs?: boolean; warn?: (p: Problem) => void } = {}): { frames: DecodedFrame[]; skipped: number } {
  let records;
  try {
    const capture = readCapture(pcap);
    for (const w of capture.warnings) opts.warn?.(w);
    records = capture.records;
  } catch (e) {
    if (e instanceof DecodeError) throw problem('pcap', e);
    throw e;
  }
  const frames: DecodedFrame[] = [];
  records.forEach((r, i) => {
    const f = decodeRecord(r, i, opts);
    if (f) frames.push(f);
  });
  return { frames, skipped: records.length - frames.length };
}

export function decodeHexFrame(bytes: Uint8Array, opts: LldpOptions & { fcs?: boolean } = {}): DecodedFrame {
  try {
    return { frame: 0, ...decodeAny(bytes, opts) } as DecodedFrame;
  } catch (e) {
    if (e instanceof DecodeError) throw problem('--hex', e);
    throw e;
  }
}
