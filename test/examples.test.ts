// The examples/ scenarios, run in-process on the engine, each checked against the outcome its
// README promises. Expected figures: a 10 Gb/s link carries 1518-byte frames as 1538 bytes on the
// wire, so its payload rate is 10 x 1518 / 1538 = 9.870 Gb/s.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import type { SimResult, SimSeries } from '../host/sim/result.js';
import { runScenario } from '../host/sim/run.js';
import { checkScenario, readScenarioFile } from '../host/scenario/scenario.js';
import { expandGrid, parseParams, pointMetrics } from '../host/sweep/sweep.js';

const PAYLOAD_10G = (10 * 1518) / 1538; // Gb/s

function runExample(file: string, edit?: (doc: Record<string, unknown>) => void): SimResult {
  const doc = readScenarioFile(join(packageRoot(), 'examples', file)) as Record<string, unknown>;
  edit?.(doc);
  return runScenario(checkScenario(doc));
}

function series(r: SimResult, name: string): SimSeries {
  const s = r.series.find((x) => x.name === name);
  if (!s) throw new Error(`no series "${name}" (have: ${r.series.map((x) => x.name).join(', ')})`);
  return s;
}

/** Mean of the samples whose interval ends in (fromPs, toPs]. */
function meanOver(s: SimSeries, fromPs: number, toPs: number): number {
  const v = s.values.filter((_, i) => s.t_ps[i] > fromPs && s.t_ps[i] <= toPs);
  return v.reduce((a, b) => a + b, 0) / v.length;
}

/** Value of a series at the last sample at or before tPs. */
function at(s: SimSeries, tPs: number): number {
  let v = s.values[0];
  for (let i = 0; i < s.t_ps.length && s.t_ps[i] <= tPs; i++) v = s.values[i];
  return v;
}

const ms = 1e9;
const us = 1e6;

describe('examples/sim-tiny (the README quick start)', () => {
  const s = runExample('sim-tiny/scenario.yaml').summary;

  it('a 2:1 incast on a lossless priority: no drops, pauses, the bottleneck split evenly', () => {
    expect(s.drops.lossless).toBe(0);
    expect(s.pfc.xoff_frames).toBeGreaterThan(0);
    expect(s.pfc.paused_ps_by_priority[3]).toBeGreaterThan(0);
    // 100 Gb/s of wire shared by two flows of 1500 B frames: 50 x 1500/1520 = 49.3 Gb/s of payload each.
    for (const f of s.flows) expect(f.throughput_bps / 1e9).toBeCloseTo(49.3, 0);
    expect(s.fairness.jain).toBeGreaterThan(0.999);
  });
});

describe('examples/converged-link (Reinemo et al. 2010, Table 1)', () => {
  const r = runExample('converged-link/scenario.yaml');
  const s = r.summary;

  it('shares the saturated link 40/40/20 within 1 percentage point, without loss on SAN', () => {
    expect(s.drops.lossless).toBe(0);
    expect(s.ets.max_share_error_pp).not.toBeNull();
    expect(s.ets.max_share_error_pp!).toBeLessThan(1);
    const port = s.ets.per_tc.filter((x) => x.port === 'sw0>h3');
    expect(port.map((x) => [x.tc, x.configured_pct])).toEqual([[0, 40], [1, 40], [2, 20]]);
    for (const x of port) expect(Math.abs(x.measured_pct - x.configured_pct)).toBeLessThan(1);
    // While all three send (0.5-3 ms): IPC at 20 % of the payload rate, 1.974 Gb/s.
    expect(meanOver(series(r, 'throughput flow 2'), 0.5 * ms, 3 * ms)).toBeCloseTo(0.2 * PAYLOAD_10G, 1);
  });

  it('is work-conserving: with IPC idle, LAN and SAN take its share and the link stays full', () => {
    // IPC stops at 3 ms; by 4 ms its 150 KB queue has drained. Each of LAN and SAN then gets half.
    for (const f of [0, 1]) expect(meanOver(series(r, `throughput flow ${f}`), 4 * ms, 6 * ms)).toBeCloseTo(PAYLOAD_10G / 2, 1);
    const deliveredGbps = (s.flows.reduce((a, f) => a + f.bytes_delivered, 0) * 8) / (6 * ms) * 1e3;
    expect(deliveredGbps).toBeGreaterThan(0.99 * PAYLOAD_10G);
  });
});

describe('examples/pause-vs-pfc (Reinemo et al. 2010, Figure 1)', () => {
  it('PFC pauses only the congested priority, 802.3x PAUSE pauses every priority', () => {
    const pfcRun = runExample('pause-vs-pfc/scenario.yaml');
    const pauseRun = runExample('pause-vs-pfc/pause.yaml');
    const pfc = pfcRun.summary;
    const pause = pauseRun.summary;
    for (const r of [pfcRun, pauseRun]) {
      expect(r.summary.drops.lossless).toBe(0);
      // h0's link, which carries both priorities, is paused on priority 3 in both runs.
      expect(Math.max(...series(r, 'paused h0>sw0 p3').values)).toBeGreaterThan(0);
    }
    const p0 = (r: typeof pfcRun) => r.summary.flows.find((f) => f.priority === 0)!.throughput_bps;
    const h0p3 = (r: typeof pfcRun) => r.summary.flows.find((f) => f.priority === 3 && f.src === 'h0')!.throughput_bps;
    // PFC: priority 0 gets its 4 Gb/s of wire (4 x 1518/1538 = 3.948 Gb/s of payload).
    expect(p0(pfcRun) / 1e9).toBeGreaterThan(0.99 * 4 * (1518 / 1538));
    // PAUSE: the whole link waits for priority 3 to drain at its quarter of h2's link, and h0's ETS
    // gives priority 0 no more sending time than priority 3: priority 0 falls to priority 3's rate.
    expect(p0(pauseRun)).toBeLessThan(0.7 * p0(pfcRun));
    expect(Math.abs(p0(pauseRun) / h0p3(pauseRun) - 1)).toBeLessThan(0.05);
    const p = pfc.pfc.paused_ps_by_priority;
    expect(p[3]).toBeGreaterThan(0);
    expect(p.filter((_, i) => i !== 3)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    const q = pause.pfc.paused_ps_by_priority;
    expect(q[0]).toBeGreaterThan(0);
    expect(new Set(q).size).toBe(1); // every priority paused for exactly the same time
    // Per (port, priority) series: under PFC h0's link has a pause series for priority 3 only (the
    // one PFC priority); under PAUSE one per priority, all identical, priority 0 paused with 3.
    expect(pfcRun.series.filter((s) => s.kind === 'pause' && s.entity === 'h0>sw0').map((s) => s.priority)).toEqual([3]);
    const pauseH0 = pauseRun.series.filter((s) => s.kind === 'pause' && s.entity === 'h0>sw0');
    expect(pauseH0.map((s) => s.priority)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const s of pauseH0) expect(s.values).toEqual(series(pauseRun, 'paused h0>sw0 p0').values);
    // The per-port table sums to the per-priority totals; sw0>h3 (h3 never sends a pause) is absent.
    for (const r of [pfc, pause]) {
      const byPort = r.pfc.paused_ps_by_port!;
      for (let pr = 0; pr < 8; pr++) expect(byPort.reduce((a, x) => a + x.paused_ps_by_priority[pr], 0)).toBe(r.pfc.paused_ps_by_priority[pr]);
      expect(byPort.map((x) => x.port)).toContain('h0>sw0');
      expect(byPort.map((x) => x.port)).not.toContain('sw0>h3');
    }
  });
});

describe('examples/qcn-hotspot (Reinemo et al. 2010, Figure 3)', () => {
  const r = runExample('qcn-hotspot/scenario.yaml');
  const cr = series(r, 'rate flow 0');

  it('plots the target rate beside the current rate: TR >= CR at every sample (qau-pc invariant)', () => {
    for (let f = 0; f < 4; f++) {
      const c = series(r, `rate flow ${f}`);
      const tr = series(r, `target rate flow ${f}`);
      expect(tr.t_ps).toEqual(c.t_ps);
      c.values.forEach((v, i) => expect(tr.values[i]).toBeGreaterThanOrEqual(v));
    }
    // fast recovery is visible: right after the hotspot ends TR is above CR, which climbs toward it
    const at = cr.t_ps.findIndex((x) => x >= 25 * ms);
    expect(series(r, 'target rate flow 0').values[at]).toBeGreaterThan(cr.values[at]);
  });

  it('holds the congestion-point queue near Qeq = 26 KB, without loss', () => {
    expect(r.summary.drops.lossless).toBe(0);
    const q = meanOver(series(r, 'queue sw0>h4'), 5 * ms, 19 * ms);
    expect(q).toBeGreaterThan(0.5 * 26000);
    expect(q).toBeLessThan(2 * 26000);
  });

  it('recovers in three stages once the hotspot ends: fast recovery, active and hyperactive increase', () => {
    // Last rate cut: the last sample before 25 ms that is lower than its predecessor.
    let cut = 0;
    for (let i = 1; i < cr.t_ps.length && cr.t_ps[i] <= 25 * ms; i++) if (cr.values[i] < cr.values[i - 1]) cut = i;
    expect(cr.t_ps[cut]).toBeGreaterThan(15 * ms);
    const after = cr.values.slice(cut);
    const tAfter = cr.t_ps.slice(cut);
    // Never decreases again (no more CNMs), and reaches the line rate (the limiter is released).
    for (let i = 1; i < after.length; i++) expect(after[i]).toBeGreaterThanOrEqual(after[i - 1]);
    expect(after[after.length - 1]).toBe(10);
    // Fast recovery: CR = (CR + TR) / 2 per byte-counter cycle, so the first rises halve. The series
    // is in Gb/s rounded to 3 decimals, so a rise is known to +-0.001 (two roundings of 0.0005).
    const steps: number[] = [];
    for (let i = 1; i < after.length && steps.length < 5; i++) if (after[i] > after[i - 1]) steps.push(after[i] - after[i - 1]);
    for (let k = 1; k < 4; k++) expect(steps[k]).toBeLessThanOrEqual(0.5 * steps[k - 1] + 0.001 + 1e-9);
    // Active increase (TR + 5 Mb/s per cycle): slow and steady between 30 and 90 ms.
    const aiSlope = (at(cr, 90 * ms) - at(cr, 30 * ms)) / 60; // Gb/s per ms
    expect(aiSlope).toBeGreaterThan(0);
    expect(aiSlope).toBeLessThan(0.1);
    // Hyperactive increase needs ti > TH = 5 timer expiries without CNMs (docs/design.md §4.5): the first
    // 15 ms after the CNM, then four reloads of jitter(15 ms) and one of jitter(7.5 ms), each at least
    // 0.85 of nominal, so it starts at the earliest 15 + 4 x 12.75 + 6.375 = 72.375 ms after the last
    // cut (nominally 82.5 ms), then climbs many times faster.
    let hai = -1;
    for (let i = 10; i < tAfter.length; i++) {
      if ((after[i] - after[i - 10]) / ((tAfter[i] - tAfter[i - 10]) / ms) > 4 * aiSlope && after[i] < 10) { hai = tAfter[i - 10]; break; }
    }
    expect(hai).toBeGreaterThan(cr.t_ps[cut] + 72.375 * ms - 1 * ms);
  });
});

describe('examples/congestion-tree', () => {
  const victim = (s: SimResult['summary']) => s.flows.filter((f) => f.victim).reduce((a, f) => a + f.throughput_bps, 0) / 1e9;

  it('PFC alone spreads the hotspot to the victim; QCN prunes the tree and the victim runs at line rate', () => {
    const pfcOnly = runExample('congestion-tree/scenario.yaml', (d) => { (d.qcn as Record<string, unknown>).enable = false; }).summary;
    const withQcn = runExample('congestion-tree/scenario.yaml').summary;
    for (const s of [pfcOnly, withQcn]) expect(s.drops.lossless).toBe(0);
    expect(pfcOnly.pfc.xoff_frames).toBeGreaterThan(0);
    expect(victim(withQcn)).toBeGreaterThan(0.95 * PAYLOAD_10G);
    expect(victim(pfcOnly)).toBeLessThan(0.3 * victim(withQcn));
  });
});

describe('examples/pfc-storm', () => {
  const run = runExample('pfc-storm/scenario.yaml');
  const s = run.summary;

  it('the back-pressure reaches h0 only until the watchdog acts', () => {
    const h0 = series(run, 'paused h0>sw0 p3');
    const detected = s.watchdog[0].t_ps;
    const sample = 20 * us; // the scenario's sampling interval
    const before = h0.values.filter((_, i) => h0.t_ps[i] <= detected + sample);
    const after = h0.values.filter((_, i) => h0.t_ps[i] > detected + sample);
    expect(Math.max(...before)).toBeGreaterThan(0); // the storm did spread one hop...
    expect(after.length).toBeGreaterThan(0);
    expect(Math.max(...after)).toBe(0); // ...and stopped spreading once detected
  });

  it('detects the storm after detection_time, drops that queue, restores it after the storm', () => {
    expect(s.watchdog.map((w) => [w.event, w.port, w.priority, w.action])).toEqual([
      ['storm_detected', 'sw0>h1', 3, 'drop'],
      ['storm_restored', 'sw0>h1', 3, 'drop'],
    ]);
    // Storm from 1 ms, detection 2 ms, polled every 0.5 ms: declared between 3 and 3.5 ms.
    expect(s.watchdog[0].t_ps).toBeGreaterThanOrEqual(3 * ms);
    expect(s.watchdog[0].t_ps).toBeLessThanOrEqual(3.5 * ms);
    // Storm ends at 8 ms, restoration 2 ms: restored between 10 and 10.5 ms.
    expect(s.watchdog[1].t_ps).toBeGreaterThanOrEqual(10 * ms);
    expect(s.watchdog[1].t_ps).toBeLessThanOrEqual(10.5 * ms);
    // The drop action discards priority-3 frames only.
    expect(s.drops.by_priority.filter((_, p) => p !== 3)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it('leaves the other priorities alone', () => {
    expect(s.pfc.paused_ps_by_priority.filter((_, p) => p !== 3)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    const p0 = s.flows.find((f) => f.priority === 0)!;
    expect(p0.throughput_bps / 1e9).toBeGreaterThan(0.99 * 4 * (1518 / 1538));
  });
});

describe('examples/strict-priority', () => {
  const s = runExample('strict-priority/scenario.yaml').summary;

  it('serves the strict class in full and splits the rest 70:30 between the ETS groups', () => {
    const by = (p: number) => s.flows.find((f) => f.priority === p)!.throughput_bps / 1e9;
    expect(by(7)).toBeGreaterThan(0.99 * 2 * (1518 / 1538));
    expect(s.drops.by_priority[7]).toBe(0);
    // What is left after 2 Gb/s of strict traffic (on the wire): 8 Gb/s, 70:30.
    expect(by(0) / (by(0) + by(1))).toBeCloseTo(0.7, 2);
    expect(by(0) + by(1)).toBeGreaterThan(0.98 * 8 * (1518 / 1538));
    expect(s.ets.max_share_error_pp!).toBeLessThan(1);
  });
});

describe('examples/buffer-sizing (Reinemo et al. 2010: XON/XOFF needs ~2 x RTT of buffer, credit ~1 x RTT)', () => {
  // One BDP: 10 Gb/s x RTT 20 us (2 km each way at 5 ns/m) = 25,000 B. The grid and the mechanism
  // switch of the README's one sweep, run in-process point by point (about 50 ms each).
  const BDP = 25_000;
  const GRID = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3].map((b) => b * BDP);
  const PARAMS = [`defaults.buffer.pg_buffer=${GRID.map((b) => `${b}B`).join(',')}`, 'flow_control.3=pfc,credit'];
  const doc = readScenarioFile(join(packageRoot(), 'examples', 'buffer-sizing', 'scenario.yaml'));
  const points = expandGrid(doc, parseParams(PARAMS)).map((p) => {
    const s = runScenario(checkScenario(p.scenario)).summary;
    return {
      bdp: parseInt(String(p.params['defaults.buffer.pg_buffer']), 10) / BDP,
      mode: p.params['flow_control.3'] as string,
      metrics: pointMetrics(s),
      p3: s.flows.find((f) => f.priority === 3)!.throughput_bps / 1e9,
    };
  });
  const curve = (mode: string) => points.filter((p) => p.mode === mode);
  const at = (mode: string, bdp: number) => curve(mode).find((p) => p.bdp === bdp)!;
  // Full throughput: the best priority 3 got anywhere on the grid; half the link is all it can
  // have (the strict on/off source takes the rest, a little more with the frame it ends on).
  const FULL = Math.max(...points.map((p) => p.p3));
  /** The smallest buffer from which on every run is lossless and at >= 99 % of FULL. */
  const needs = (mode: string) => {
    const ok = curve(mode).map((p) => p.metrics.drops_lossless === 0 && p.p3 >= 0.99 * FULL);
    const i = ok.lastIndexOf(false) + 1;
    return i < ok.length ? curve(mode)[i].bdp : Infinity;
  };

  it('is the sweep the README documents, and its plotted metric is priority 3', () => {
    const readme = readFileSync(join(packageRoot(), 'examples', 'buffer-sizing', 'README.md'), 'utf8');
    for (const p of PARAMS) expect(readme).toContain(`--param ${p}`);
    expect(readme).toContain('--metric min_flow_bps');
    // min_flow_bps is priority 3's throughput: the on/off source always gets its half.
    for (const p of points) expect(p.metrics.min_flow_bps! / 1e9).toBe(p.p3);
    // The on/off source's NIC keeps one frame ahead of the wire, so each 200 us period it hands over
    // one more frame in the last frame time of its on part: 1518 B x 8 / 200 us = 0.061 Gb/s.
    expect(FULL).toBeGreaterThan(0.98 * (PAYLOAD_10G / 2 - (1518 * 8) / 200e3));
    expect(FULL).toBeLessThanOrEqual(PAYLOAD_10G / 2);
  });

  it('credit: never a lost frame; about half at 0.5 BDP, full from 1-1.5 BDP', () => {
    for (const p of curve('credit')) expect(p.metrics.drops_lossless).toBe(0);
    // While h1's port is free, credit limits h0 to buffer / RTT: 12,500 B per 20 us = 5 Gb/s, half
    // the link, for half the time: about half of FULL.
    expect(at('credit', 0.5).p3 / FULL).toBeGreaterThan(0.45);
    expect(at('credit', 0.5).p3 / FULL).toBeLessThan(0.55);
    // One BDP is not quite enough: grants go every eighth of the buffer and a frame is 1538 B on
    // the wire, so the loop is a few us longer than 20 us (measured 4.31 of 4.94 Gb/s, 87 %).
    expect(at('credit', 1).p3 / FULL).toBeLessThan(0.95);
    expect(needs('credit')).toBeGreaterThanOrEqual(1);
    expect(needs('credit')).toBeLessThanOrEqual(1.5);
  });

  it('XON/XOFF: loses frames below one RTT of headroom, full lossless only from 2-2.75 BDP, twice credit', () => {
    // Below 1 BDP + a few frames the bytes in flight after XOFF do not fit: frames are lost.
    for (const b of [0.5, 0.75, 1]) expect(at('pfc', b).metrics.drops_lossless, `${b} BDP`).toBeGreaterThan(0);
    // From the calculator's headroom (34,496 B = 1.38 BDP) on, nothing is lost.
    for (const p of curve('pfc').filter((q) => q.bdp >= 1.5)) expect(p.metrics.drops_lossless, `${p.bdp} BDP`).toBe(0);
    // At 1.5 BDP the XOFF threshold (3,004 B) is under 2 MTU, so XON goes only when the queue is
    // empty; the link then idles one RTT (20 us) of every 100 us off period: 80 % of FULL.
    expect(at('pfc', 1.5).p3 / FULL).toBeGreaterThan(0.75);
    expect(at('pfc', 1.5).p3 / FULL).toBeLessThan(0.85);
    // Full once XON comes one BDP of drain before the queue empties: xon = pg - 34,496 - 2 x 1518
    // >= 25,000 B, i.e. pg >= 62,532 B = 2.5 BDP (the 2.5 point, 62,500 B, is 32 B short: 99.6 %).
    expect(needs('pfc')).toBeGreaterThanOrEqual(2);
    expect(needs('pfc')).toBeLessThanOrEqual(2.75);
    // Reinemo et al.'s claim: about twice the buffer of credit.
    const ratio = needs('pfc') / needs('credit');
    expect(ratio).toBeGreaterThan(1.6);
    expect(ratio).toBeLessThan(2.4);
  });
});

describe('examples/lossy-vs-lossless (go-back-N with and without PFC, DCQCN on and off)', () => {
  /** One case of the README's sweep: priority 3 lossless or lossy, DCQCN on or off. */
  const caseOf = (mode: 'pfc' | 'lossy', qcn: boolean) => runExample('lossy-vs-lossless/scenario.yaml', (doc) => {
    (doc.flow_control as string[])[3] = mode;
    (doc.qcn as Record<string, unknown>).enable = qcn;
  }).summary;
  const cases = {
    PFC: caseOf('pfc', false), 'PFC + DCQCN': caseOf('pfc', true), lossy: caseOf('lossy', false), 'lossy + DCQCN': caseOf('lossy', true),
  };
  const readme = readFileSync(join(packageRoot(), 'examples', 'lossy-vs-lossless', 'README.md'), 'utf8');
  const group = (n: number) => n.toLocaleString('en-US');

  it('its table is what the four runs measure, row for row', () => {
    for (const [name, s] of Object.entries(cases)) {
      const fct = s.flows.map((f) => f.fct_ps! / 1e9);
      const row = `| ${name} | ${Math.min(...fct).toFixed(3)} / ${(fct.reduce((a, b) => a + b, 0) / fct.length).toFixed(3)} / ${Math.max(...fct).toFixed(3)}`
        + ` | ${(Math.min(...s.flows.map((f) => f.goodput_bps!)) / 1e9).toFixed(2)}`
        + ` | ${(s.flows.reduce((a, f) => a + f.retransmitted_bytes!, 0) / 1e6).toFixed(2).replace(/^0\.00$/, '0')}`
        + ` | ${group(s.drops.lossy + s.drops.lossless)} | ${s.flows.reduce((a, f) => a + f.nacks!, 0)} / ${s.flows.reduce((a, f) => a + f.timeouts!, 0)}`
        + ` | ${group(s.qcn.cnms)} | ${group(s.pfc.xoff_frames)} |`;
      expect(readme, name).toContain(row);
    }
  });

  it('every message completes; lossless never drops or resends, lossy always resends', () => {
    for (const [name, s] of Object.entries(cases)) {
      for (const f of s.flows) expect(f.bytes_delivered, `${name} flow ${f.id}`).toBe(2_000_000);
      const resent = s.flows.reduce((a, f) => a + f.retransmitted_bytes!, 0);
      if (name.startsWith('PFC')) { expect(s.drops.lossless + s.drops.lossy).toBe(0); expect(resent).toBe(0); } else expect(resent).toBeGreaterThan(0);
    }
    // PFC alone: all eight finish together at 16 MB over the bottleneck (1334 frames of 1520 wire bytes each at 80 ps/B).
    for (const f of cases.PFC.flows) expect(f.fct_ps! / (8 * (1333 * 1520 + 520) * 80)).toBeGreaterThan(0.99);
    // Lossy: the tail waits out retransmission timeouts, so the slowest message takes well over
    // PFC's time, and more is resent than the 16 MB of messages (the README's ten seeds: 1.8 to 6.8
    // times PFC's tail, 1.7 to 4.2 times the bytes).
    const fcts = (s: typeof cases.PFC) => s.flows.map((f) => f.fct_ps!);
    expect(Math.max(...fcts(cases.lossy))).toBeGreaterThan(1.5 * Math.max(...fcts(cases.PFC)));
    expect(cases.lossy.flows.reduce((a, f) => a + f.timeouts!, 0)).toBeGreaterThan(0);
    expect(cases.lossy.flows.reduce((a, f) => a + f.retransmitted_bytes!, 0)).toBeGreaterThan(16_000_000);
  });
});
