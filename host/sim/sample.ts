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

/** The run's series and the recorder that appends one sample to each after every interval. */
export class Sampler {
  readonly series: SimSeries[] = [];
  private readonly record: ((t: number, dt: number) => void)[] = [];

  constructor(fab: Fabric, scn: Scenario) {
    const { L, r32, r64, portAt, flowAt } = fab;
    const mk = (name: string, kind: SimSeries['kind'], unit: string, entity: string): SimSeries => {
      const s: SimSeries = { name, kind, unit, entity, t_ps: [], values: [] };
      this.series.push(s);
      return s;
    };
    const push = (s: SimSeries, t: number, v: number) => { s.t_ps.push(t); s.values.push(v); };
    const qSeries = scn.seriesPorts.map((p) => mk(`queue ${scn.ports[p].name}`, 'queue', 'bytes', scn.ports[p].name));
    // Per (port, TC) occupancy for the TCs the scenario's flows map to at that port: queue.svg
    // draws these (a lossless TC held by PFC next to a lossy one that tail-drops); the total stays
    // in the CSV for tools that read it.
    const flowPrios = [...new Set(scn.flows.map((f) => f.priority))];
    const tcSeries = scn.seriesPorts.flatMap((p) => [...new Set(flowPrios.map((pr) => scn.ports[p].dcb.prioTc[pr]))].sort((x, y) => x - y).map((tc) => {
      const s = mk(`queue ${scn.ports[p].name} TC${tc}`, 'queue', 'bytes', scn.ports[p].name);
      s.tc = tc;
      return { at: portAt(p) + L.SP_QBYTES + 4 * tc, s };
    }));
    // Paused share of each sampling interval per (port, priority): the priorities the port's
    // transmitter obeys pause for (its node's PFC priorities; all eight on a PAUSE port).
    const pauseMode = scn.ports.map((p) => scn.nodes[p.node].modes.includes('pause'));
    const pausable = (p: number) => [0, 1, 2, 3, 4, 5, 6, 7].filter((pr) => pauseMode[p] || scn.nodes[scn.ports[p].node].modes[pr] === 'pfc');
    const pSeries = scn.seriesPorts.flatMap((p) => pausable(p).map((pr) => {
      const s = mk(`paused ${scn.ports[p].name} p${pr}`, 'pause', '%', scn.ports[p].name);
      s.priority = pr;
      return { p, pr, s, last: 0 };
    }));
    const fSeries = scn.seriesFlows.map((f) => mk(`throughput flow ${f}`, 'throughput', 'Gb/s', `flow ${f}`));
    const rSeries = scn.qcn.enable ? scn.seriesFlows.map((f) => mk(`rate flow ${f}`, 'rate', 'Gb/s', `flow ${f}`)) : [];
    // The reaction point's target rate beside its current rate: with both, the rate plot shows
    // Reinemo et al. 2010, Figure 3 (fast recovery halving toward TR, then TR climbing by AI and HAI steps).
    const trSeries = scn.qcn.enable ? scn.seriesFlows.map((f) => mk(`target rate flow ${f}`, 'rate', 'Gb/s', `flow ${f}`)) : [];
    const lastDeliv = scn.seriesFlows.map(() => 0);

    this.record.push((t) => {
      scn.seriesPorts.forEach((p, i) => push(qSeries[i], t, r32(portAt(p) + L.SP_QTOTAL)));
      for (const q of tcSeries) push(q.s, t, r32(q.at));
    });
    this.record.push((t, dt) => {
      for (const ps of pSeries) {
        const tot = fab.pausedPs(ps.p, t, ps.pr);
        push(ps.s, t, round3((100 * (tot - ps.last)) / dt));
        ps.last = tot;
      }
    });
    this.record.push((t, dt) => {
      scn.seriesFlows.forEach((f, i) => {
        const fa = flowAt(f);
        const d = r64(fa + L.SF_DELIV);
        push(fSeries[i], t, round3(((d - lastDeliv[i]) * 8) / dt * 1000)); // bytes/ps -> Gb/s
        lastDeliv[i] = d;
        if (rSeries.length) {
          const active = r32(fa + L.SF_RP + L.QCN_RP_ACTIVE) !== 0;
          push(rSeries[i], t, round3((active ? r64(fa + L.SF_RP + L.QCN_RP_CR) : r64(fa + L.SF_LINE_BPS)) / 1e9));
          push(trSeries[i], t, round3((active ? r64(fa + L.SF_RP + L.QCN_RP_TR) : r64(fa + L.SF_LINE_BPS)) / 1e9));
        }
      });
    });
  }

  /** Appends the samples of the interval (t - dt, t] that the engine has just simulated. */
  sample(t: number, dt: number): void {
    for (const r of this.record) r(t, dt);
  }
}

/** The ports whose ETS shares are measured: those with two or more ETS TCs of non-zero bandwidth. */
export function etsMeasuredPorts(scn: Scenario): Scenario['ports'] {
  return scn.ports.filter((p) => p.dcb.tsa.filter((t, tc) => t === 2 && p.dcb.bw[tc] > 0).length >= 2);
}

/** Bit t set when TC t of port p is an ETS TC with bandwidth (its bytes count as weighted). */
export function etsWeightedMask(p: Scenario['ports'][number]): number {
  return p.dcb.tsa.reduce((m, t, tc) => (t === 2 && p.dcb.bw[tc] > 0 ? m | (1 << tc) : m), 0);
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
