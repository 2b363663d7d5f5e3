// The "CET" credit-exchange capability TLV proposed with credit-based link-level flow control
// (Kamble et al. 2014, "Exchange of CET Capabilities"; docs/design.md §4.2). The proposal asks for a DCBX extension
// advertising support, the credit unit, channel capability and credit aging, but assigns no code
// points, so this TLV is ours (docs/dcbx.md):
//
//   LLDP type 127, OUI = configurable (default 0A-DC-B0, a locally administered CID: its first
//   octet's low nibble 0xA marks a CID in the local space; never 00-80-C2 or 00-1B-21), subtype 1,
//   information string offsets after OUI(3)+subtype(1):
//     4  flags: b7 credit exchange supported, b6 16-bit channel ids supported, b5 CE-Tag supported,
//        b4..0 reserved 0
//     5  priority bitmap: bit p = credit flow control on priority p
//     6  credit unit, u16 bytes (64 = 512 bits .. MTU)
//     8  credit aging time, u32 microseconds
//     12 counter width k, u8 bits (absolute counters mod 2^k; 2..16)
//   TLV length 13.
import { InputError } from '../errors/errors.js';
import { DecodeError, Reader, Writer } from '../frames/bytes.js';
import { bitsToList, listToBits } from '../frames/macctrl.js';
import { CEE_OUI } from './cee.js';
import { IEEE_8021_OUI } from './ieee.js';

export const CET_DEFAULT_OUI = 0x0adcb0;
export const CET_SUBTYPE = 1;
export const CET_LEN = 13;

export interface CetTlv {
  type: 'cet';
  /** OUI as six hex digits, e.g. "0adcb0". */
  oui: string;
  supported: boolean;
  channels: boolean;
  ce_tag: boolean;
  priorities: number[];
  unit: number;
  aging_us: number;
  counter_bits: number;
}

export function ouiText(oui: number): string {
  return oui.toString(16).padStart(6, '0');
}

/** Parses a configured OUI ("0a:dc:b0", "0adcb0", "0x0ADCB0"); the DCBX OUIs are refused. */
export function parseCetOui(text: string, path: string): number {
  const clean = text.replace(/^0x/i, '').replace(/[:-]/g, '');
  if (!/^[0-9a-fA-F]{6}$/.test(clean)) throw new InputError({ path, rule: `"${text}" is not an OUI/CID (three octets)` });
  const v = parseInt(clean, 16);
  if (v === IEEE_8021_OUI || v === CEE_OUI) throw new InputError({ path, rule: `${ouiText(v)} belongs to IEEE 802.1 / CEE DCBX; the CET TLV needs an OUI or CID of its own` });
  return v;
}

export function encodeCetBody(t: CetTlv, w: Writer, path: string): void {
  const int = (v: number, lo: number, hi: number, p: string) => {
    if (!Number.isInteger(v) || v < lo || v > hi) throw new InputError({ path: `${path}.${p}`, rule: `${v} is not an integer ${lo}..${hi}` });
  };
  int(t.unit, 0, 0xffff, 'unit');
  int(t.aging_us, 0, 0xffffffff, 'aging_us');
  int(t.counter_bits, 0, 255, 'counter_bits');
  t.priorities.forEach((p, i) => int(p, 0, 7, `priorities[${i}]`));
  w.u8((t.supported ? 0x80 : 0) | (t.channels ? 0x40 : 0) | (t.ce_tag ? 0x20 : 0)).u8(listToBits(t.priorities)).u16(t.unit).u32(t.aging_us).u8(t.counter_bits);
}

export function decodeCetTlv(r: Reader, header: number, info: number, len: number): CetTlv {
  if (len !== CET_LEN) throw new DecodeError('bad_length', header, `CET TLV has length ${len}, must be ${CET_LEN}`);
  const b = info + 4;
  const flags = r.u8(b, 'CET flags');
  if (flags & 0x1f) throw new DecodeError('reserved_nonzero', b, 'CET flags: bits 4..0 are reserved and must be 0');
  const oui = (r.u8(info, 'OUI') << 16) | r.u16(info + 1, 'OUI');
  return {
    type: 'cet', oui: ouiText(oui), supported: !!(flags & 0x80), channels: !!(flags & 0x40), ce_tag: !!(flags & 0x20),
    priorities: bitsToList(r.u8(b + 1, 'CET priorities')), unit: r.u16(b + 2, 'CET unit'), aging_us: r.u32(b + 4, 'CET aging'), counter_bits: r.u8(b + 8, 'CET counter width'),
  };
}
