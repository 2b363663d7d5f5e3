// Metrics that say what they count and reports that answer the question (docs/reports.md,
// "Glossary" and "How to read the plots"), on real runs of examples/lossy-vs-lossless and a
// hand-made pause scenario. Every expected figure is derived from the run's own summary, never
// written in, so a change of the fabric's timing changes the numbers but not these checks.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkScenario, readScenarioFile } from '../host/scenario/scenario.js';
import { runScenario } from '../host/sim/run.js';
import { reportFiles, reportHtml, TABLE_HEAD_ROWS } from '../host/report/report.js';
import { plotWindow } from '../host/report/plots.js';
import { humanBytes, humanRate, humanTime } from '../host/report/completion.js';
import type { SimFlowResult, SimResult, SimSummary } from '../host/sim/result.js';
import { syntheticResult } from './fixtures/synthetic-result.js';
import { requireTool, runCli } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-completion-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const EXAMPLE = join('examples', 'lossy-vs-lossless', 'scenario.yaml');

/** The example with priority 3 lossless (as written) or lossy. */
function example(mode: 'pfc' | 'lossy'): unknown {
  const doc = readScenarioFile(EXAMPLE) as { flow_control: string[] };
  return { ...doc, flow_control: doc.flow_control.map((m, p) => (p === 3 ? mode : m)) };
}

/** Nearest rank, written here again rather than imported: the value at rank ceil(q n) of the sorted values. */
const rank = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.ceil(q * xs.length) - 1];

/** Rows of the first <table> after `marker`, as arrays of cell texts (tags removed, entities decoded). */
function tableAfter(html: string, marker: string): string[][] {
  const from = html.indexOf(marker);
  expect(from, marker).toBeGreaterThanOrEqual(0);
  const body = html.slice(html.indexOf('<tbody>', from), html.indexOf('</tbody>', from));
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => [...m[1].matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1].replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&')));
}

const runs = new Map<string, { result: SimResult; files: Map<string, string> }>();
beforeAll(async () => {
  for (const mode of ['pfc', 'lossy'] as const) {
    const result = runScenario(checkScenario(example(mode)));
    runs.set(mode, { result, files: await reportFiles(result) });
  }
}, 180_000);
const summaryOf = (mode: string): SimSummary => runs.get(mode)!.result.summary;
const htmlOf = (mode: string): string => runs.get(mode)!.files.get('report.html')!;

describe('summary fields count what their names say', () => {
  it('link wire bytes: control frames are counted apart, and on a PFC-only fabric they are the PFC frames', () => {
    const s = summaryOf('pfc');
    const d = s.scenario.duration_ps;
    // Every control frame here is a PFC frame (no QCN, no credit): 64 B + 20 B on the wire each, and every one is received.
    const controlFrames = s.throughput!.links.reduce((a, l) => a + (l.control_wire_bps * d) / 8e12 / 84, 0);
    expect(s.pfc.pause_frames).toBeGreaterThan(0);
    expect(Math.abs(controlFrames - s.pfc.pause_frames)).toBeLessThan(s.throughput!.links.length); // per-link rounding of bit/s
    expect(Math.abs(controlFrames - (s.pfc.xoff_frames + s.pfc.xon_sent))).toBeLessThan(s.throughput!.links.length);
    for (const l of s.throughput!.links) {
      expect(Math.abs(l.wire_bps - (l.data_wire_bps + l.control_wire_bps))).toBeLessThanOrEqual(1); // each rounded to a whole bit/s
      expect(Math.abs(l.utilisation_pct - (100 * l.wire_bps) / l.rate_bps)).toBeLessThan(0.001);
      expect(l.sent_bps).toBe(l.data_wire_bps); // the deprecated name, one release
    }
  });

  it('goodput: payload delivered over the run and over the active window; total_bps is its old name', () => {
    const s = summaryOf('pfc');
    const t = s.throughput!;
    const delivered = s.flows.reduce((a, f) => a + f.bytes_delivered, 0);
    expect(t.goodput_bps).toBe(Math.round((delivered * 8e12) / s.scenario.duration_ps));
    expect(t.total_bps).toBe(t.goodput_bps);
    const lastDone = Math.max(...s.flows.map((f) => f.start_ps + f.fct_ps!));
    expect(t.active_to_ps).toBe(lastDone);
    expect(t.active_from_ps).toBe(Math.min(...s.flows.map((f) => f.start_ps)));
    expect(t.active_goodput_bps).toBe(Math.round((delivered * 8e12) / (t.active_to_ps - t.active_from_ps)));
    // The bottleneck toward h0 was saturated while the messages ran, though idle for most of the run.
    const bottleneck = t.links.find((l) => l.port === 'sw0>h0')!;
    expect(bottleneck.active_utilisation_pct).toBeGreaterThan(95);
    expect(bottleneck.utilisation_pct).toBeLessThan(bottleneck.active_utilisation_pct / 2);
  });

  it('XOFF: episodes are XOFF frames minus refreshes, so a long pause counts once however often it is refreshed', () => {
    // One host (h1) sends at line rate into a switch whose port toward h0 runs at a tenth of that,
    // with a pause time short enough (40 quanta, refresh every 20) that each pause is refreshed.
    const doc = {
      name: 'refresh', seed: 1, duration: '200us', sample: '10us', flow_control: ['lossy', 'lossy', 'lossy', 'pfc', 'lossy', 'lossy', 'lossy', 'lossy'],
      defaults: { link: { speed: '100G', cable: '2m' }, buffer: { size: '4MB', headroom: 'auto' }, dcb: { pfc: { pause_time: 40 } } },
      hosts: [{ name: 'h0' }, { name: 'h1' }], switches: [{ name: 'sw0' }],
      links: [{ a: 'h0', b: 'sw0', speed: '10G' }, { a: 'h1', b: 'sw0' }],
      traffic: { flows: [{ src: 'h1', dst: 'h0', priority: 3, frames: 1500, rate: '100G' }] },
    };
    const s = runScenario(checkScenario(doc)).summary;
    expect(s.drops.lossless).toBe(0);
    expect(s.pfc.xoff_frames).toBeGreaterThan(s.pfc.xoff_episodes); // refreshes happened
    expect(s.pfc.xoff_episodes).toBeGreaterThan(0);
    // Each episode ends with one XON, except those still open at the end (one priority of one port here).
    expect(s.pfc.xoff_episodes - s.pfc.xon_sent).toBeGreaterThanOrEqual(0);
    expect(s.pfc.xoff_episodes - s.pfc.xon_sent).toBeLessThanOrEqual(1);
    expect(s.pfc.xoff_sent).toBe(s.pfc.xoff_frames);
  });

  it('run.json lists the deprecated names and their replacements', () => {
    const run = JSON.parse(runs.get('pfc')!.files.get('run.json')!);
    expect(run.deprecated.fields).toEqual({
      'pfc.xoff_sent': 'pfc.xoff_frames', 'throughput.total_bps': 'throughput.goodput_bps', 'throughput.links[].sent_bps': 'throughput.links[].data_wire_bps',
    });
  });
});

describe('report.html leads with completion when flows are messages', () => {
  it('the completion lead and section come before the overview, with FCT percentiles of the summary', () => {
    for (const mode of ['pfc', 'lossy']) {
      const html = htmlOf(mode);
      const s = summaryOf(mode);
      const fcts = s.flows.map((f) => f.fct_ps!);
      expect(html.indexOf('<p class="lead">')).toBeLessThan(html.indexOf('<h2>Completion</h2>'));
      expect(html.indexOf('<h2>Completion</h2>')).toBeLessThan(html.indexOf('<h2>Overview</h2>'));
      const lead = html.slice(html.indexOf('<p class="lead">'), html.indexOf('</p>', html.indexOf('<p class="lead">')));
      expect(lead).toContain(`<b>${s.flows.length} of ${s.flows.length} messages completed</b>`);
      for (const q of [0.5, 0.99, 1]) expect(lead).toContain(`<b>${humanTime(rank(fcts, q))}</b>`);
      expect(lead).toContain(`${humanBytes(s.flows.reduce((a, f) => a + f.retransmitted_bytes!, 0))} resent`);
      expect(lead).toContain(`${s.pfc.xoff_episodes.toLocaleString('en-US')} pause episode`);
      // The CDF and the per-message chart open the section.
      const section = html.slice(html.indexOf('<h2>Completion</h2>'), html.indexOf('<h2>Overview</h2>'));
      expect(section).toMatch(/<figure id="fct-cdf\.svg">\s*<svg/);
      expect(section).toMatch(/<figure id="fct\.svg">\s*<svg/);
    }
  });

  it('the per-message table is sorted slowest first, in human units, with slowdown and goodput over the FCT', () => {
    const s = summaryOf('lossy');
    const rows = tableAfter(htmlOf('lossy'), '<h2>Completion</h2>');
    expect(rows).toHaveLength(s.flows.length);
    const bySlowest = [...s.flows].sort((a, b) => b.fct_ps! - a.fct_ps! || a.id - b.id);
    rows.forEach((r, i) => {
      const f = bySlowest[i];
      expect(r[0]).toBe(`${f.src} -> ${f.dst}`);
      expect(r[3]).toBe(humanTime(f.fct_ps!));
      expect(r[4]).toBe(String(Number(f.slowdown!.toPrecision(4))));
      expect(r[5]).toBe(humanRate(f.goodput_bps!));
      expect(r[6]).toBe(humanBytes(f.retransmitted_bytes!));
    });
  });

  it('no raw picoseconds anywhere: times in the page and on the FCT axes are in ms or µs', () => {
    for (const mode of ['pfc', 'lossy']) {
      const html = htmlOf(mode);
      const text = html.replace(/<svg[\s\S]*?<\/svg>/g, '').replace(/<[^>]+>/g, ' ');
      expect(text).not.toMatch(/\d{7,}/); // no number of seven or more digits (picoseconds, bytes)
      expect(text).not.toMatch(/\d ps\b/);
      const cdf = runs.get(mode)!.files.get('fct-cdf.svg')!;
      expect(cdf).toMatch(/>FCT \((ms|µs)\)</);
    }
  });

  it('time axes end with the active window, not the run: the incast is over long before 20 ms', () => {
    const { result, files } = runs.get('pfc')!;
    const s = result.summary;
    const end = plotWindow(result).endPs;
    expect(end).toBeGreaterThanOrEqual(s.throughput!.active_to_ps);
    expect(end).toBeLessThan(s.scenario.duration_ps / 2);
    const ticks = [...files.get('queue.svg')!.matchAll(/<text[^>]*>([0-9.]+)<\/text>/g)].map((m) => Number(m[1]));
    expect(ticks.length).toBeGreaterThan(0);
    expect(files.get('queue.svg')).toMatch(/>time \(ms\)</);
    expect(htmlOf('pfc')).toContain(`Time axes show the active window, 0 – ${humanTime(end)} of the ${humanTime(s.scenario.duration_ps)} run`);
  });
});

describe('long tables are sorted by what matters, after the plots, and fold', () => {
  it('link rows: most traffic first, after the plots; beyond the first rows the rest folds into <details>', () => {
    const r = syntheticResult(20);
    const links = Array.from({ length: TABLE_HEAD_ROWS + 7 }, (_, i) => {
      const wire = ((i * 7919) % 97) * 1e8;
      return {
        port: `sw${i}>h${i}`, rate_bps: 100e9, sent_bps: wire, data_wire_bps: wire, control_wire_bps: 0, wire_bps: wire,
        utilisation_pct: wire / 1e9, active_from_ps: 0, active_to_ps: 1e6, active_utilisation_pct: wire / 1e9,
      };
    });
    r.summary.throughput = { goodput_bps: 1e9, active_from_ps: 0, active_to_ps: 1e6, active_goodput_bps: 1e9, links };
    const html = reportHtml(r, new Map([['queue.svg', '<svg></svg>']]));
    expect(html.indexOf('<h2>Plots</h2>')).toBeLessThan(html.indexOf('<h2>Link utilisation</h2>'));
    const section = html.slice(html.indexOf('<h2>Link utilisation</h2>'), html.indexOf('<h2>Flows</h2>'));
    const shown = tableAfter(section, '<table>');
    expect(shown).toHaveLength(TABLE_HEAD_ROWS);
    const folded = tableAfter(section, '<details>');
    expect(folded).toHaveLength(7);
    const order = [...shown, ...folded].map((row) => row[0]);
    expect(order).toEqual([...links].sort((a, b) => b.wire_bps - a.wire_bps).map((l) => l.port));
  });

  it('a run without messages has no completion section', () => {
    const r = syntheticResult(20);
    r.summary.flows = r.summary.flows.map((f): SimFlowResult => ({ ...f, fct_ps: null }));
    const html = reportHtml(r, new Map());
    expect(html).not.toContain('<h2>Completion</h2>');
    expect(html).not.toContain('<p class="lead">');
  });
});

describe('sweep --out writes report.html', () => {
  const out = join(tmp, 'sweep');
  let sweep: ReturnType<typeof runCli>;
  beforeAll(() => {
    sweep = runCli(['sweep', EXAMPLE, '--param', 'flow_control.3=pfc,lossy', '--metric', 'max_fct_ps,retransmitted_bytes', '--jobs', '1', '--out', out]);
  }, 300_000);

  it('--metric takes a list: both plots written', () => {
    expect(sweep.status, sweep.stderr).toBe(0);
    const files = readdirSync(out);
    for (const f of ['report.html', 'sweep-max_fct_ps.svg', 'sweep-retransmitted_bytes.svg', 'sweep-fct.svg']) expect(files).toContain(f);
    // The FCT axis of the metric plot is in ms, not picoseconds up to 8,000,000,000.
    expect(readFileSync(join(out, 'sweep-max_fct_ps.svg'), 'utf8')).toMatch(/>max_fct_ps \((ms|µs)\)</);
    const bad = runCli(['sweep', EXAMPLE, '--param', 'seed=1', '--metric', 'max_fct_ps,nonsense']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--metric: unknown metric "nonsense"');
  });

  it('one row per point with drops, resent bytes, pause episodes, FCT median / p99 / max and goodput, from the points\' summaries', () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const head = html.slice(html.indexOf('<table id="points">'), html.indexOf('</thead>'));
    const headers = [...head.matchAll(/<th>(.*?)<\/th>/g)].map((m) => m[1]);
    expect(headers).toEqual(['#', 'flow_control.3', 'FCT median', 'FCT p99', 'FCT max', 'goodput (active window)', 'drops lossless', 'drops lossy', 'resent', 'pause episodes', 'XOFF frames']);
    const rows = tableAfter(html, '<table id="points">');
    expect(rows).toHaveLength(2);
    const points = readdirSync(join(out, 'points')).sort().map((f) => JSON.parse(readFileSync(join(out, 'points', f), 'utf8')) as SimSummary);
    rows.forEach((r, i) => {
      const s = points[i];
      const fcts = s.flows.map((f) => f.fct_ps!);
      expect(r.slice(0, 2)).toEqual([String(i), ['pfc', 'lossy'][i]]);
      expect(r.slice(2, 5)).toEqual([humanTime(rank(fcts, 0.5)), humanTime(rank(fcts, 0.99)), humanTime(Math.max(...fcts))]);
      expect(r[5]).toBe(humanRate(s.throughput!.active_goodput_bps));
      expect(r[6]).toBe(s.drops.lossless.toLocaleString('en-US'));
      expect(r[7]).toBe(s.drops.lossy.toLocaleString('en-US'));
      expect(r[8]).toBe(humanBytes(s.flows.reduce((a, f) => a + f.retransmitted_bytes!, 0)));
      expect(r[9]).toBe(s.pfc.xoff_episodes.toLocaleString('en-US'));
    });
    // The lead names the point with the shortest tail first.
    const tails = points.map((s) => Math.max(...s.flows.map((f) => f.fct_ps!)));
    const best = tails.indexOf(Math.min(...tails));
    expect(html).toMatch(new RegExp(`<b>Best</b> point ${best} \\(flow_control\\.3=${['pfc', 'lossy'][best]}\\)`));
    expect(html.indexOf('<p class="lead">')).toBeLessThan(html.indexOf('<table id="points">'));
    const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'));
    expect(run.deprecated.metrics).toEqual({ throughput_bps: 'goodput_bps', xoff_sent: 'xoff_frames' });
  });

  it('renders in headless Chromium without console messages', () => {
    const chromium = requireTool('chromium');
    const profile = mkdtempSync(join(tmp, 'profile-'));
    const png = join(tmp, 'sweep.png');
    const r = spawnSync(chromium, [
      '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`, '--enable-logging=stderr', '--v=0',
      '--window-size=1400,1000', `--screenshot=${png}`, `file://${join(out, 'report.html')}`,
    ], { encoding: 'utf8', timeout: 90_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/:CONSOLE:/);
    expect(readFileSync(png).length).toBeGreaterThan(30_000);
  }, 120_000);
});
