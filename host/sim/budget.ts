// The memory budget of a simulation run: an upper bound of the process's peak resident memory
// (RSS), computed from the scenario and the arena's plan before anything large is allocated, so a
// run that would not fit --max-memory is refused at once with exit 2, its parts and what to change,
// instead of growing to gigabytes. docs/reports.md documents the figures.
//
// The bound is the sum of what the run holds at its peak, which is the end (every series full, the
// report being rendered):
//   - dcbkit itself: Node, the code of `run` and the compiled core (BASE_BYTES), the scenario and
//     the fabric's host-side tables per port and flow, and one more isolate per extra thread;
//   - the arena (planned in fabric-plan.ts): its tables in full, and of the packet pool and event heap only the part
//     a run can touch (records are handed out in order, assembly/sim/arena.ts): at most the frames
//     every port can send in the run's duration, never more than the pool;
//   - the series (sample.ts): one double per sample and series, plus the shared time axis;
//   - with --out, the report: the plots' renderer (vega) and its points (at most MAX_POINTS per
//     series are plotted), and one chunk of the series CSV, which is streamed to its file
//     (series-csv.ts) and so costs the same whatever the run's length.
// The constants were measured as peak RSS (`/usr/bin/time -v`) of `dcbkit run` on this project's
// examples and fat trees; test/sim-budget-rss.test.ts checks the bound against the measured peak.
import { InputError } from '../errors/errors.js';
import type { Scenario } from '../scenario/scenario.js';
import type { ArenaPlan } from './fabric.js';
import { CSV_CHUNK_BYTES } from './series-csv.js';
import type { SimSeries } from './result.js';
import { WIRE_OVERHEAD } from '../core/codes.js';

/** Default --max-memory: 2 GiB. */
export const DEFAULT_MAX_MEMORY = 2 * 1024 ** 3;

const MiB = 1024 ** 2;
/**
 * Peak RSS of `dcbkit run --json` of a small scenario: Node, the command's code, the core. The
 * examples peak at 58.1 to 62.2 MiB with the young generation kept small (host/util/gc.ts) and
 * V8's tier-up budgets raised to 20x (host/util/tiering.ts; at 10x they peaked at 65.3 to 67.0);
 * the bound takes the highest with 4 MiB to spare for the run-to-run spread (a CI machine has
 * peaked 2.5 MiB over this one).
 */
export const BASE_BYTES = 66 * MiB;
/**
 * Host-side memory per port and per flow: the checked scenario, routes, the fabric's JS tables. A
 * k = 16 fat tree (6,144 ports, 1,024 flows) peaks 27 MiB over a k = 4 tree, 30 MiB of which the
 * arena's part already counts: a KiB a port is an upper bound with room.
 */
const HOST_BYTES_PER_PORT = 1024;
const HOST_BYTES_PER_FLOW = 1024;
/** Reading a YAML scenario: the parser's document tree, per byte of source (JSON's is far smaller). */
const YAML_BYTES_PER_SOURCE_BYTE = 120;
/** Each thread beyond the first: a worker isolate with its own copy of the engine's code. */
const THREAD_BYTES = 16 * MiB;
/**
 * --out: the report renderer (vega, vega-lite) loaded, beyond BASE_BYTES: sim-tiny's --out peaks
 * 18.7 MiB over its run without, of which its plotted points are 0.8 and the CSV chunk 1 (7.1 MiB
 * when the tier-up budgets were 10x: the run without --out fell 5 MiB with 20x, its --out peak did
 * not, so the 5 MiB BASE_BYTES gave up are counted here).
 */
const REPORT_BYTES = 10 * MiB;
/**
 * --out: how much the heap at the render's peak differs from run to run. V8 collects concurrently,
 * so how much garbage the plots leave uncollected at their peak depends on thread timing, not on
 * the run: examples/pause-vs-pfc --out peaked at 102.3 to 103.4 MiB over nine runs on an idle
 * 2-core machine and at 105.9 MiB in a CI run. The bound takes the spread seen (3.6 MiB), rounded up.
 */
const RENDER_SPREAD_BYTES = 4 * MiB;
/**
 * --out: one plotted point through the spec, the dataflow, the scene graph and the SVG text. Every
 * plot counts: the heap is collected between plots (host/util/gc.ts), but the process does not give all
 * of it back (qcn-hotspot's plots together add 47 MiB to the run's peak). A pause sample is a bar
 * (a rectangle with its opacity) and a rate sample sits in a panel per flow: two points' worth
 * each. Fitted to the thirteen examples' --out peaks with the young generation kept small
 * (host/util/gc.ts): over the peak of the same run without --out, the estimate's report part
 * exceeds the measured one by 7 to 16 MiB and the whole estimate stays within 14 % of the peak.
 */
const PLOT_BYTES_PER_POINT = 760;
const PLOT_WEIGHT: Partial<Record<SimSeries['kind'], number>> = { pause: 2, rate: 2 };
/** Points plotted per series at most (host/report/plots.ts MAX_POINTS). */
const PLOTTED_POINTS = 2000;
/** Control frames a port holds at once, at most: a PFC frame per priority, CNMs, a credit grant. */
const CONTROL_RECORDS_PER_PORT = 16;
/** An event-heap entry (assembly/sim/events.ts): time and payload. */
const HEAP_ENTRY_BYTES = 16;

/** The scenario file the run was read from: its size and whether it was YAML. */
export interface ScenarioSource { bytes: number; yaml: boolean }

/** The run's parts at its peak, bytes; `bytes` is their sum, the bound of the peak RSS. */
export interface RunFootprint {
  samples: number;
  series: number;
  arenaBytes: number;
  dcbkit: number;
  arena: number;
  seriesBytes: number;
  report: number;
  bytes: number;
}

/**
 * Packet records a run can touch. Data frames (and roce ACKs) are made at hosts, at most one per
 * minimum-frame time of the host's link over the run plus what its queues hold; a switch forwards
 * the record it received, and makes only control frames (PFC, CNMs, credit grants), a few in flight
 * per port. Never more than the pool. An estimate of what the run uses, not the pool's own bound
 * (fabric-plan.ts arrivalsWithin), which must never run short and so counts the smallest frame of
 * any kind on every switch link at the fastest clock the timing model allows.
 */
function recordsTouched(scn: Scenario, plan: ArenaPlan): number {
  const minWire = scn.minFrame + WIRE_OVERHEAD;
  let n = 1024;
  for (const p of scn.ports) {
    n += CONTROL_RECORDS_PER_PORT;
    if (scn.nodes[p.node].isHost) n += Math.ceil(scn.duration_ps / (minWire * p.psPerByte)) + 8 * Math.ceil(scn.hostQueue / scn.minFrame + 1);
  }
  return Math.min(plan.poolRecords, n);
}

export function runFootprint(
  scn: Scenario, series: readonly Pick<SimSeries, 'kind' | 'name' | 'entity' | 'unit' | 'priority' | 'tc'>[], plan: ArenaPlan, withReport: boolean,
  source?: ScenarioSource,
): RunFootprint {
  const samples = Math.ceil(scn.duration_ps / scn.sample_ps);

  const dcbkit = BASE_BYTES + scn.ports.length * HOST_BYTES_PER_PORT + scn.flows.length * HOST_BYTES_PER_FLOW + (Math.max(1, plan.parts) - 1) * THREAD_BYTES +
    (source?.yaml ? source.bytes * YAML_BYTES_PER_SOURCE_BYTE : 0);
  const records = recordsTouched(scn, plan);
  const tables = plan.arenaBytes - plan.poolRecords * plan.recordBytes - plan.heapEntries * HEAP_ENTRY_BYTES;
  const events = Math.min(plan.heapEntries, records + scn.ports.length * 16 + scn.flows.length * 8 + 64);
  const arena = tables + records * plan.recordBytes + events * HEAP_ENTRY_BYTES;
  const seriesBytes = series.length > 0 ? 8 * samples * (series.length + 1) : 0;
  let report = 0;
  if (withReport) {
    // The queue plot draws the per-TC series when there are any, not the ports' totals (plots.ts).
    const perTc = series.some((s) => s.kind === 'queue' && s.tc !== undefined);
    let points = 0;
    for (const s of series) if (!(perTc && s.kind === 'queue' && s.tc === undefined)) points += Math.min(samples, PLOTTED_POINTS) * (PLOT_WEIGHT[s.kind] ?? 1);
    // The CSVs are streamed to their files a chunk at a time (series-csv.ts): one chunk's buffer.
    report = REPORT_BYTES + RENDER_SPREAD_BYTES + CSV_CHUNK_BYTES + points * PLOT_BYTES_PER_POINT;
  }
  return {
    samples, series: series.length, arenaBytes: plan.arenaBytes,
    dcbkit, arena, seriesBytes, report, bytes: dcbkit + arena + seriesBytes + report,
  };
}

/** `2.5 GiB`, `300 MiB`: binary units, as --max-memory is usually given. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${i === 0 ? n : n.toPrecision(3)} ${units[i]}`;
}

/**
 * Throws InputError when the run would exceed `maxBytes`. The path
 * is `sample` when the series (and their CSV) are the larger part, else `--max-memory`; the rule
 * lists every part and what changes it.
 */
export function checkBudget(f: RunFootprint, maxBytes: number, withReport = false): void {
  // Built only for a refusal: toLocaleString loads ICU's locale data, a cost every run would pay.
  const what = () => `${f.samples.toLocaleString('en-US')} samples (duration / sample) x ${f.series} series`;
  const seriesFix = 'raise sample, shorten duration or record fewer series (series.ports, series.flows)';
  if (f.bytes > maxBytes) {
    const seriesPart = f.seriesBytes + (withReport ? f.report : 0);
    const parts = [
      `${what()}${withReport ? ' and their report' : ''} need about ${formatBytes(seriesPart)} (${seriesFix})`,
      `the fabric's arena about ${formatBytes(f.arena)} (packet pool and tables: fewer switches and ports, or smaller buffers, buffer.size)`,
      `dcbkit itself about ${formatBytes(f.dcbkit)}`,
    ];
    throw new InputError({
      path: seriesPart >= f.arena ? 'sample' : '--max-memory',
      rule: `${parts.join('; ')}: in all about ${formatBytes(f.bytes)}, over the memory budget of ${formatBytes(maxBytes)} (--max-memory)`,
    });
  }
}
