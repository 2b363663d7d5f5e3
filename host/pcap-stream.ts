// A capture read as it arrives (`dcbx decode -`, e.g. `tcpdump -w - | dcbkit dcbx decode -`): classic
// pcap (pcap-savefile(5)) or pcapng, told apart by the first word, cut into whole records as bytes
// come in; each record is then parsed by the file readers (host/pcap.ts, host/pcapng.ts), so a
// stream and a file of the same bytes give the same records, warnings and errors.
//
// State: the bytes not yet consumed, the format once known, and what a record needs from before it:
// the 24-byte global header (pcap), or the section header and interface description blocks of the
// current section (pcapng; a new section header starts over). Invariants: `consumed` counts the
// bytes before `pending`, so an error names its byte in the whole stream; a record is returned
// once, when its last byte has arrived; end() with bytes left over is a truncated-record error.
import { DecodeError } from './frames/bytes.js';
import { readPcap } from './pcap.js';
import { PCAPNG_SHB, readPcapng, type PcapngRecord } from './pcapng.js';
import type { Problem } from './errors.js';

const PCAPNG_IDB = 1;
const BYTE_ORDER_MAGIC = 0x1a2b3c4d;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export class CaptureStream {
  readonly warnings: Problem[] = [];
  private pending: Uint8Array = new Uint8Array(0);
  private consumed = 0;
  private format: 'pcap' | 'pcapng' | undefined;
  /** pcap: the global header; pcapng: the current section header and interface blocks. */
  private context: Uint8Array[] = [];
  private littleEndian = true;

  /** Adds bytes; returns the records they complete, in order. */
  push(chunk: Uint8Array): PcapngRecord[] {
    this.pending = this.pending.length ? concat([this.pending, chunk]) : chunk;
    const out: PcapngRecord[] = [];
    for (;;) {
      const n = this.nextLength();
      if (n === undefined || this.pending.length < n) return out;
      const unit = this.pending.subarray(0, n);
      out.push(...this.take(unit));
      this.consumed += n;
      this.pending = this.pending.subarray(n);
    }
  }

  /** The stream ended: anything left is a record cut short. */
  end(): void {
    if (this.pending.length === 0 && this.format) return;
    throw new DecodeError('truncated', this.consumed, this.format ? `the capture ends inside a ${this.format} record (${this.pending.length} byte(s) of it arrived)` : 'the capture ends before its header');
  }

  /** Bytes of the next unit (header, record or block), or undefined while they cannot be told yet. */
  private nextLength(): number | undefined {
    const p = this.pending;
    const v = new DataView(p.buffer, p.byteOffset, p.byteLength);
    if (!this.format) {
      if (p.length < 4) return undefined;
      this.format = v.getUint32(0) === PCAPNG_SHB ? 'pcapng' : 'pcap';
    }
    if (this.format === 'pcap') {
      if (this.context.length === 0) return 24;
      if (p.length < 16) return undefined;
      return 16 + v.getUint32(8, this.littleEndian);
    }
    if (p.length < 12) return undefined;
    const type = v.getUint32(0, this.littleEndian);
    const le = type === PCAPNG_SHB || v.getUint32(0) === PCAPNG_SHB ? v.getUint32(8, true) === BYTE_ORDER_MAGIC : this.littleEndian;
    const length = v.getUint32(4, le);
    if (length < 12 || length % 4 !== 0) throw new DecodeError('bad_length', this.consumed + 4, `pcapng block length ${length} is not a multiple of 4 of at least 12`);
    return length;
  }

  /** Parses one whole unit with the file readers and keeps what later records need. */
  private take(unit: Uint8Array): PcapngRecord[] {
    // bytes in front of `unit` in what the file reader is given (the context, or nothing)
    let prefix = 0;
    try {
      if (this.format === 'pcap') {
        if (this.context.length === 0) {
          readPcap(unit); // checks the header
          this.context = [unit.slice()];
          this.littleEndian = new DataView(unit.buffer, unit.byteOffset, 4).getUint32(0, true) >>> 16 === 0xa1b2;
          return [];
        }
        prefix = this.context[0].length;
        return readPcap(concat([this.context[0], unit]));
      }
      const v = new DataView(unit.buffer, unit.byteOffset, unit.byteLength);
      if (v.getUint32(0) === PCAPNG_SHB) {
        this.littleEndian = v.getUint32(8, true) === BYTE_ORDER_MAGIC;
        readPcapng(unit);
        this.context = [unit.slice()];
        return [];
      }
      if (this.context.length === 0) throw new DecodeError('wrong_type', 0, 'a pcapng block before any section header block');
      prefix = this.context.reduce((n, c) => n + c.length, 0);
      const parsed = readPcapng(concat([...this.context, unit]));
      if (v.getUint32(0, this.littleEndian) === PCAPNG_IDB) this.context.push(unit.slice());
      this.warnings.push(...parsed.warnings.filter((w) => !this.warnings.some((x) => x.path === w.path && x.rule === w.rule)));
      return parsed.records;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      // the readers count from the start of what they were given: the context, then this unit
      throw new DecodeError(e.code, this.consumed + Math.max(0, e.offset - prefix), e.message);
    }
  }
}
