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
      at += out.write(csvField(s.t_ps[i]), at, 'latin1');
      out[at++] = 0x2c; // ,
      at += out.write(csvField(s.values[i]), at, 'latin1');
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
