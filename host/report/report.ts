// The report of one simulation run (`dcbkit run --out DIR`), written all-or-nothing:
//
//   summary.json      the SimSummary with keys sorted at every level, minus the fields of how it
//                     ran (sim.wall_s, sim.packet_hops_per_s, sim.threads): byte-identical for the
//                     same seed, on any number of threads
//   run.json          the wall-clock figures, threads and tool versions (the only file that differs)
//   series/<kind>.csv one file per series kind, long layout: series,entity,unit,t_ps,value,priority
//   <kind>.svg, ets.svg, flows.svg, fct.svg   the plots (host/report/plots.ts)
//   report.html       one self-contained page: summary tables and the SVGs inline, no external assets
//
// docs/reports.md describes each file for users.
import { RUN_OUTPUT, writeTreeAtomicAsync, type TreeFile } from '../io/output.js';
import { toolVersions } from '../core/versions.js';
import { flowNames, plotWindow, renderPlots, SERIES_KINDS, timeUnitFor } from './plots.js';
import { completion, grouped, humanBytes, humanRate, humanTime, isMessage } from './completion.js';
import { maxOf } from '../util/extent.js';
import { DEPRECATED_FIELDS } from '../sim/result.js';
import type { SimResult, SimSeries, SimSummary } from '../sim/result.js';
import { seriesCsvChunks, seriesCsvText } from '../sim/series-csv.js';

/**
 * JSON with object keys sorted at every level, 2-space indent and a final newline; arrays of plain
 * numbers, strings or booleans stay on one line so per-priority vectors read as vectors.
 */
export function canonicalJson(value: unknown): string {
  return stringifyIndented(value, '') + '\n';
}

function stringifyIndented(v: unknown, indent: string): string {
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (v.every((x) => x === null || typeof x !== 'object')) return '[' + v.map((x) => JSON.stringify(x ?? null)).join(', ') + ']';
    return '[\n' + v.map((x) => inner + stringifyIndented(x, inner)).join(',\n') + '\n' + indent + ']';
  }
  if (v !== null && typeof v === 'object') {
    // Keys sorted here, not by rebuilding the object: JS objects list integer-like keys first.
    const o = v as Record<string, unknown>;
    const entries = Object.keys(o).sort().filter((k) => o[k] !== undefined).map((k) => [k, o[k]] as const);
    if (entries.length === 0) return '{}';
    return '{\n' + entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${stringifyIndented(x, inner)}`).join(',\n') + '\n' + indent + '}';
  }
  return JSON.stringify(v ?? null);
}

/** The summary without the fields of how it ran (wall clock, threads): what tests may compare byte for byte. */
export function deterministicSummary(s: SimSummary): object {
  const { wall_s: _wall, packet_hops_per_s: _rate, threads: _threads, ...simCounts } = s.sim;
  return { ...s, sim: simCounts };
}

/** The run's wall-clock figures, kept out of summary.json because they differ run to run. */
export function runInfo(s: SimSummary): object {
  return {
    // Marks the directory as dcbkit run's, so the next run may replace it (host/io/output.ts).
    generator: RUN_OUTPUT.generator,
    wall_s: s.sim.wall_s,
    packet_hops: s.sim.packet_hops,
    packet_hops_per_s: s.sim.packet_hops_per_s,
    events: s.sim.events,
    threads: s.sim.threads,
    versions: toolVersions(),
    // Summary fields renamed this release: old -> new; the old names stay in summary.json for one release.
    deprecated: { note: 'old summary fields, kept for one release: read the new names', fields: DEPRECATED_FIELDS },
  };
}

export { csvField, SERIES_CSV_HEADER } from '../sim/series-csv.js';

/**
 * Long-layout CSV of the given series: one row per sample, series in the order given. The last
 * column is the priority of a per-(port, priority) series, empty for the others.
 */
export function seriesCsv(series: SimSeries[]): string {
  return seriesCsvText(series);
}

function esc(s: string | number): string {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function table(headers: string[], rows: (string | number)[][]): string {
  if (rows.length === 0) return '<p class="none">none</p>';
  const th = headers.map((h) => `<th>${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** A time in ps printed in the unit the duration suggests, e.g. "1.25 ms". */
export function formatTime(ps: number, durationPs: number): string {
  const tu = timeUnitFor(durationPs);
  return `${Number((ps / tu.ps).toPrecision(6))} ${tu.label}`;
}

export function formatBps(bps: number): string {
  if (bps >= 1e9) return `${Number((bps / 1e9).toPrecision(5))} Gb/s`;
  if (bps >= 1e6) return `${Number((bps / 1e6).toPrecision(5))} Mb/s`;
  return `${Number(bps.toPrecision(5))} bit/s`;
}

export { grouped };

/** A count with its unit, grouped: `4,487 frames`, `1 frame`. */
export function counted(n: number, unit: string): string {
  return `${grouped(n)} ${unit}${n === 1 ? '' : 's'}`;
}

const fmtNullable = (v: number | null, digits = 3): string => (v === null ? 'n/a' : String(Number(v.toFixed(digits))));

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.none{color:#777}
figure{margin:1em 0}svg{max-width:100%;height:auto}.victim{color:#c00}
.lead{font-size:1.1em;border-left:4px solid #4c78a8;background:#f5f8fb;padding:.6em 1em;margin:1em 0}
.lead b{font-size:1.15em}.sort{color:#555;font-size:.9em}`;

/** Rows a long table shows before the rest folds into a <details> (no script needed to open it). */
export const TABLE_HEAD_ROWS = 20;

/** A table sorted by what matters (said in `order`), its first TABLE_HEAD_ROWS rows shown and the rest folded. */
function longTable(headers: string[], rows: (string | number)[][], order: string): string {
  if (rows.length === 0) return '<p class="none">none</p>';
  const note = `<p class="sort">${rows.length} rows, ${esc(order)}</p>`;
  if (rows.length <= TABLE_HEAD_ROWS) return note + table(headers, rows);
  return `${note}${table(headers, rows.slice(0, TABLE_HEAD_ROWS))}
<details><summary>the other ${rows.length - TABLE_HEAD_ROWS} rows</summary>
${table(headers, rows.slice(TABLE_HEAD_ROWS))}
</details>`;
}

/**
 * The answer first, for runs whose flows are messages: how many completed, their FCT and slowdown,
 * goodput over the active window, and what was lost, resent and paused to get there.
 */
function completionLead(s: SimSummary): string {
  const c = completion(s.flows);
  const resent = s.flows.reduce((a, f) => a + (f.retransmitted_bytes ?? 0), 0);
  const t = s.throughput;
  const parts = [
    `<b>${c.finished} of ${c.messages} messages completed</b>`,
    c.finished > 0 ? `FCT median <b>${humanTime(c.fct_median_ps!)}</b>, p99 <b>${humanTime(c.fct_p99_ps!)}</b>, max <b>${humanTime(c.fct_max_ps!)}</b>` : 'no completion times',
    c.slowdown_median !== null ? `slowdown median ${sig4(c.slowdown_median)}, p99 ${sig4(c.slowdown_p99!)}` : '',
    t ? `goodput ${humanRate(t.active_goodput_bps)} over the active ${humanTime(t.active_to_ps - t.active_from_ps)} (${humanRate(t.goodput_bps)} averaged over the ${humanTime(s.scenario.duration_ps)} run)` : '',
    `${counted(s.drops.lossless + s.drops.lossy, 'frame')} dropped (${grouped(s.drops.lossless)} lossless), ${humanBytes(resent)} resent, ${counted(s.pfc.xoff_episodes, 'pause episode')}`,
  ];
  return `<p class="lead">${parts.filter(Boolean).join('; ')}.</p>`;
}

const sig4 = (x: number): string => String(Number(x.toPrecision(4)));

/** Per completed message: FCT, slowdown, goodput over its own active time; slowest first. */
function completionTable(s: SimSummary): string {
  const names = flowNames(s.flows);
  const msgs = s.flows.filter(isMessage).sort((a, b) => (b.fct_ps ?? Infinity) - (a.fct_ps ?? Infinity) || a.id - b.id);
  return longTable(
    ['flow', 'priority', 'size', 'FCT', 'slowdown', 'goodput over its FCT', 'resent', 'start'],
    msgs.map((f) => [
      names.get(`flow ${f.id}`) ?? String(f.id), f.priority, humanBytes(f.bytes_delivered),
      f.fct_ps === null ? 'not finished' : humanTime(f.fct_ps), f.slowdown == null ? 'n/a' : sig4(f.slowdown),
      f.fct_ps === null ? 'n/a' : humanRate(f.goodput_bps ?? f.throughput_bps), humanBytes(f.retransmitted_bytes ?? 0), humanTime(f.start_ps),
    ]),
    'slowest first (unfinished messages on top)',
  );
}

/** The self-contained HTML page: no scripts, no external assets; plots are inline SVG. */
export function reportHtml(result: SimResult, plots: Map<string, string>): string {
  const s = result.summary;
  const d = s.scenario.duration_ps;
  const links = s.throughput?.links ?? [];
  const messages = s.flows.some(isMessage);
  // The link that carried the most; its busy share over its own active window beside the run average.
  const busiest = links.reduce<(typeof links)[number] | undefined>((m, l) => (m === undefined || l.utilisation_pct > m.utilisation_pct ? l : m), undefined);
  const t = s.throughput;
  const overview = table(
    ['quantity', 'value'],
    [
      ['scenario', s.scenario.name],
      ['seed', s.scenario.seed],
      ['simulated time', formatTime(d, d)],
      ['sample interval', humanTime(s.scenario.sample_ps)],
      ['goodput, all flows (payload delivered in order, per second of run)', t ? humanRate(t.goodput_bps) : 'n/a'],
      ['goodput over the active window (first flow start to last delivery)', t ? `${humanRate(t.active_goodput_bps)} over ${humanTime(t.active_to_ps - t.active_from_ps)}` : 'n/a'],
      ['busiest link (busy share of its active window; run average)', busiest ? `${busiest.port}: ${busiest.active_utilisation_pct} % busy over its active ${humanTime(busiest.active_to_ps - busiest.active_from_ps)} at ${humanRate(busiest.rate_bps)}; ${busiest.utilisation_pct} % averaged over the run` : 'n/a'],
      ['packet hops', grouped(s.sim.packet_hops)],
      ['events', grouped(s.sim.events)],
      ['drops on lossless priorities', counted(s.drops.lossless, 'frame')],
      ['drops on lossy priorities', counted(s.drops.lossy, 'frame')],
      ['bytes resent (go-back-N)', humanBytes(s.flows.reduce((a, f) => a + (f.retransmitted_bytes ?? 0), 0))],
      ['PFC pause episodes (XOFF from not paused)', counted(s.pfc.xoff_episodes, 'episode')],
      ['PFC XOFF frames (refreshes included) / XON frames', `${counted(s.pfc.xoff_frames, 'frame')} / ${counted(s.pfc.xon_sent, 'frame')}`],
      ['pause frames received', counted(s.pfc.pause_frames, 'frame')],
      ['QCN CNMs', counted(s.qcn.cnms, 'frame')],
      ['ETS worst share error (pp)', fmtNullable(s.ets.max_share_error_pp)],
      ["Jain's fairness index", fmtNullable(s.fairness.jain, 4)],
      ['lossless deadlock (docs/deadlock.md)', s.deadlock
        ? `priority ${s.deadlock.priority} from ${formatTime(s.deadlock.detected_at_ps, d)}: ${s.deadlock.ports.join(' -> ')} (dashed line on the plots)`
        : 'none'],
    ],
  );
  const prios = [0, 1, 2, 3, 4, 5, 6, 7];
  const pausedPorts = s.pfc.paused_ps_by_port ?? [];
  // The summary's paused time of a priority adds every port's: a 3 ms run can show 23 ms. Beside it,
  // how many ports were paused and the longest any one was.
  const pausedPortsOf = (p: number) => pausedPorts.filter((r) => (r.paused_ps_by_priority[p] ?? 0) > 0);
  const perPriority = table(
    ['priority', ...prios.map(String)],
    [
      ['drops (frames)', ...prios.map((p) => grouped(s.drops.by_priority[p] ?? 0))],
      ['paused time, summed over ports', ...prios.map((p) => formatTime(s.pfc.paused_ps_by_priority[p] ?? 0, d))],
      ['ports paused', ...prios.map((p) => String(pausedPortsOf(p).length))],
      ['longest paused port', ...prios.map((p) => formatTime(maxOf(pausedPortsOf(p).map((r) => r.paused_ps_by_priority[p]), 0), d))],
    ],
  );
  const pausedTotal = (r: (typeof pausedPorts)[number]) => r.paused_ps_by_priority.reduce((a, b) => a + b, 0);
  const pausedByPort = longTable(
    ['port', ...prios.map((p) => `priority ${p}`)],
    [...pausedPorts].sort((a, b) => pausedTotal(b) - pausedTotal(a)).map((r) => [r.port, ...r.paused_ps_by_priority.map((v) => (v > 0 ? humanTime(v) : ''))]),
    'longest paused first',
  );
  const names = flowNames(s.flows);
  const flows = longTable(
    ['flow', 'priority', 'sent', 'delivered', 'start', 'completion', 'goodput over its window', 'victim'],
    [...s.flows].sort((a, b) => a.throughput_bps - b.throughput_bps || a.id - b.id).map((f) => [
      names.get(`flow ${f.id}`) ?? String(f.id), f.priority, humanBytes(f.bytes_sent), humanBytes(f.bytes_delivered),
      humanTime(f.start_ps), f.fct_ps === null ? 'not finished' : humanTime(f.fct_ps),
      humanRate(f.throughput_bps), f.victim ? 'yes' : '',
    ]),
    'lowest goodput first',
  );
  const utilisation = longTable(
    ['port (transmitter)', 'rate', 'busy over its active window', 'active window', 'run average', 'data (wire)', 'control (wire)'],
    [...links].sort((a, b) => b.wire_bps - a.wire_bps || b.active_utilisation_pct - a.active_utilisation_pct).map((l) => [
      l.port, humanRate(l.rate_bps), `${l.active_utilisation_pct} %`, `${humanTime(l.active_from_ps)} – ${humanTime(l.active_to_ps)}`,
      `${l.utilisation_pct} %`, humanRate(l.data_wire_bps), humanRate(l.control_wire_bps),
    ]),
    'most traffic first; wire bytes (frame + preamble, SFD, IFG) of every frame sent, data and control apart',
  );
  const etsErr = (r: SimSummary['ets']['per_tc'][number]) => Math.abs(r.measured_pct - r.configured_pct);
  const ets = longTable(
    ['port', 'TC', 'configured %', 'measured %', 'error (pp)'],
    [...s.ets.per_tc].sort((a, b) => etsErr(b) - etsErr(a)).map((r) => [r.port, r.tc, r.configured_pct, Number(r.measured_pct.toFixed(3)), Number((r.measured_pct - r.configured_pct).toFixed(3))]),
    'largest error first',
  );
  const watchdog = longTable(
    ['time', 'port', 'priority', 'event', 'action'],
    s.watchdog.map((w) => [humanTime(w.t_ps), w.port, w.priority, w.event, w.action]),
    'in time order',
  );
  const figure = (name: string) => `<figure id="${esc(name)}">\n${plots.get(name)}\n</figure>`;
  const leadPlots = messages ? ['fct-cdf.svg', 'fct.svg'].filter((n) => plots.has(n)) : [];
  const figures = [...plots.keys()].filter((n) => !leadPlots.includes(n)).map(figure).join('\n');
  const pauseRecorded = result.series.some((x) => x.kind === 'pause');
  const noPause = pauseRecorded && !plots.has('pause.svg') ? '\n<p class="none">No recorded port was paused during the run, so there is no pause chart.</p>' : '';
  const win = plotWindow(result);
  const windowNote = win.endPs < d
    ? `<p class="sort">Time axes show the active window, 0 – ${humanTime(win.endPs)} of the ${humanTime(d)} run (nothing moved after it); series/*.csv hold every sample.</p>\n`
    : '';
  const completionSection = messages ? `${completionLead(s)}
<h2>Completion</h2>
${leadPlots.map(figure).join('\n')}
${completionTable(s)}
` : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>dcbkit run: ${esc(s.scenario.name)}</title>
<style>${STYLE}</style></head>
<body>
<h1>dcbkit run: ${esc(s.scenario.name)}</h1>
${completionSection}<h2>Overview</h2>
${overview}
<h2>Plots</h2>
${windowNote}${figures || '<p class="none">no series were recorded</p>'}${noPause}
<h2>Link utilisation</h2>
${utilisation}
<h2>Flows</h2>
${flows}
<h2>Per priority</h2>
${perPriority}
<h2>Paused time per port and priority</h2>
${pausedPorts.length > 0 ? pausedByPort : '<p class="none">no port was paused</p>'}
<h2>ETS</h2>
${ets}
<h2>PFC watchdog</h2>
${watchdog}
<p class="none">Wall-clock figures are in run.json; the time series are in series/*.csv. Units: docs/reports.md, "Glossary".</p>
</body></html>
`;
}

/** Every file of the report, path relative to the output directory -> contents. */
export async function reportFiles(result: SimResult): Promise<Map<string, TreeFile>> {
  const files = new Map<string, TreeFile>();
  files.set('summary.json', canonicalJson(deterministicSummary(result.summary)));
  files.set('run.json', canonicalJson(runInfo(result.summary)));
  for (const kind of SERIES_KINDS) {
    const ss = result.series.filter((x) => x.kind === kind);
    if (ss.length > 0) files.set(`series/${kind}.csv`, { chunks: () => seriesCsvChunks(ss) }); // streamed: never held whole
  }
  const plots = await renderPlots(result);
  for (const [name, svg] of plots) files.set(name, svg);
  files.set('report.html', reportHtml(result, plots));
  return files;
}

/** Writes the report under outDir, all files or none; returns the relative paths written. */
/**
 * Renders and writes the report. `interrupted`, checked after rendering, makes it return null and
 * write nothing (Ctrl-C during `run --out`); the write itself is atomic and not interruptible.
 */
export async function writeReport(result: SimResult, outDir: string, extra: Map<string, TreeFile> = new Map(), interrupted = () => false): Promise<string[] | null> {
  const files: Map<string, TreeFile> = await reportFiles(result);
  if (interrupted()) return null;
  for (const [k, v] of extra) files.set(k, v);
  await writeTreeAtomicAsync(outDir, files, RUN_OUTPUT); // stops at SIGINT / SIGTERM, nothing written
  return [...files.keys()].sort();
}
