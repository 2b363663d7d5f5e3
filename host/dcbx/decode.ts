// Decoding captures for `dcbx decode`: every frame of a pcap or pcapng (or one hex frame) becomes one JSON
// object — an LLDPDU with its TLVs in the config's key names, or a PFC/PAUSE/CNM/CE frame. Any
// frame that does not decode makes the whole input an InputError naming the frame and the byte.
import { InputError, type Problem } from '../errors.js';
import { DecodeError, Reader } from '../frames/bytes.js';
import { decodeFrame, stripFcs } from '../frames/index.js';
import { readCapture } from '../pcap.js';
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

function problem(where: string, e: DecodeError): InputError {
  return new InputError({ path: where, rule: `byte ${e.offset}: ${e.message}` }); // e.message says what is wrong; e.code is for programs
}

/** Decodes every frame of a pcap or pcapng file; `warn` hears of packets left out (non-Ethernet interfaces). */
export function decodeCapture(pcap: Uint8Array, opts: LldpOptions & { fcs?: boolean; warn?: (p: Problem) => void } = {}): DecodedFrame[] {
  let records;
  try {
    const capture = readCapture(pcap);
    for (const w of capture.warnings) opts.warn?.(w);
    records = capture.records;
  } catch (e) {
    if (e instanceof DecodeError) throw problem('pcap', e);
    throw e;
  }
  return records.map((r, i) => {
    try {
      // a pcapng simple packet block has no timestamp
      const t = r.t_ps === undefined ? undefined : r.t_ps <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(r.t_ps) : r.t_ps.toString();
      return { frame: i, ...(t === undefined ? {} : { t_ps: t }), ...decodeAny(r.data, opts) } as DecodedFrame;
    } catch (e) {
      if (e instanceof DecodeError) throw problem(`frame[${i}]`, e);
      throw e;
    }
  });
}

export function decodeHexFrame(bytes: Uint8Array, opts: LldpOptions & { fcs?: boolean } = {}): DecodedFrame {
  try {
    return { frame: 0, ...decodeAny(bytes, opts) } as DecodedFrame;
  } catch (e) {
    if (e instanceof DecodeError) throw problem('--hex', e);
    throw e;
  }
}
