// A capture read as it arrives (`dcbx decode -`, e.g. `tcpdump -w - | dcbkit dcbx decode -`): classic
// pcap (pcap-savefile(5)) or pcapng, told apart by the first word, cut into whole records as bytes
// come in; each record is then parsed by the file readers (host/capture/pcap.ts, host/capture/pcapng.ts's block
// reader), so a stream and a file of the same bytes give the same records, warnings and errors.
//
// State: the bytes not yet consumed (`buffer[start, tail)`, a buffer that doubles when a unit does
// not fit, so a unit arriving in many small chunks is copied a bounded number of times), the format
// once known, the pcap global header, or the pcapng block reader that keeps the sections and
// interfaces (so each block costs its own length, not that of every interface block before it).
// Invariants: `consumed` counts the bytes before `start`, so an error names its byte in the whole
// stream; a unit's length is checked against the format's sanity bound (PCAP_MAX_RECORD,
// PCAPNG_MAX_BLOCK) before any of it is waited for; a record is returned once, when its last byte
// has arrived; end() with bytes left over is a truncated-record error.
import { DecodeError } from '../frames/bytes.js';
import { checkedRecordLength, readPcap } from './pcap.js';
import { PCAPNG_SHB, PcapngBlocks, checkedBlockLength, type PcapngRecord } from './pcapng.js';
import type { Problem } from '../errors/errors.js';

const BYTE_ORDER_MAGIC = 0x1a2b3c4d;

export class CaptureStream {
  readonly warnings: Problem[] = [];
  private buffer = new Uint8Array(64 * 1024);
  private start = 0;
  private tail = 0;
  private consumed = 0;
  private format: 'pcap' | 'pcapng' | undefined;
  /** pcap: the 24-byte global header, once read. */
  private pcapHeader: Uint8Array | undefined;
  private pcapng = new PcapngBlocks();
  /** byte order of the pcap header or of the current pcapng section */
  private littleEndian = true;

  /** Adds bytes; returns the records they complete, in order. */
  push(chunk: Uint8Array): PcapngRecord[] {
    this.append(chunk);
    const out: PcapngRecord[] = [];
    for (;;) {
      const n = this.nextLength();
      if (n === undefined || this.tail - this.start < n) return out;
      const unit = this.buffer.subarray(this.start, this.start + n);
      const record = this.take(unit);
      if (record) out.push(record);
      this.consumed += n;
      this.start += n;
    }
  }

  /** The stream ended: anything left is a record cut short. The warnings are then complete. */
  end(): void {
    const left = this.tail - this.start;
    if (!(left === 0 && this.format)) {
      throw new DecodeError('truncated', this.consumed, this.format ? `the capture ends inside a ${this.format} record (${left} byte(s) of it arrived)` : 'the capture ends before its header');
    }
    if (this.format === 'pcapng') this.warnings.push(...this.pcapng.warnings());
  }

  /** Copies `chunk` after the pending bytes: moved to the front first, the buffer doubled when short. */
  private append(chunk: Uint8Array): void {
    const pending = this.tail - this.start;
    if (this.tail + chunk.length > this.buffer.length) {
      let size = this.buffer.length;
      while (size < pending + chunk.length) size *= 2;
      const next = size === this.buffer.length ? this.buffer : new Uint8Array(size);
      next.set(this.buffer.subarray(this.start, this.tail), 0);
      this.buffer = next;
      this.start = 0;
      this.tail = pending;
    }
    this.buffer.set(chunk, this.tail);
    this.tail += chunk.length;
  }

  /** Bytes of the next unit (header, record or block), or undefined while they cannot be told yet. */
  private nextLength(): number | undefined {
    const have = this.tail - this.start;
    const v = new DataView(this.buffer.buffer, this.buffer.byteOffset + this.start, have);
    if (!this.format) {
      if (have < 4) return undefined;
      this.format = v.getUint32(0) === PCAPNG_SHB ? 'pcapng' : 'pcap';
    }
    if (this.format === 'pcap') {
      if (!this.pcapHeader) return 24;
      if (have < 16) return undefined;
      return 16 + checkedRecordLength(v.getUint32(8, this.littleEndian), this.consumed + 8);
    }
    if (have < 12) return undefined;
    const shb = v.getUint32(0) === PCAPNG_SHB;
    const le = shb ? v.getUint32(8, true) === BYTE_ORDER_MAGIC : this.littleEndian;
    return checkedBlockLength(v.getUint32(4, le), this.consumed + 4);
  }

  /** Parses one whole unit with the file readers; returns its packet, if any. */
  private take(unit: Uint8Array): PcapngRecord | undefined {
    // bytes in front of `unit` in what the reader is given (the pcap header, or nothing)
    let prefix = 0;
    try {
      if (this.format === 'pcap') {
        if (!this.pcapHeader) {
          readPcap(unit); // checks the header
          this.pcapHeader = unit.slice();
          this.littleEndian = new DataView(unit.buffer, unit.byteOffset, 4).getUint32(0, true) >>> 16 === 0xa1b2;
          return undefined;
        }
        prefix = this.pcapHeader.length;
        const whole = new Uint8Array(prefix + unit.length);
        whole.set(this.pcapHeader, 0);
        whole.set(unit, prefix);
        return readPcap(whole)[0];
      }
      const v = new DataView(unit.buffer, unit.byteOffset, unit.byteLength);
      if (v.getUint32(0) === PCAPNG_SHB) this.littleEndian = v.getUint32(8, true) === BYTE_ORDER_MAGIC;
      return this.pcapng.block(unit, 0).record;
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      // the readers count from the start of what they were given: the header, then this unit
      throw new DecodeError(e.code, this.consumed + Math.max(0, e.offset - prefix), e.message);
    }
  }
}
