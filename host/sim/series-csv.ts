// The series of a run as CSV (RFC 4180), long layout: one row `series,entity,unit,t_ps,value,priority`
// per sample (docs/reports.md). Written as bytes into one reused buffer of a MiB and handed out
// chunk by chunk, so the report streams each file to disk and holds at most that buffer, however
// long the run: a string per row, their joined text and its encoded copy cost about 5 times the
// file, and even the bytes of a whole file grew with the run (a 2 s run at 10 us sampling writes
// 250 MB of CSV).
import type { SimSeries } from './result.js';

export const SERIES_CSV_HEADER = 'series,entity,unit,t_ps,value,priority';

/** RFC 4180 quoting for one CSV field. */
export function csvField(v: string | number): string {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Characters of the longest number String() prints (`-1.2345678901234567e-308`). */
const NUMBER_CHARS_MAX = 24;

type RowKeys = Pick<SimSeries, 'name' | 'entity' | 'unit' | 'priority' | 'kind'>;

function rowParts(s: RowKeys): { head: Buffer; tail: Buffer } {
  return {
    head: Buffer.from(`${csvField(s.name)},${csvField(s.entity)},${csvField(s.unit)},`),
    tail: Buffer.from(`,${s.priority === undefined ? '' : csvField(s.priority)}\n`),
  };
}

/** Writes the digits of the non-negative safe integer `n` at `at`; returns the bytes written. */
function writeDigits(out: Buffer, at: number, n: number): number {
  let len = 1;
  for (let p = 10; p <= n; p *= 10) len++;
  for (let i = at + len - 1; i >= at; i--) {
    out[i] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  }
  return len;
}

/**
 * Writes `v` at `at` exactly as csvField(v) would, returns the bytes written. Times are integers
 * (ps) and sample values are integers or rounded to 3 decimals (sample.ts round3), so their digits
 * are written straight into the buffer: a string per number, millions of them in a long run, grew
 * the heap by tens of MiB while the CSV streamed. For v = k / 1000 with |k| < 10^15 the shortest
 * decimal that reads back as v, which is what String(v) prints (ECMA-262 Number::toString), is k / 1000
 * itself: two decimals of at most 15 significant digits never read back as the same double. Any
 * other number goes through String().
 */
export function writeNumber(out: Buffer, at: number, v: number): number {
  const start = at;
  if (Number.isSafeInteger(v)) {
    if (v < 0) out[at++] = 0x2d; // -
    return at - start + writeDigits(out, at, Math.abs(v));
  }
  const k = Math.round(v * 1000);
  if (!(k / 1000 === v && Math.abs(k) < 1e15)) return out.write(csvField(v), at, 'latin1');
  if (k < 0) out[at++] = 0x2d;
  const whole = Math.floor(Math.abs(k) / 1000);
  let frac = Math.abs(k) - whole * 1000; // 1..999: v is not an integer
  at += writeDigits(out, at, whole);
  out[at++] = 0x2e; // .
  for (let d = 100; frac > 0; d /= 10) {
    const digit = Math.floor(frac / d);
    out[at++] = 0x30 + digit;
    frac -= digit * d;
  }
  return at - start;
}

/** Bytes of one chunk of a streamed CSV: large enough that writing it costs one system call per MiB. */
export const CSV_CHUNK_BYTES = 1024 ** 2;

/**
 * Long-layout CSV of the given series as UTF-8 chunks, series in the order given. The chunks are
 * views of one reused buffer: each is valid until the next is asked for, so the CSV is never held
 * whole (the report streams it to its file, host/io.ts).
 */
export function* seriesCsvChunks(series: readonly SimSeries[], chunkBytes = CSV_CHUNK_BYTES): Generator<Uint8Array, void> {
  const parts = series.map(rowParts);
  let rowMax = 0;
  for (const p of parts) rowMax = Math.max(rowMax, p.head.length + p.tail.length + 1 + 2 * NUMBER_CHARS_MAX);
  const out = Buffer.allocUnsafe(Math.max(chunkBytes, 2 * rowMax, SERIES_CSV_HEADER.length + 1));
  let at = out.write(SERIES_CSV_HEADER + '\n', 0, 'latin1');
  for (let k = 0; k < series.length; k++) {
    const s = series[k];
    const { head, tail } = parts[k];
    const n = Math.min(s.t_ps.length, s.values.length);
    for (let i = 0; i < n; i++) {
      if (at + rowMax > out.length) {
        yield out.subarray(0, at);
        at = 0;
      }
      at += head.copy(out, at);
      at += writeNumber(out, at, s.t_ps[i]);
      out[at++] = 0x2c; // ,
      at += writeNumber(out, at, s.values[i]);
      at += tail.copy(out, at);
    }
  }
  if (at > 0) yield out.subarray(0, at);
}

/** The same CSV in one buffer (for tests and small series: the report streams it). */
export function seriesCsvBytes(series: readonly SimSeries[]): Uint8Array {
  const copies: Buffer[] = [];
  for (const c of seriesCsvChunks(series)) copies.push(Buffer.from(c));
  return Buffer.concat(copies);
}

/** The same CSV as text. */
export function seriesCsvText(series: readonly SimSeries[]): string {
  return Buffer.from(seriesCsvBytes(series)).toString('utf8');
}
