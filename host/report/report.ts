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
import { RUN_OUTPUT, writeTreeAtomicAsync } from '../io.js';
import { toolVersions } from '../versions.js';
import { renderPlots, SERIES_KINDS, timeUnitFor } from './plots.js';
import type { SimResult, SimSeries, SimSummary } from '../sim/result.js';

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
    // Marks the directory as dcbkit run's, so the next run may replace it (host/io.ts).
    generator: RUN_OUTPUT.generator,
    wall_s: s.sim.wall_s,
    packet_hops: s.sim.packet_hops,
    packet_hops_per_s: s.sim.packet_hops_per_s,
    events: s.sim.events,
    threads: s.sim.threads,
    versions: toolVersions(),
  };
}

/** RFC 4180 quoting for one CSV field. */
export function csvField(v: string | number): string {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const SERIES_CSV_HEADER = 'series,entity,unit,t_ps,value,priority';

/**
 * Long-layout CSV of the given series: one row per sample, series in the order given. The last
 * column is the priority of a per-(port, priority) series, empty for the others.
 */
export function seriesCsv(series: SimSeries[]): string {
  const lines = [SERIES_CSV_HEADER];
  for (const s of series) {
    const head = `${csvField(s.name)},${csvField(s.entity)},${csvField(s.unit)},`;
    const tail = `,${s.priority === undefined ? '' : csvField(s.priority)}`;
    const n = Math.min(s.t_ps.length, s.values.length);
    for (let i = 0; i < n; i++) lines.push(head + csvField(s.t_ps[i]) + ',' + csvField(s.values[i]) + tail);
  }
  return lines.join('\n') + '\n';
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

/** An integer with digit grouping (`12,345,678`), written out so no locale data is involved. */
export function grouped(n: number): string {
  return Number.isInteger(n) ? String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',') : String(n);
}

/** A count with its unit, grouped: `4,487 frames`, `1 frame`. */
export function counted(n: number, unit: string): string {
  return `${grouped(n)} ${unit}${n === 1 ? '' : 's'}`;
}

const fmtNullable = (v: number | null, digits = 3): string => (v === null ? 'n/a' : String(Number(v.toFixed(digits))));

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:1100px;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.none{color:#777}
figure{margin:1em 0}svg{max-width:100%;height:auto}.victim{color:#c00}`;

/** The self-contained HTML page: no scripts, no external assets; plots are inline SVG. */
export function reportHtml(result: SimResult, plots: Map<string, string>): string {
  const s = result.summary;
  const d = s.scenario.duration_ps;
  const links = s.throughput?.links ?? [];
  const busiest = links.reduce<(typeof links)[number] | undefined>((m, l) => (m === undefined || l.utilisation_pct > m.utilisation_pct ? l : m), undefined);
  const overview = table(
    ['quantity', 'value'],
    [
      ['scenario', s.scenario.name],
      ['seed', s.scenario.seed],
      ['simulated time', formatTime(d, d)],
      ['sample interval', formatTime(s.scenario.sample_ps, d)],
      ['total throughput (payload delivered per second of run)', s.throughput ? formatBps(s.throughput.total_bps) : 'n/a'],
      ['busiest link', busiest ? `${busiest.port}: ${busiest.utilisation_pct} % of ${formatBps(busiest.rate_bps)}` : 'n/a'],
      ['packet hops', grouped(s.sim.packet_hops)],
      ['events', grouped(s.sim.events)],
      ['drops on lossless priorities', counted(s.drops.lossless, 'frame')],
      ['drops on lossy priorities', counted(s.drops.lossy, 'frame')],
      ['PFC XOFF sent / XON sent', `${counted(s.pfc.xoff_sent, 'frame')} / ${counted(s.pfc.xon_sent, 'frame')}`],
      ['pause frames', counted(s.pfc.pause_frames, 'frame')],
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
      ['longest paused port', ...prios.map((p) => formatTime(Math.max(0, ...pausedPortsOf(p).map((r) => r.paused_ps_by_priority[p])), d))],
    ],
  );
  const pausedByPort = table(
    ['port', ...prios.map((p) => `priority ${p}`)],
    pausedPorts.map((r) => [r.port, ...r.paused_ps_by_priority.map((v) => (v > 0 ? formatTime(v, d) : ''))]),
  );
  const flows = table(
    ['flow', 'src', 'dst', 'priority', 'sent (B)', 'delivered (B)', 'start', 'completion', 'throughput', 'victim'],
    s.flows.map((f) => [
      f.id, f.src, f.dst, f.priority, grouped(f.bytes_sent), grouped(f.bytes_delivered),
      formatTime(f.start_ps, d), f.fct_ps === null ? 'not finished' : formatTime(f.fct_ps, d),
      formatBps(f.throughput_bps), f.victim ? 'yes' : '',
    ]),
  );
  const utilisation = table(
    ['port (transmitter)', 'rate', 'sent (wire bytes incl. preamble and gap)', 'utilisation %'],
    links.map((l) => [l.port, formatBps(l.rate_bps), formatBps(l.sent_bps), l.utilisation_pct]),
  );
  const ets = table(
    ['port', 'TC', 'configured %', 'measured %', 'error (pp)'],
    s.ets.per_tc.map((r) => [r.port, r.tc, r.configured_pct, Number(r.measured_pct.toFixed(3)), Number((r.measured_pct - r.configured_pct).toFixed(3))]),
  );
  const watchdog = table(
    ['time', 'port', 'priority', 'event', 'action'],
    s.watchdog.map((w) => [formatTime(w.t_ps, d), w.port, w.priority, w.event, w.action]),
  );
  const figures = [...plots.entries()].map(([name, svg]) => `<figure id="${esc(name)}">\n${svg}\n</figure>`).join('\n');
  const pauseRecorded = result.series.some((x) => x.kind === 'pause');
  const noPause = pauseRecorded && !plots.has('pause.svg') ? '\n<p class="none">No recorded port was paused during the run, so there is no pause chart.</p>' : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>dcbkit run: ${esc(s.scenario.name)}</title>
<style>${STYLE}</style></head>
<body>
<h1>dcbkit run: ${esc(s.scenario.name)}</h1>
<h2>Overview</h2>
${overview}
<h2>Link utilisation</h2>
${utilisation}
<h2>Per priority</h2>
${perPriority}
<h2>Paused time per port and priority</h2>
${pausedPorts.length > 0 ? pausedByPort : '<p class="none">no port was paused</p>'}
<h2>Flows</h2>
${flows}
<h2>ETS</h2>
${ets}
<h2>PFC watchdog</h2>
${watchdog}
<h2>Plots</h2>
${figures || '<p class="none">no series were recorded</p>'}${noPause}
<p class="none">Wall-clock figures are in run.json; the time series are in series/*.csv.</p>
</body></html>
`;
}

/** Every file of the report, path relative to the output directory -> contents. */
export async function reportFiles(result: SimResult): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  files.set('summary.json', canonicalJson(deterministicSummary(result.summary)));
  files.set('run.json', canonicalJson(runInfo(result.summary)));
  for (const kind of SERIES_KINDS) {
    const ss = result.series.filter((x) => x.kind === kind);
    if (ss.length > 0) files.set(`series/${kind}.csv`, seriesCsv(ss));
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
export async function writeReport(result: SimResult, outDir: string, extra: Map<string, string> = new Map(), interrupted = () => false): Promise<string[] | null> {
  const files = await reportFiles(result);
  if (interrupted()) return null;
  for (const [k, v] of extra) files.set(k, v);
  await writeTreeAtomicAsync(outDir, files, RUN_OUTPUT); // stops at SIGINT / SIGTERM, nothing written
  return [...files.keys()].sort();
}
