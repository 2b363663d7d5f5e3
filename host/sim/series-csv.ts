// The series of a run as CSV (RFC 4180), long layout: one row `series,entity,unit,t_ps,value,priority`
// per sample (docs/reports.md). Written as bytes straight into one buffer sized for the widest
// numbers the rows can hold, so the report holds the file once, at its length, instead of a string
// per row, their joined text and its encoded copy (about 5 times the file in all); the buffer's
// pages past the end are never touched, so they cost no memory. Also the bound the memory budget
// counts per row (budget.ts).
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

/**
 * Bytes of one row of series `s` in a run of `durationPs`, at a wide value of its kind: a queue in
 * bytes up to 99,999,999 (8 digits: buffers of tens of MB), a pause share (`33.333`), a rate or
 * throughput in Gb/s up to `999.125`; sample values are rounded to 3 decimals (sample.ts).
 */
export function csvRowBytesBound(s: RowKeys, durationPs: number): number {
  const { head, tail } = rowParts(s);
  const value = s.kind === 'queue' ? 8 : s.kind === 'pause' ? 6 : 7;
  return head.length + String(durationPs).length + 1 + value + tail.length;
}

/** Long-layout CSV of the given series as UTF-8 bytes, series in the order given. */
export function seriesCsvBytes(series: readonly SimSeries[]): Uint8Array {
  const header = Buffer.from(SERIES_CSV_HEADER + '\n');
  const parts = series.map(rowParts);
  let cap = header.length;
  series.forEach((s, k) => {
    const n = Math.min(s.t_ps.length, s.values.length);
    cap += n * (parts[k].head.length + parts[k].tail.length + 1 + 2 * NUMBER_CHARS_MAX);
  });
  const out = Buffer.allocUnsafe(cap);
  let at = header.copy(out, 0);
  series.forEach((s, k) => {
    const { head, tail } = parts[k];
    const n = Math.min(s.t_ps.length, s.values.length);
    for (let i = 0; i < n; i++) {
      at += head.copy(out, at);
      at += out.write(csvField(s.t_ps[i]), at, 'latin1');
      out[at++] = 0x2c; // ,
      at += out.write(csvField(s.values[i]), at, 'latin1');
      at += tail.copy(out, at);
    }
  });
  return out.subarray(0, at);
}

/** The same CSV as text. */
export function seriesCsvText(series: readonly SimSeries[]): string {
  return Buffer.from(seriesCsvBytes(series)).toString('utf8');
}
