// The memory budget of a simulation run: what its sampled series (and, with --out, their CSV text)
// and the engine's arena will hold, estimated before the first sample so a runaway scenario
// (`sample: 1ps` over 6 ms, `duration: 1000000s` at 10 us) is refused at once with exit 2 and the
// numbers, instead of growing to gigabytes and dying. docs/reports.md documents the figures.
import { InputError } from '../errors.js';
import type { Scenario } from '../scenario/scenario.js';
import type { SimSeries } from './result.js';

/** Default --max-memory: 2 GiB. */
export const DEFAULT_MAX_MEMORY = 2 * 1024 ** 3;
/** One sample in memory: t_ps and value, one double each in their arrays. */
export const BYTES_PER_SAMPLE = 16;
/** One sample as a CSV row: about 60 characters, held once in the row list and once in the joined text. */
export const CSV_BYTES_PER_SAMPLE = 128;
/** The longest string V8 builds (2^29 - 24 characters): the cap on one series/<kind>.csv. */
export const MAX_STRING_CHARS = 2 ** 29 - 24;
const CSV_CHARS_PER_SAMPLE = 64;

export interface RunFootprint {
  samples: number;
  series: number;
  /** Samples of the kind with the most, which becomes the largest CSV file. */
  largestKindSamples: number;
  arenaBytes: number;
  bytes: number;
}

export function runFootprint(scn: Scenario, series: readonly SimSeries[], arenaBytes: number, withReport: boolean): RunFootprint {
  const samples = Math.ceil(scn.duration_ps / scn.sample_ps);
  const perKind = new Map<string, number>();
  for (const s of series) perKind.set(s.kind, (perKind.get(s.kind) ?? 0) + 1);
  let largest = 0;
  for (const n of perKind.values()) largest = Math.max(largest, n);
  const perSample = BYTES_PER_SAMPLE + (withReport ? CSV_BYTES_PER_SAMPLE : 0);
  return { samples, series: series.length, largestKindSamples: samples * largest, arenaBytes, bytes: samples * series.length * perSample + arenaBytes };
}

/** `2.5 GiB`, `300 MiB`: binary units, as --max-memory is usually given. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${i === 0 ? n : n.toPrecision(3)} ${units[i]}`;
}

/** Throws InputError at `sample` when the run would exceed `maxBytes` or a CSV would exceed a string. */
export function checkBudget(f: RunFootprint, maxBytes: number, withReport = false): void {
  const what = `${f.samples.toLocaleString('en-US')} samples (duration / sample) x ${f.series} series`;
  const fix = 'raise sample, shorten duration or record fewer series (series.ports, series.flows)';
  if (f.bytes > maxBytes) {
    throw new InputError({
      path: 'sample',
      rule: `${what} and a ${formatBytes(f.arenaBytes)} arena need about ${formatBytes(f.bytes)}, over the memory budget of ${formatBytes(maxBytes)} (--max-memory): ${fix}`,
    });
  }
  if (withReport && f.largestKindSamples * CSV_CHARS_PER_SAMPLE > MAX_STRING_CHARS) {
    throw new InputError({
      path: 'sample',
      rule: `${what} make a series CSV of about ${formatBytes(f.largestKindSamples * CSV_CHARS_PER_SAMPLE)}, more than one file of the report can hold (${formatBytes(MAX_STRING_CHARS)}): ${fix}`,
    });
  }
}
