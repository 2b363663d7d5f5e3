// What a run records between engine calls (docs/reports.md): the time series of the sampled ports
// and flows, and the ETS share measurement over saturated intervals. Both read the engine's tables
// zero-copy (fabric.ts) once per sampling interval; the per-packet path never calls the host.
//
// Series: per sampled port its queue total and per-(port, TC) occupancy for the TCs the flows use,
// the paused share of each interval per (port, priority) it obeys pause for; per sampled flow its
// delivered throughput and, with QCN, its rate limiter's current and target rates.
import type { Fabric } from './fabric.js';
import type { Scenario } from '../scenario/scenario.js';
import type { SimSeries, SimSummary } from './result.js';

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Samples a run records per series: one per sampling interval, the last one possibly shorter. */
export function sampleCount(scn: Scenario): number {
  return Math.ceil(scn.duration_ps / scn.sample_ps);
}

type SeriesMeta = Omit<SimSeries, 't_ps' | 'values'>;
/** Where a series' sample comes from: a port's queue total or TC, a (port, priority) pause, a flow. */
type Source =
  | { what: 'queue'; p: number }
  | { what: 'queueTc'; p: number; tc: number }
  | { what: 'paused'; p: number; pr: number }
  | { what: 'throughput' | 'rate' | 'target'; f: number; i: number };

/**
 * The series a run records, in report order, from the scenario alone: the memory budget counts
 * them before anything is allocated (budget.ts), the sampler fills them.
 */
export function seriesPlan(scn: Scenario): { meta: SeriesMeta; src: Source }[] {
  const plan: { meta: SeriesMeta; src: Source }[] = [];
  const add = (name: string, kind: SimSeries['kind'], unit: string, entity: string, src: Source, extra: Partial<SeriesMeta> = {}) =>
    plan.push({ meta: { name, kind, unit, entity, ...extra }, src });
  for (const p of scn.seriesPorts) add(`queue ${scn.ports[p].name}`, 'queue', 'bytes', scn.ports[p].name, { what: 'queue', p });
  // Per (port, TC) occupancy for the TCs the scenario's flows map to at that port: queue.svg
  // draws these (a lossless TC held by PFC next to a lossy one that tail-drops); the total stays
  // in the CSV for tools that read it.
  const flowPrios = [...new Set(scn.flows.map((f) => f.priority))];
  for (const p of scn.seriesPorts) {
    for (const tc of [...new Set(flowPrios.map((pr) => scn.ports[p].dcb.prioTc[pr]))].sort((x, y) => x - y)) {
      add(`queue ${scn.ports[p].name} TC${tc}`, 'queue', 'bytes', scn.ports[p].name, { what: 'queueTc', p, tc }, { tc });
    }
  }
  // Paused share of each sampling interval per (port, priority): the priorities the port's
  // transmitter obeys pause for (its node's PFC priorities; all eight on a PAUSE port).
  for (const p of scn.seriesPorts) {
    const modes = scn.nodes[scn.ports[p].node].modes;
    for (let pr = 0; pr < 8; pr++) {
      if (modes.includes('pause') || modes[pr] === 'pfc') add(`paused ${scn.ports[p].name} p${pr}`, 'pause', '%', scn.ports[p].name, { what: 'paused', p, pr }, { priority: pr });
    }
  }
  scn.seriesFlows.forEach((f, i) => add(`throughput flow ${f}`, 'throughput', 'Gb/s', `flow ${f}`, { what: 'throughput', f, i }));
  // The reaction point's target rate beside its current rate: with both, the rate plot shows
  // Reinemo et al. 2010, Figure 3 (fast recovery halving toward TR, then TR climbing by AI and HAI steps).
  if (scn.qcn.enable) {
    scn.seriesFlows.forEach((f, i) => add(`rate flow ${f}`, 'rate', 'Gb/s', `flow ${f}`, { what: 'rate', f, i }));
    scn.seriesFlows.forEach((f, i) => add(`target rate flow ${f}`, 'rate', 'Gb/s', `flow ${f}`, { what: 'target', f, i }));
  }
  return plan;
}

/**
 * The run's series and the recorder that writes one sample of each after every interval. The
 * arrays are allocated once, at their final length (sampleCount), so the run's memory is known
 * before it starts and never grows while it runs.
 *
 * The sources are grouped by kind into flat tables (a word's index and its series; a flow's
 * delivered-bytes word; a port and priority), read by one loop per kind: the 1-us k = 8 tree samples 64
 * series 200 times, in code V8 has not optimised yet, where a closure per series cost a call and
 * several property lookups per value. Every read is of the engine's state only, so the order of
 * the kinds does not change a value.
 */
export class Sampler {
  readonly series: SimSeries[];
  private readonly t: Float64Array;
  /** Each series' values, in plan order. */
  private readonly values: Float64Array[];
  /** Queue occupancies: a 32-bit word and the series it adds to (a port's total is its eight TCs' words). */
  private readonly words: Int32Array;
  private readonly wordSeries: Int32Array;
  /** Paused shares: port, priority, series, and the paused time at the last sample. */
  private readonly pausedPort: Int32Array;
  private readonly pausedPrio: Int32Array;
  private readonly pausedSeries: Int32Array;
  private readonly lastPaused: Float64Array;
  /** Throughputs: the word index of the flow's delivered bytes (64-bit), series, bytes at the last sample. */
  private readonly delivWords: Int32Array;
  private readonly delivSeries: Int32Array;
  private readonly lastDeliv: Float64Array;
  /** The reaction points' rates (QCN runs only), one reader each. */
  private readonly rates: { k: number; read: () => number }[] = [];
  private n = 0;

  constructor(private readonly fab: Fabric, scn: Scenario, plan = seriesPlan(scn)) {
    const { L, r32, r64, portAt, flowAt } = fab;
    const cap = sampleCount(scn);
    this.t = new Float64Array(cap);
    this.series = plan.map(({ meta }) => ({ ...meta, t_ps: this.t, values: new Float64Array(cap) }));
    this.values = this.series.map((x) => x.values);
    const words: number[] = [], wordSeries: number[] = [];
    const pausedPort: number[] = [], pausedPrio: number[] = [], pausedSeries: number[] = [];
    const delivWords: number[] = [], delivSeries: number[] = [];
    const line = (fa: number) => r64(fa + L.SF_LINE_BPS);
    const active = (fa: number) => r32(fa + L.SF_RP + L.QCN_RP_ACTIVE) !== 0;
    plan.forEach(({ src }, k) => {
      switch (src.what) {
        case 'queue': // the port's frame bytes over its eight TC queues (the engine keeps no total)
          for (let tc = 0; tc < 8; tc++) { words.push((portAt(src.p) + L.SP_TCQ + L.SQ_SIZE * tc + L.SQ_BYTES) >>> 2); wordSeries.push(k); }
          break;
        case 'queueTc': words.push((portAt(src.p) + L.SP_TCQ + L.SQ_SIZE * src.tc + L.SQ_BYTES) >>> 2); wordSeries.push(k); break;
        case 'paused': pausedPort.push(src.p); pausedPrio.push(src.pr); pausedSeries.push(k); break;
        case 'throughput': delivWords.push((flowAt(src.f) + L.SF_DELIV) >>> 2); delivSeries.push(k); break;
        case 'rate': {
          const fa = flowAt(src.f);
          this.rates.push({ k, read: () => round3((active(fa) ? r64(fa + L.SF_RP + L.QCN_RP_CR) : line(fa)) / 1e9) });
          break;
        }
        case 'target': {
          const fa = flowAt(src.f);
          this.rates.push({ k, read: () => round3((active(fa) ? r64(fa + L.SF_RP + L.QCN_RP_TR) : line(fa)) / 1e9) });
          break;
        }
      }
    });
    this.words = Int32Array.from(words);
    this.wordSeries = Int32Array.from(wordSeries);
    this.pausedPort = Int32Array.from(pausedPort);
    this.pausedPrio = Int32Array.from(pausedPrio);
    this.pausedSeries = Int32Array.from(pausedSeries);
    this.lastPaused = new Float64Array(pausedPort.length);
    this.delivWords = Int32Array.from(delivWords);
    this.delivSeries = Int32Array.from(delivSeries);
    this.lastDeliv = new Float64Array(delivWords.length);
  }

  /** Writes the samples of the interval (t - dt, t] that the engine has just simulated. */
  sample(t: number, dt: number): void {
    const i = this.n++;
    this.t[i] = t;
    const { values, words, wordSeries, delivWords, delivSeries, lastDeliv } = this;
    // One view for the whole sample: the arena never grows while a run runs (fabric.ts runUntil).
    const i32 = this.fab.core.i32;
    for (let j = 0; j < words.length; j++) values[wordSeries[j]][i] += i32[words[j]]; // each sample starts at 0
    const { pausedPort, pausedPrio, pausedSeries, lastPaused } = this;
    for (let j = 0; j < pausedPort.length; j++) {
      const tot = this.fab.pausedPs(pausedPort[j], t, pausedPrio[j]);
      values[pausedSeries[j]][i] = round3((100 * (tot - lastPaused[j])) / dt);
      lastPaused[j] = tot;
    }
    for (let j = 0; j < delivWords.length; j++) {
      const w = delivWords[j];
      const d = (i32[w] >>> 0) + i32[w + 1] * 4294967296; // as fabric.ts r64: exact below 2^53
      values[delivSeries[j]][i] = round3(((d - lastDeliv[j]) * 8) / dt * 1000); // bytes/ps -> Gb/s
      lastDeliv[j] = d;
    }
    for (const r of this.rates) values[r.k][i] = r.read();
  }
}

/** The ports whose ETS shares are measured: those with two or more ETS TCs of non-zero bandwidth. */
export function etsMeasuredPorts(scn: Scenario): Scenario['ports'] {
  return scn.ports.filter((p) => {
    const mask = etsWeightedMask(p);
    return (mask & (mask - 1)) !== 0; // two bits or more
  });
}

/** Bit t set when TC t of port p is an ETS TC with bandwidth (its bytes count as weighted). */
export function etsWeightedMask(p: Scenario['ports'][number]): number {
  // A loop, not a reduce: it runs for every port of a run, twice, mostly before V8 optimises it.
  const { tsa, bw } = p.dcb;
  let mask = 0;
  for (let tc = 0; tc < tsa.length; tc++) if (tsa[tc] === 2 && bw[tc] > 0) mask |= 1 << tc;
  return mask;
}

/**
 * ETS shares measured on wire bytes over the sampling intervals in which every weighted ETS TC of a
 * port was eligible at every selection and the port sent at least 8 maximum frames (docs/sim.md).
 * The engine accumulates them (assembly/sim/ets_meter.ts, once per sampling interval: step() asks
 * for it with runUntil's sampleEts); this reads the sums.
 */
export class EtsShareMeter {
  private readonly ports: Scenario['ports'];

  constructor(private readonly fab: Fabric, scn: Scenario) {
    this.ports = etsMeasuredPorts(scn);
  }

  /** Wire bytes TC tc of the i-th measured port sent over the saturated intervals. */
  private acc(i: number, tc: number): number {
    return this.fab.r64(this.fab.addr.etsMeter + i * this.fab.L.EM_SIZE + this.fab.L.EM_ACC + 8 * tc);
  }

  /** Configured and measured share per weighted ETS TC, and the worst error in percentage points. */
  result(): SimSummary['ets'] {
    const perTc: SimSummary['ets']['per_tc'] = [];
    let maxErr: number | null = null;
    this.ports.forEach((p, i) => {
      const dcb = p.dcb;
      const tcs = [0, 1, 2, 3, 4, 5, 6, 7].filter((tc) => dcb.tsa[tc] === 2 && dcb.bw[tc] > 0);
      const tot = tcs.reduce((s, tc) => s + this.acc(i, tc), 0);
      if (tot === 0) return;
      const bwTot = tcs.reduce((s, tc) => s + dcb.bw[tc], 0);
      for (const tc of tcs) {
        const configured = (100 * dcb.bw[tc]) / bwTot;
        const measured = (100 * this.acc(i, tc)) / tot;
        perTc.push({ port: p.name, tc, configured_pct: round3(configured), measured_pct: round3(measured) });
        maxErr = Math.max(maxErr ?? 0, Math.abs(measured - configured));
      }
    });
    return { max_share_error_pp: maxErr === null ? null : round3(maxErr), per_tc: perTc };
  }
}
