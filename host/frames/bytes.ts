// Shared byte-level helpers for every wire codec in host/frames and host/dcbx: the typed decode
// error, a bounds-checked big-endian reader, MAC and hex text forms.
//
// Invariant: a decoder never reads past the buffer it was given (every read goes through
// `need`), so malformed input ends in a DecodeError, never in a RangeError or a hang.
import { InputError } from '../errors/errors.js';

export type DecodeErrorCode =
  | 'truncated' // the bytes end before a field or TLV does
  | 'oversized' // bytes left over, or a TLV longer than its type allows
  | 'bad_length' // a length field that contradicts the type's fixed size
  | 'duplicate_tlv' // a TLV that may appear once appears again
  | 'tlv_order' // mandatory TLVs missing or out of order (802.1AB, lldpad rxProcessFrame)
  | 'bad_value' // a field value outside its range
  | 'reserved_nonzero' // a reserved field that is not zero
  | 'wrong_type' // not this kind of frame (EtherType, opcode, destination)
  | 'bad_fcs'; // the frame check sequence does not match

/** The only exception a decoder throws: what went wrong, and at which byte of the input. */
export class DecodeError extends Error {
  readonly code: DecodeErrorCode;
  readonly offset: number;
  constructor(code: DecodeErrorCode, offset: number, message: string) {
    super(message);
    this.name = 'DecodeError';
    this.code = code;
    this.offset = offset;
  }
  toJSON(): { code: DecodeErrorCode; offset: number; message: string } {
    return { code: this.code, offset: this.offset, message: this.message };
  }
}

/** Bounds-checked big-endian reads; offsets are absolute in `bytes`. */
export class Reader {
  constructor(readonly bytes: Uint8Array) {}
  get length(): number {
    return this.bytes.length;
  }
  need(offset: number, len: number, what: string): void {
    if (offset + len > this.bytes.length) {
      throw new DecodeError('truncated', Math.min(offset, this.bytes.length), `${what}: needs ${len} byte(s) at offset ${offset}, only ${Math.max(0, this.bytes.length - offset)} left`);
    }
  }
  u8(offset: number, what: string): number {
    this.need(offset, 1, what);
    return this.bytes[offset];
  }
  u16(offset: number, what: string): number {
    this.need(offset, 2, what);
    return (this.bytes[offset] << 8) | this.bytes[offset + 1];
  }
  u32(offset: number, what: string): number {
    this.need(offset, 4, what);
    return ((this.bytes[offset] << 24) | (this.bytes[offset + 1] << 16) | (this.bytes[offset + 2] << 8) | this.bytes[offset + 3]) >>> 0;
  }
  slice(offset: number, len: number, what: string): Uint8Array {
    this.need(offset, len, what);
    return this.bytes.subarray(offset, offset + len);
  }
  mac(offset: number, what: string): string {
    return formatMac(this.slice(offset, 6, what));
  }
  /** Every byte in [from, to) must be zero (pad and reserved areas). */
  zeros(from: number, to: number, what: string): void {
    for (let i = from; i < to && i < this.bytes.length; i++) {
      if (this.bytes[i] !== 0) throw new DecodeError('reserved_nonzero', i, `${what}: byte ${i} is 0x${hex2(this.bytes[i])}, must be 0`);
    }
  }
}

/** Growable big-endian writer for encoders. */
export class Writer {
  private buf = new Uint8Array(128);
  private len = 0;
  private grow(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  get length(): number {
    return this.len;
  }
  u8(v: number): this {
    this.grow(1);
    this.buf[this.len++] = v & 0xff;
    return this;
  }
  u16(v: number): this {
    return this.u8(v >>> 8).u8(v);
  }
  u32(v: number): this {
    return this.u16(v >>> 16).u16(v & 0xffff);
  }
  bytes(b: Uint8Array | readonly number[]): this {
    this.grow(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }
  zeros(n: number): this {
    this.grow(n);
    this.len += n; // the buffer is zero-initialised and never reused
    return this;
  }
  /** Overwrites a u16 already written (length fields filled in after the body). */
  patchU16(offset: number, v: number): void {
    this.buf[offset] = (v >>> 8) & 0xff;
    this.buf[offset + 1] = v & 0xff;
  }
  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

const HEX2 = Array.from({ length: 256 }, (_, v) => v.toString(16).padStart(2, '0'));

export function hex2(v: number): string {
  return HEX2[v & 0xff];
}

export function toHex(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i++) s += HEX2[b[i]];
  return s;
}

/** Lower-case, colon-separated: 02:00:00:00:00:01. */
export function formatMac(b: Uint8Array): string {
  if (b.length === 0) return '';
  let s = HEX2[b[0]];
  for (let i = 1; i < b.length; i++) s += ':' + HEX2[b[i]];
  return s;
}

const MAC_RE = /^[0-9a-fA-F]{2}([:-]?)[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2}){4}$/;

export function isMac(s: string): boolean {
  return MAC_RE.test(s);
}

/** Parses 02:00:00:00:00:01, 02-00-00-00-00-01 or 020000000001; InputError names `path`. */
export function parseMac(s: string, path: string): Uint8Array {
  if (typeof s !== 'string' || !MAC_RE.test(s)) throw new InputError({ path, rule: `"${s}" is not a MAC address (six hex octets, e.g. 02:00:00:00:00:01)` });
  return Uint8Array.from(s.replace(/[:-]/g, '').match(/../g)!.map((h) => parseInt(h, 16)));
}

/** Parses hex text (whitespace, colons and a 0x prefix allowed); InputError names `path`. */
export function parseHex(s: string, path: string): Uint8Array {
  const clean = s.trim().replace(/^0x/i, '').replace(/[\s:]/g, '');
  const bad = /[^0-9a-fA-F]/.exec(clean);
  if (bad) throw new InputError({ path, rule: `must be hex digits 0-9 a-f (spaces and colons allowed), got ${JSON.stringify(bad[0])}` });
  if (clean.length % 2) throw new InputError({ path, rule: `must be an even number of hex digits (whole bytes), got ${clean.length}` });
  return Uint8Array.from(clean.match(/../g) ?? [], (h) => parseInt(h, 16));
}
