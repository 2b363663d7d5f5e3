// The report of real runs (issue 10, "Wrong numbers" and "Report"): plots that say what the CSV
// says, names people read, and a page that renders in headless Chromium with no console error.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkScenario, readScenarioFile } from '../host/scenario/scenario.js';
import { runScenario } from '../host/sim/run.js';
import { grouped, reportFiles, writeReport } from '../host/report/report.js';
import { humanRate } from '../host/report/completion.js';
import { sweepPlotSpec } from '../host/report/sweep-report.js';
import type { SimResult } from '../host/sim/result.js';
import { requireTool } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-render-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const runs = new Map<string, { result: SimResult; files: Map<string, string> }>();
beforeAll(async () => {
  for (const name of ['converged-link', 'qcn-hotspot']) {
    // Nominal clocks (docs/sim.md "Timing"): the figures below are the ones exact timing gives.
    const result = runScenario(checkScenario({ ...(readScenarioFile(join('examples', name, 'scenario.yaml')) as object), timing: 'ideal' }));
    runs.set(name, { result, files: await reportFiles(result) });
  }
}, 120_000);
const file = (run: string, name: string) => runs.get(run)!.files.get(name)!;
/** Text of every <text> element of an SVG, unescaped. */
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&'));

describe('plots say what the data says', () => {
  it('pause.svg shades each interval by its paused share: partly paused intervals are not drawn solid', () => {
    const { result } = runs.get('converged-link')!;
    const san = result.series.find((s) => s.name === 'paused san>sw0 p1')!;
    const partial = san.values.filter((v) => v > 0 && v < 100);
    expect(partial.length).toBeGreaterThan(10); // the CSV says partly paused (about 60 % per interval)
    const opacities = [...file('converged-link', 'pause.svg').matchAll(/<path[^>]*opacity="([0-9.]+)"/g)].map((m) => Number(m[1]));
    const marks = opacities.filter((o) => o < 1);
    expect(marks.length).toBeGreaterThanOrEqual(10);
    // Opacity = 0.08 + 0.92 x share: the shares drawn are the CSV's shares.
    const drawnShares = new Set(marks.map((o) => Math.round((o - 0.08) / 0.0092)));
    for (const v of partial.slice(0, 20)) expect(drawnShares.has(Math.round(v))).toBe(true);
  });

  it('queue.svg has one line per (port, TC); legends and the flow plot name flows `lan -> h3`', () => {
    const q = texts(file('converged-link', 'queue.svg'));
    for (const tc of [0, 1, 2]) expect(q).toContain(`queue sw0>h3 TC${tc}`);
    expect(q).not.toContain('queue sw0>h3');
    for (const plot of ['throughput.svg', 'flows.svg']) {
      const t = texts(file('converged-link', plot));
      for (const name of ['lan -> h3', 'san -> h3', 'ipc -> h3']) expect(t).toContain(name);
      expect(t.some((x) => /flow \d/.test(x))).toBe(false);
    }
  });

  it('the rate plot has one panel per flow pairing current and target rate', () => {
    const t = texts(file('qcn-hotspot', 'rate.svg'));
    for (const h of ['h0', 'h1', 'h2', 'h3']) expect(t.filter((x) => x === `${h} -> h4`)).toHaveLength(1);
    expect(t).toContain('current rate');
    expect(t).toContain('target rate');
    expect(t.filter((x) => x === 'Gb/s')).toHaveLength(4); // one y axis per panel
  });

  it('a run where nothing paused has no pause chart but a sentence saying so', () => {
    const { result, files } = runs.get('qcn-hotspot')!;
    expect(result.series.some((s) => s.kind === 'pause')).toBe(true);
    expect(result.series.filter((s) => s.kind === 'pause').every((s) => s.values.every((v) => v === 0))).toBe(true);
    expect(files.has('pause.svg')).toBe(false);
    expect(files.get('report.html')).toContain('No recorded port was paused during the run, so there is no pause chart.');
    expect(runs.get('converged-link')!.files.get('report.html')).not.toContain('No recorded port was paused');
  });

  it('the overview shows goodput and the busiest link; counts have units and digit grouping', () => {
    const html = file('converged-link', 'report.html');
    const s = runs.get('converged-link')!.result.summary;
    expect(html).toContain(`<tr><td>goodput, all flows (payload delivered in order, per second of run)</td><td>${humanRate(s.throughput!.goodput_bps)}</td></tr>`);
    expect(html).toMatch(/<tr><td>busiest link \(busy share of its active window; run average\)<\/td><td>[^<]+: [0-9.]+ % busy over its active [0-9.]+ ms at 10 Gb\/s; [0-9.]+ % averaged over the run<\/td><\/tr>/);
    expect(html).toContain(`<tr><td>drops on lossy priorities</td><td>${grouped(s.drops.lossy)} frames</td></tr>`);
    expect(s.drops.lossy).toBeGreaterThan(999); // so the grouping is exercised
    expect(html).toContain('<tr><td>drops on lossless priorities</td><td>0 frames</td></tr>');
    expect(html).toMatch(/<tr><td>packet hops<\/td><td>\d{1,3}(,\d{3})+<\/td><\/tr>/);
    // port, rate, busy over its active window, the window, run average, data and control wire rates
    expect(html).toMatch(/<tr><td>sw0&gt;h3<\/td><td>10 Gb\/s<\/td><td>(99\.\d+|100) %<\/td><td>[^<]+ – [^<]+<\/td><td>[0-9.]+ %<\/td><td>[0-9.]+ Gb\/s<\/td><td>[^<]+<\/td><\/tr>/);
  });

  it('a sweep over integer seeds gets integer ticks only', () => {
    const rows = [1, 2, 3].map((seed, index) => ({ index, params: { seed }, metrics: { throughput_bps: 1e9 * seed, drops_lossless: 0 } as never }));
    const spec = sweepPlotSpec([{ path: 'seed', values: [1, 2, 3] }], rows, 'throughput_bps') as unknown as { encoding: { x: { axis?: { tickMinStep: number; format: string } } } };
    expect(spec.encoding.x.axis).toEqual({ tickMinStep: 1, format: 'd' });
    const dec = sweepPlotSpec([{ path: 'x', values: [0.5, 1] }], rows.slice(0, 2).map((r, i) => ({ ...r, params: { x: [0.5, 1][i] } })), 'throughput_bps') as unknown as { encoding: { x: { axis?: unknown } } };
    expect(dec.encoding.x.axis).toBeUndefined();
  });
});

describe('report.html in headless Chromium', () => {
  const chromium = requireTool('chromium');
  const browse = (url: string, extra: string[]) => {
    const profile = mkdtempSync(join(tmp, 'profile-'));
    return spawnSync(chromium, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', `--user-data-dir=${profile}`, '--enable-logging=stderr', '--v=0', ...extra, url,
    ], { encoding: 'utf8', timeout: 90_000, maxBuffer: 64 * 1024 * 1024 });
  };

  it('finds console errors when there are some (the check can fail)', () => {
    const bad = join(tmp, 'bad.html');
    writeFileSync(bad, '<!DOCTYPE html><html><body><script>console.error("boom")</script></body></html>');
    expect(browse(`file://${bad}`, ['--dump-dom']).stderr).toMatch(/:CONSOLE:.*"boom"/);
  }, 120_000);

  it('renders the converged-link report with every plot inline and no console message; screenshot taken', async () => {
    const dir = join(tmp, 'converged-link');
    await writeReport(runs.get('converged-link')!.result, dir);
    const url = `file://${join(dir, 'report.html')}`;
    const dom = browse(url, ['--dump-dom']);
    expect(dom.status, dom.stderr).toBe(0);
    expect(dom.stderr).not.toMatch(/:CONSOLE:/);
    for (const plot of ['queue.svg', 'pause.svg', 'throughput.svg', 'ets.svg', 'flows.svg']) {
      expect(dom.stdout).toMatch(new RegExp(`<figure id="${plot.replace('.', '\\.')}">\\s*<svg`));
    }
    expect(dom.stdout.match(/<svg/g)!.length).toBe(5);
    const png = join(tmp, 'report.png');
    const shot = browse(url, ['--window-size=1200,4000', `--screenshot=${png}`]);
    expect(shot.status, shot.stderr).toBe(0);
    expect(statSync(png).size).toBeGreaterThan(50_000); // a page of tables and charts, not a blank one
  }, 240_000);
});
