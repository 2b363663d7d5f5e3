// The run report (host/report/report.ts, host/report/plots.ts) on a synthetic SimResult: the file set,
// determinism of everything but run.json, the CSV layout, the self-contained HTML, all-or-nothing
// writing, and the plot helpers' invariants.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { flowNames, pauseBars, thinIndices, timeUnitFor, displayScale } from '../host/report/plots.js';
import { canonicalJson, csvField, seriesCsv, writeReport, SERIES_CSV_HEADER } from '../host/report/report.js';
import type { SimSeries } from '../host/sim/result.js';
import { seriesCsvChunks, writeNumber } from '../host/sim/series-csv.js';
import { syntheticResult } from './fixtures/synthetic-result.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-report-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A minimal RFC 4180 line splitter, independent of the writer. */
function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; }
      else if (c === '"') q = false;
      else cur += c;
    } else if (c === '"') q = true;
    else if (c === ',') { out.push(cur); cur = ''; }
    else cur += c;
  }
  out.push(cur);
  return out;
}

describe('writeReport', () => {
  it('writes summary, run info, one CSV per series kind, the plots and report.html', async () => {
    const dir = join(tmp, 'a');
    const files = await writeReport(syntheticResult(), dir);
    expect(files).toEqual([
      'credit.svg', 'ets.svg', 'flows.svg', 'other.svg', 'pause.svg', 'queue.svg', 'rate.svg', 'report.html', 'run.json',
      'series/credit.csv', 'series/other.csv', 'series/pause.csv', 'series/queue.csv', 'series/rate.csv',
      'series/throughput.csv', 'summary.json', 'throughput.svg',
    ]);
    expect(readdirSync(dir).sort()).toEqual([...new Set(files.map((f) => f.split('/')[0]))].sort());
  });

  it('keeps wall-clock figures out of every file but run.json, so equal results give equal bytes', async () => {
    const a = syntheticResult();
    const b = syntheticResult();
    b.summary.sim.wall_s = 9.87;
    b.summary.sim.packet_hops_per_s = 12.5;
    const files = await writeReport(a, join(tmp, 'd1'));
    await writeReport(b, join(tmp, 'd2'));
    for (const f of files) {
      const x = readFileSync(join(tmp, 'd1', f));
      const y = readFileSync(join(tmp, 'd2', f));
      if (f === 'run.json') expect(x.equals(y)).toBe(false);
      else expect(x.equals(y), f).toBe(true);
    }
    const summary = JSON.parse(readFileSync(join(tmp, 'd1', 'summary.json'), 'utf8'));
    expect(summary.sim).toEqual({ events: 234567, packet_hops: 123456 });
    expect(summary.drops.by_priority).toEqual([12, 0, 0, 0, 0, 0, 0, 0]);
    expect(Object.keys(summary)).toEqual(['drops', 'ets', 'fairness', 'flows', 'pfc', 'qcn', 'scenario', 'sim', 'watchdog']);
    const run = JSON.parse(readFileSync(join(tmp, 'd2', 'run.json'), 'utf8'));
    expect(run.wall_s).toBe(9.87);
    expect(run.packet_hops_per_s).toBe(12.5);
    expect(run.versions.node).toBe(process.versions.node);
  });

  it('writes CSVs in the long layout with every sample of every series of that kind', async () => {
    const r = syntheticResult();
    const dir = join(tmp, 'csv');
    await writeReport(r, dir);
    const lines = readFileSync(join(dir, 'series', 'queue.csv'), 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe(SERIES_CSV_HEADER);
    const queues = r.series.filter((s) => s.kind === 'queue');
    expect(lines.length - 1).toBe(queues.reduce((n, s) => n + s.t_ps.length, 0));
    // Row 1 + k of series q.tc0 is its k-th sample, exactly; a queue series has no priority.
    const q0 = queues[0];
    for (const k of [0, 1, 500, 999]) {
      expect(splitCsvLine(lines[1 + k])).toEqual([q0.name, q0.entity, q0.unit, String(q0.t_ps[k]), String(q0.values[k]), '']);
    }
    // Pause series are per (port, priority): the priority is the last column.
    const pause = readFileSync(join(dir, 'series', 'pause.csv'), 'utf8').trimEnd().split('\n').map(splitCsvLine);
    expect(pause[1]).toEqual(['paused.p3', 'h1:p0', '%', '0', '0', '3']);
    expect(pause[101]).toEqual(['paused.p3', 'h1:p0', '%', String(100 * 1_000_000), '100', '3']);
    expect(pause[1 + 1000]).toEqual(['paused.p0', 'h1:p0', '%', '0', '0', '0']);
  });

  it('shows pauses per (port, priority): one Gantt row per priority in pause.svg, a port x priority table in report.html', async () => {
    const dir = join(tmp, 'pause');
    await writeReport(syntheticResult(), dir);
    const svg = readFileSync(join(dir, 'pause.svg'), 'utf8');
    // Row labels `port pN`, and a legend entry per priority.
    for (const label of ['h1:p0 p3', 'h1:p0 p0', 'priority 3', 'priority 0']) expect(svg).toContain(`>${label}<`);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    const section = html.slice(html.indexOf('<h2>Paused time per port and priority</h2>'), html.indexOf('<h2>ETS</h2>'));
    // 150,000,000 ps = 150 µs under priority 3, nothing under the other seven.
    expect(section).toContain('<tr><td>h1:p0</td><td></td><td></td><td></td><td>150 µs</td><td></td><td></td><td></td><td></td></tr>');
  });

  it('makes report.html self-contained: inline SVG, escaped text, no scripts or external references', async () => {
    const dir = join(tmp, 'html');
    await writeReport(syntheticResult(), dir);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html.match(/<svg /g)?.length).toBe(8);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    // The only URLs are SVG/XLink namespace names, which browsers never fetch.
    const urls = [...html.matchAll(/https?:\/\/[^\s"')]+/g)].map((m) => m[0]);
    expect(new Set(urls)).toEqual(new Set(['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink']));
    expect(html).toContain('synthetic, &quot;quoted&quot; &amp; &lt;escaped&gt;');
    expect(html).not.toContain('<escaped>');
    expect(html).toContain('storm_detected');
    expect(html).toContain('<td>39.58</td><td>-0.42</td>');
  });

  it('writes nothing when the output cannot be created', async () => {
    const blocker = join(tmp, 'blocker');
    writeFileSync(blocker, 'not a directory');
    await expect(writeReport(syntheticResult(), blocker)).rejects.toThrow();
    expect(readFileSync(blocker, 'utf8')).toBe('not a directory');
    expect(readdirSync(tmp).filter((n) => n.startsWith('.dcbkit-stage-'))).toEqual([]);
    expect(existsSync(join(tmp, 'blocker', 'summary.json'))).toBe(false);
  });

  it('renders the ETS plot with one bar per TC for configured and measured', async () => {
    const dir = join(tmp, 'ets');
    await writeReport(syntheticResult(), dir);
    const svg = readFileSync(join(dir, 'ets.svg'), 'utf8');
    for (const label of ['sw0:p0 TC0', 'sw0:p0 TC1', 'sw0:p0 TC2', 'configured', 'measured']) expect(svg).toContain(label);
    // 3 TCs x {configured, measured} bars, drawn as one path each in the rect mark group.
    const marks = svg.match(/<g class="mark-rect role-mark marks"[^>]*>(.*?)<\/g>/s)?.[1] ?? '';
    expect(marks.match(/<path /g)?.length).toBe(6);
  });
});

describe('canonicalJson', () => {
  it('round-trips JSON values and does not depend on key insertion order', () => {
    const reversed = (x: unknown): unknown =>
      Array.isArray(x) ? x.map(reversed)
        : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).reverse().map(([k, y]) => [k, reversed(y)]))
          : x;
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = canonicalJson(v);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
        expect(canonicalJson(reversed(v))).toBe(text);
      }),
      { numRuns: 300 },
    );
    expect(canonicalJson({ b: 1, a: [1, 2], '': { z: null, y: 'x' } })).toBe('{\n  "": {\n    "y": "x",\n    "z": null\n  },\n  "a": [1, 2],\n  "b": 1\n}\n');
  });
});

describe('CSV fields', () => {
  it('quote exactly what RFC 4180 needs and split back to the original strings', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (cells) => {
        const noNewline = cells.map((c) => c.replace(/[\r\n]/g, ' '));
        expect(splitCsvLine(noNewline.map(csvField).join(','))).toEqual(noNewline);
      }),
      { numRuns: 300 },
    );
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(NaN)).toBe('');
  });

  it('one row per sample, in series order', () => {
    const s: SimSeries = { name: 'q', kind: 'queue', unit: 'B', entity: 'sw0>h1', t_ps: [10, 20], values: [1.5, 0] };
    expect(seriesCsv([s])).toBe(`${SERIES_CSV_HEADER}\nq,sw0>h1,B,10,1.5,\nq,sw0>h1,B,20,0,\n`);
    expect(seriesCsv([{ ...s, kind: 'pause', priority: 5 }])).toBe(`${SERIES_CSV_HEADER}\nq,sw0>h1,B,10,1.5,5\nq,sw0>h1,B,20,0,5\n`);
  });

  it('numbers are written as String() prints them: integers, thousandths and anything else', () => {
    const buf = Buffer.alloc(64);
    const same = (v: number) => { expect(buf.toString('latin1', 0, writeNumber(buf, 0, v)), String(v)).toBe(csvField(v)); };
    fc.assert(fc.property(fc.oneof(
      fc.maxSafeInteger(),
      fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }).map((k) => k / 1000),
      fc.double(),
      fc.constantFrom(0, -0, 0.001, -0.001, 999.999, 2 ** 53, 1e21, 1e-7, NaN, Infinity, -Infinity),
    ), (v) => { same(v); }), { numRuns: 20_000 });
  });

  it('streamed in chunks of one reused buffer, the CSV is the same bytes whatever the chunk size', () => {
    const series = (n: number, k: number): SimSeries => ({
      name: `queue p${k}`, kind: 'queue', unit: 'bytes', entity: `p${k}`, priority: k % 2 ? k : undefined,
      t_ps: Array.from({ length: n }, (_, i) => (i + 1) * 10_000_000), values: Array.from({ length: n }, (_, i) => (i * 7919) % 100_003 / 8),
    });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 5000 }), (lengths, chunkBytes) => {
        const ss = lengths.map(series);
        const chunks: string[] = [];
        for (const c of seriesCsvChunks(ss, chunkBytes)) chunks.push(Buffer.from(c).toString('latin1')); // read before the next reuses it
        expect(chunks.join('')).toBe(seriesCsv(ss));
        const total = chunks.join('').length;
        if (total > 4 * Math.max(chunkBytes, 200)) expect(chunks.length).toBeGreaterThan(1);
      }),
      { numRuns: 100 },
    );
  });
});

describe('plot helpers', () => {
  it('thinning keeps the first and last samples and the global extremes, in order, within the budget', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 5000 }), fc.integer({ min: 2, max: 400 }), (vals, budget) => {
        const idx = thinIndices(vals, budget);
        expect(idx[0]).toBe(0);
        expect(idx[idx.length - 1]).toBe(vals.length - 1);
        for (let i = 1; i < idx.length; i++) expect(idx[i]).toBeGreaterThan(idx[i - 1]);
        expect(idx.length).toBeLessThanOrEqual(vals.length <= budget ? vals.length : Math.max(budget, 4));
        const kept = idx.map((i) => vals[i]);
        expect(Math.max(...kept)).toBe(Math.max(...vals));
        expect(Math.min(...kept)).toBe(Math.min(...vals));
      }),
      { numRuns: 200 },
    );
  });

  it('pause bars: sample i covers (t[i-1], t[i]] with its paused share; equal neighbours merge', () => {
    const s: SimSeries = { name: 'p', kind: 'pause', unit: '%', entity: 'x', t_ps: [100, 200, 300, 400, 500], values: [0, 100, 100, 0, 60] };
    // Samples 1-2 cover (100, 300] fully paused; sample 4 covers (400, 500] paused 60 % of the time.
    expect(pauseBars(s, 100)).toEqual([{ t0: 100, t1: 300, pct: 100 }, { t0: 400, t1: 500, pct: 60 }]);
    // The first sample reaches back one sample interval; different shares stay separate bars.
    expect(pauseBars({ ...s, values: [30, 40, 0, 0, 0] }, 100)).toEqual([{ t0: 0, t1: 100, pct: 30 }, { t0: 100, t1: 200, pct: 40 }]);
  });

  it('pause bars past the budget: equal buckets keep the paused time (mean share, time-weighted)', () => {
    const n = 10_000;
    const t_ps = Array.from({ length: n }, (_, i) => (i + 1) * 10);
    const values = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 100 : 20)); // mean 60 %
    const bars = pauseBars({ name: 'p', kind: 'pause', unit: '%', entity: 'x', t_ps, values }, 10, 100);
    expect(bars).toHaveLength(100);
    for (const b of bars) expect(b.pct).toBeCloseTo(60, 6);
    const pausedPs = bars.reduce((a, b) => a + ((b.t1 - b.t0) * b.pct) / 100, 0);
    expect(pausedPs).toBeCloseTo(0.6 * n * 10, 3);
  });

  it('flow names: `src -> dst`, with the priority and then the id only where needed', () => {
    const f = (id: number, src: string, dst: string, priority: number) => ({ id, src, dst, priority, bytes_sent: 0, bytes_delivered: 0, start_ps: 0, fct_ps: null, throughput_bps: 0 });
    expect([...flowNames([f(0, 'lan', 'h3', 0), f(1, 'san', 'h3', 1), f(2, 'h0', 'h1', 3), f(3, 'h0', 'h1', 4), f(4, 'h0', 'h1', 4)]).values()]).toEqual([
      'lan -> h3', 'san -> h3', 'h0 -> h1 p3', 'h0 -> h1 p4 #3', 'h0 -> h1 p4 #4',
    ]);
  });

  it('time and value units follow the magnitudes', () => {
    expect(timeUnitFor(999_999).label).toBe('ns');
    expect(timeUnitFor(1e6).label).toBe('µs');
    expect(timeUnitFor(15e9).label).toBe('ms'); // 15 ms: one QCN timer period
    expect(timeUnitFor(2e12).label).toBe('s');
    expect(displayScale('bit/s', 10e9)).toEqual({ label: 'Gb/s', div: 1e9 });
    expect(displayScale('bit/s', 5e6)).toEqual({ label: 'Mb/s', div: 1e6 });
    expect(displayScale('B', 26000)).toEqual({ label: 'KB', div: 1e3 });
    expect(displayScale('frames', 5)).toEqual({ label: 'frames', div: 1 });
  });
});
