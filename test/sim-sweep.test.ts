// Sweeps (host/sweep/sweep.ts, host/report/sweep-report.ts) without the engine: parameter parsing, the
// grid order, worker threads that finish out of order, and the aggregate files. The worker here is
// a stand-in written to a temporary .mjs file; it derives a summary from the point's scenario.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../host/errors/errors.js';
import { parseXUnit, sweepCsv, sweepPlotSpec, writeSweep } from '../host/report/sweep-report.js';
import { expandGrid, parseParams, parseValue, pointMetrics, runSweep, withValue, workerCount } from '../host/sweep/sweep.js';
import { syntheticResult } from './fixtures/synthetic-result.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-sweep-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Completion order is the reverse of submission order: point i sleeps (12 - i) * 15 ms. The
// summary's one flow carries buffer * 1e9 bit/s so the row can be traced back to its point.
const workerFile = join(tmp, 'worker.mjs');
writeFileSync(
  workerFile,
  `export default async function ({ index, scenario }) {
    if (scenario.fail) throw new Error('boom');
    await new Promise((r) => setTimeout(r, Math.max(0, 12 - index) * 15));
    const bps = scenario.links[0].buffer * 1e9;
    return {
      scenario: { name: scenario.name, seed: 1, duration_ps: 1, sample_ps: 1 },
      sim: { packet_hops: 10 + index, events: 1, wall_s: Math.random(), packet_hops_per_s: Math.random() },
      drops: { lossless: scenario.mode === 'credit' ? 0 : index, lossy: 0, by_priority: [0, 0, 0, 0, 0, 0, 0, 0] },
      pfc: { xoff_sent: 0, xon_sent: 0, paused_ps_by_priority: [1, 2, 0, 0, 0, 0, 0, 0], pause_frames: 0 },
      qcn: { cnms: 0 },
      ets: { max_share_error_pp: null, per_tc: [] },
      fairness: { jain: null },
      flows: [{ id: 0, src: 'a', dst: 'b', priority: 3, bytes_sent: 1, bytes_delivered: 1, start_ps: 0, fct_ps: null, throughput_bps: bps, victim: true }],
      watchdog: [],
    };
  }\n`,
);
const base = { name: 'base', mode: 'pfc', links: [{ a: 'h0', b: 'sw0', buffer: 1 }] };

describe('sweep parameters', () => {
  it('parse values as numbers, booleans or strings', () => {
    expect(['1', '0.5', '-2e3', '.25', 'true', 'false', '100G', 'credit'].map(parseValue)).toEqual([1, 0.5, -2000, 0.25, true, false, '100G', 'credit']);
    const [p] = parseParams(['links[0].buffer=0.5,1,1.5']);
    expect(p).toEqual({ path: 'links[0].buffer', segments: ['links', 0, 'buffer'], values: [0.5, 1, 1.5] });
    expect(parseParams(['links.0.buffer=2'])[0].segments).toEqual(['links', 0, 'buffer']);
  });

  it('reject malformed parameters with one path: rule line each', () => {
    try {
      parseParams(['nobody', '=1', 'a..b=1', 'x=1,,2', 'x=3']);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).problems.map((p) => p.path)).toEqual(['--param[0]', '--param[1]', '--param[2]', '--param[3]']);
    }
    expect(() => parseParams(['a=1', 'a=2'])).toThrow(/swept twice/);
    expect(() => parseParams([])).toThrow(/at least one --param/);
  });

  it('set a value on a copy, and refuse paths whose parents do not exist', () => {
    const copy = withValue(base, ['links', 0, 'buffer'], 3) as typeof base;
    expect(copy.links[0].buffer).toBe(3);
    expect(base.links[0].buffer).toBe(1);
    expect(withValue(base, ['links', 1, 'buffer'], 3)).toBeNull();
    expect(withValue(base, ['links', 1], 3)).toBeNull(); // no appending to arrays
    expect(withValue(base, ['nothing', 'here'], 3)).toBeNull();
    expect(withValue(base, ['new_key'], 3)).toEqual({ ...base, new_key: 3 });
    expect(() => expandGrid(base, parseParams(['link.0.buffer=1']))).toThrow(/param\[0\]: "link.0.buffer" does not lead anywhere/);
  });

  it('expand the grid with the first parameter outermost', () => {
    const pts = expandGrid(base, parseParams(['mode=pfc,credit', 'links.0.buffer=1,2,3']));
    expect(pts.map((p) => [p.params.mode, p.params['links.0.buffer']])).toEqual([
      ['pfc', 1], ['pfc', 2], ['pfc', 3], ['credit', 1], ['credit', 2], ['credit', 3],
    ]);
    expect(pts.map((p) => p.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect((pts[4].scenario as typeof base).links[0].buffer).toBe(2);
    expect((pts[4].scenario as typeof base).mode).toBe('credit');
  });
});

describe('runSweep', () => {
  const params = parseParams(['mode=pfc,credit', 'links.0.buffer=0.5,1,2,3']);
  const points = expandGrid(base, params);

  it('returns rows in grid order although the workers finish in reverse', async () => {
    const out = await runSweep(points, { jobs: 2, workerFile, json: true });
    expect(out.jobs).toBe(2);
    expect(out.rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // The worker encodes buffer * 1e9 as the throughput: each row belongs to its own point.
    expect(out.rows.map((r) => r.metrics.throughput_bps)).toEqual([0.5e9, 1e9, 2e9, 3e9, 0.5e9, 1e9, 2e9, 3e9]);
    expect(out.rows.map((r) => r.metrics.drops_lossless)).toEqual([0, 1, 2, 3, 0, 0, 0, 0]);
    expect(out.rows[0].metrics.paused_ps).toBe(3);
    expect(out.rows[0].metrics.victim_bps).toBe(0.5e9);
  });

  it('writes identical aggregate files whatever the job count; only run.json differs', async () => {
    const one = await runSweep(points, { jobs: 1, workerFile, json: true });
    const two = await runSweep(points, { jobs: 2, workerFile, json: true });
    const files = await writeSweep(join(tmp, 'j1'), params, one, ['throughput_bps', 'drops_lossless']);
    await writeSweep(join(tmp, 'j2'), params, two, ['throughput_bps', 'drops_lossless']);
    expect(files).toEqual([
      'points/0.summary.json', 'points/1.summary.json', 'points/2.summary.json', 'points/3.summary.json',
      'points/4.summary.json', 'points/5.summary.json', 'points/6.summary.json', 'points/7.summary.json',
      'report.html', 'run.json', 'sweep-drops_lossless.svg', 'sweep-throughput_bps.svg', 'sweep.csv', 'sweep.json',
    ]);
    for (const f of files.filter((x) => x !== 'run.json')) {
      expect(readFileSync(join(tmp, 'j1', f), 'utf8'), f).toBe(readFileSync(join(tmp, 'j2', f), 'utf8'));
    }
    const csv = readFileSync(join(tmp, 'j1', 'sweep.csv'), 'utf8').split('\n');
    // The deprecated names (throughput_bps, xoff_sent) last, kept one release.
    expect(csv[0]).toBe('index,mode,links.0.buffer,goodput_bps,active_goodput_bps,min_flow_bps,victim_bps,delivered_bytes,drops_lossless,drops_lossy,xoff_episodes,xoff_frames,pause_frames,paused_ps,cnms,ets_max_share_error_pp,jain,watchdog_events,packet_hops,fct_median_ps,fct_p99_ps,max_fct_ps,mean_fct_ps,retransmitted_bytes,throughput_bps,xoff_sent');
    // The stand-in's summary is of the older form (xoff_sent only, no throughput block): episodes
    // and frames fall back to xoff_sent, the active goodput is empty.
    expect(csv[5]).toBe('4,credit,0.5,500000000,,500000000,500000000,1,0,0,0,0,0,3,0,,,0,14,,,,,0,500000000,0');
    const json = JSON.parse(readFileSync(join(tmp, 'j1', 'sweep.json'), 'utf8'));
    expect(json.params).toEqual([{ path: 'mode', values: ['pfc', 'credit'] }, { path: 'links.0.buffer', values: [0.5, 1, 2, 3] }]);
    expect(json.points[7]).toMatchObject({ index: 7, params: { mode: 'credit', 'links.0.buffer': 3 } });
    const svg = readFileSync(join(tmp, 'j1', 'sweep-throughput_bps.svg'), 'utf8');
    // x = the first parameter (mode), one line per value of the second.
    for (const label of ['links.0.buffer=0.5', 'links.0.buffer=3', 'throughput_bps (Gb/s)', '>pfc<', '>credit<']) expect(svg).toContain(label);
    const run = JSON.parse(readFileSync(join(tmp, 'j2', 'run.json'), 'utf8'));
    expect(run).toMatchObject({ jobs: 2, points: 8, packet_hops: 10 + 11 + 12 + 13 + 14 + 15 + 16 + 17 });
    // The stand-in reports random point times; concurrency is their sum over the sweep's wall time.
    expect(run.concurrency).toBeCloseTo(run.points_wall_s / run.wall_s, 9);
  });

  it('names the point when a worker fails', async () => {
    const bad = expandGrid({ ...base, fail: false }, parseParams(['fail=false,true']));
    await expect(runSweep(bad, { jobs: 2, workerFile, json: true })).rejects.toThrow(/sweep point 1 \(\{"fail":true\}\): boom/);
  });
});

describe('sweep metrics', () => {
  it('sum throughput over flows, pick the minimum and the victims', () => {
    const m = pointMetrics(syntheticResult(10).summary);
    expect(m.throughput_bps).toBe(3.992e9 + 4.0e9 + 8.0e8);
    expect(m.min_flow_bps).toBe(8.0e8);
    expect(m.victim_bps).toBe(8.0e8);
    expect(m.delivered_bytes).toBe(4_990_000 + 5_000_000 + 100_000);
    expect(m.paused_ps).toBe(150_000_000);
    expect(m.watchdog_events).toBe(2);
    // The one finished sized flow completed in 900 us; nothing was retransmitted.
    expect(m.max_fct_ps).toBe(900_000_000);
    // goodput, no active window (the synthetic summary has no throughput block), min, victim, delivered,
    // drops 0/12, episodes 2 of 3 XOFF, ..., FCT median = p99 = max = mean of the one message, 0 resent,
    // then the deprecated throughput_bps and xoff_sent with the values of goodput_bps and xoff_frames.
    expect(sweepCsv([], [{ index: 0, params: {}, metrics: m }]).split('\n')[1]).toBe('0,8792000000,,800000000,800000000,10090000,0,12,2,3,6,150000000,41,0.42,0.9987,2,123456,900000000,900000000,900000000,900000000,0,8792000000,3');
  });
});

describe('sweep plots', () => {
  const params = parseParams(['links.0.buffer=12500,25000', 'mode=pfc,credit']);
  const rows = (drops: number[]) => expandGrid(base, params).map((p, i) => ({
    index: p.index,
    params: p.params,
    metrics: { ...pointMetrics(syntheticResult(10).summary), drops_lossless: drops[i] },
  }));
  type Spec = { data: { values: { x: number; line: string; loss: string }[] }; layer?: { mark: { type: string }; encoding?: { shape?: { scale: { range: string[] } } } }[]; mark?: unknown };

  it('draw one line per value of the other parameters; without lost frames, no loss marks', () => {
    const spec = sweepPlotSpec(params, rows([0, 0, 0, 0]), 'min_flow_bps') as unknown as Spec;
    expect(spec.layer).toBeUndefined();
    expect(spec.mark).toEqual({ type: 'line', point: true });
    expect(spec.data.values.map((d) => [d.x, d.line])).toEqual([[12500, 'mode=pfc'], [12500, 'mode=credit'], [25000, 'mode=pfc'], [25000, 'mode=credit']]);
  });

  it('mark the points that lost frames of a lossless priority with a cross', () => {
    const spec = sweepPlotSpec(params, rows([3, 0, 0, 0]), 'min_flow_bps') as unknown as Spec;
    expect(spec.layer!.map((l) => l.mark.type)).toEqual(['line', 'point']);
    expect(spec.layer![1].encoding!.shape!.scale.range).toEqual(['circle', 'cross']);
    expect(spec.data.values.map((d) => d.loss)).toEqual(['lossless frames dropped', 'no frame lost', 'no frame lost', 'no frame lost']);
  });

  it('--x-unit: x values in units of SIZE, named on the axis; bad forms and non-numeric x refused', async () => {
    const unit = parseXUnit('BDP=25000');
    expect(unit).toEqual({ label: 'BDP', per: 25000 });
    const spec = sweepPlotSpec(params, rows([0, 0, 0, 0]), 'min_flow_bps', unit) as unknown as Spec & { encoding: { x: { title: string } } };
    expect(spec.data.values.map((d) => d.x)).toEqual([0.5, 0.5, 1, 1]);
    expect(spec.encoding.x.title).toBe('links.0.buffer (BDP, 1 BDP = 25000)');
    for (const bad of ['BDP', '=25000', 'BDP=0', 'BDP=-1', 'BDP=x']) expect(() => parseXUnit(bad), bad).toThrow(/^--x-unit: .* LABEL=SIZE/);
    expect(() => sweepPlotSpec(parseParams(['mode=pfc,credit']), [], 'min_flow_bps', unit)).toThrow(/x-unit: .*not numbers/);
  });
});

describe('worker count', () => {
  it('never exceeds the points nor the cores, and says why a request was cut', () => {
    expect(workerCount(undefined, 10, 4)).toEqual({ jobs: 4 });
    expect(workerCount(undefined, 3, 4)).toEqual({ jobs: 3 });
    expect(workerCount(2, 10, 4)).toEqual({ jobs: 2 });
    expect(workerCount(100, 10, 4)).toEqual({ jobs: 4, cap: { requested: 100, used: 4, reason: 'the machine runs 4 threads at once (os.availableParallelism())' } });
    expect(workerCount(100, 3, 4)).toEqual({ jobs: 3, cap: { requested: 100, used: 3, reason: 'the sweep has 3 points' } });
    expect(workerCount(8, 1, 1).cap?.used).toBe(1);
    for (let req = 1; req <= 40; req += 3) for (let pts = 1; pts <= 12; pts++) {
      const { jobs } = workerCount(req, pts, 6);
      expect(jobs).toBe(Math.min(req, pts, 6));
    }
  });
});
