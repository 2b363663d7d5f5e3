// IEEE 802.3 clause 31 MAC Control frames (EtherType 0x8808): the common envelope of PAUSE
// (Annex 31B), PFC (Annex 31D) and the credit-exchange opcodes 0x0110/0x0111 (docs/design.md §4.2).
//
// Layout (without FCS): DA(6) SA(6) 0x8808(2) opcode(2) parameters(44, zero padded) = 60 bytes;
// the FCS makes it the 64-byte minimum frame. Decoding is strict (exactly 60 bytes, zero pad), so
// every accepted frame re-encodes to the same bytes.
import { DecodeError, Reader, Writer, formatMac } from './bytes.js';

export const MAC_CONTROL_ETHERTYPE = 0x8808;
/** 01-80-C2-00-00-01: the reserved multicast address of MAC Control PAUSE and PFC. */
export const MAC_CONTROL_DA = Uint8Array.of(0x01, 0x80, 0xc2, 0x00, 0x00, 0x01);
export const MAC_CONTROL_LEN = 60; // without FCS
export const OPCODE_PAUSE = 0x0001;
export const OPCODE_PFC = 0x0101;
export const OPCODE_CE_SYNC = 0x0110;
export const OPCODE_CE_GRANT = 0x0111;
/** Offset of the first parameter octet. */
export const PARAMS = 16;

/** Starts a MAC Control frame; the caller writes the parameters and calls `finishMacControl`. */
export function startMacControl(dst: Uint8Array, src: Uint8Array, opcode: number): Writer {
  return new Writer().bytes(dst).bytes(src).u16(MAC_CONTROL_ETHERTYPE).u16(opcode);
}

export function finishMacControl(w: Writer): Uint8Array {
  w.zeros(MAC_CONTROL_LEN - w.length);
  return w.finish();
}

/** Checks the envelope and returns a reader positioned on the frame, plus its addresses. */
export function openMacControl(bytes: Uint8Array, opcode: number, name: string): { r: Reader; dst: string; src: string } {
  const r = new Reader(bytes);
  const type = r.u16(12, 'EtherType');
  if (type !== MAC_CONTROL_ETHERTYPE) throw new DecodeError('wrong_type', 12, `EtherType 0x${type.toString(16)} is not MAC Control (0x8808)`);
  const op = r.u16(14, 'opcode');
  if (op !== opcode) throw new DecodeError('wrong_type', 14, `opcode 0x${op.toString(16).padStart(4, '0')} is not ${name} (0x${opcode.toString(16).padStart(4, '0')})`);
  if (bytes.length < MAC_CONTROL_LEN) throw new DecodeError('truncated', bytes.length, `${name} frame is ${bytes.length} bytes, a MAC Control frame is ${MAC_CONTROL_LEN} (without FCS)`);
  if (bytes.length > MAC_CONTROL_LEN) throw new DecodeError('oversized', MAC_CONTROL_LEN, `${name} frame is ${bytes.length} bytes, a MAC Control frame is ${MAC_CONTROL_LEN} (without FCS)`);
  return { r, dst: formatMac(bytes.subarray(0, 6)), src: formatMac(bytes.subarray(6, 12)) };
}

/** Priority enable vector: high octet reserved (0), bit n of the low octet = priority n. */
export function readEnableVector(r: Reader, offset: number): number[] {
  const v = r.u16(offset, 'priority enable vector');
  if (v >> 8) throw new DecodeError('reserved_nonzero', offset, 'the upper octet of the priority enable vector must be 0');
  return bitsToList(v);
}

export function bitsToList(v: number): number[] {
  const out: number[] = [];
  for (let p = 0; p < 8; p++) if (v & (1 << p)) out.push(p);
  return out;
}

export function listToBits(list: readonly number[]): number {
  let v = 0;
  for (const p of list) v |= 1 << p;
  return v;
}
