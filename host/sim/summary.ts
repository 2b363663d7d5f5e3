// The run's summary (host/sim/result.ts SimSummary, docs/reports.md) from the engine's counters at
// the end of a run: drops, PFC frames and episodes, paused time per port and priority, each flow's
// delivered bytes and goodput over its own window, link figures, Jain's index, the watchdog log.
//
// Units follow the glossary of docs/reports.md: wire bytes (frame + preamble, SFD and IFG), frame
// bytes (FCS included), payload (a flow's bytes; the model carries them as whole data frames, no
// header taken off) and goodput (payload delivered in order).
//
// Goodput of a flow: payload delivered within the flow's window (start to stop or the run's end;
// start to completion for a finished sized flow) over the window, so a set of flows never exceeds
// the link they share. Link figures: wire bytes of every frame the port sent, data (the TC queues,
// which roce ACK/NACK/CNP frames join) and control (PFC, PAUSE, grants, CNMs) apart.
import type { Fabric } from './fabric.js';
import { obeyedXoff, WDLOG_CAP } from './fabric.js';
import type { Scenario } from '../scenario/scenario.js';
import type { SimFlowResult, SimSummary } from './result.js';
import { round3 } from './sample.js';
import { CONTROL_FRAME_BYTES, WIRE_OVERHEAD } from '../core/codes.js';

/** What the driver measured during the run, beside the counters. */
export interface RunMeasures {
  wall_s: number;
  ets: SimSummary['ets'];
  /** End of each flow's window, ps, and the bytes it had delivered then (undefined: at the run's end). */
  windowEnd: number[];
  deliveredAtEnd: (number | undefined)[];
  deadlock: SimSummary['deadlock'];
}

export type FullSummary = SimSummary & { drops: SimSummary['drops'] & { pool_exhausted: number }; credit: { grants: number } };

/** The ports flow f's frames leave, from its host's port to the port into its destination. */
export function pathPorts(fab: Fabric, scn: Scenario, f: number): Scenario['ports'] {
  const links = [scn.ports[scn.nodes[scn.flows[f].src].ports[0]]];
  for (let hop = 0; hop < fab.pathLen; hop++) {
    if (scn.nodes[links[links.length - 1].peerNode].isHost) break;
    links.push(scn.ports[fab.r32(fab.addr.paths + 4 * (f * fab.pathLen + hop))]);
  }
  return links;
}

/**
 * Completion time of flow f alone on its path: its wire bytes at the path's slowest link, one frame
 * of `frame` bytes on every other link (store and forward) and every propagation delay, ps.
 */
export function idealFctPs(fab: Fabric, scn: Scenario, f: number, size: number, frame: number): number {
  const links = pathPorts(fab, scn, f);
  const frames = Math.ceil(size / frame);
  const wire = size + frames * WIRE_OVERHEAD;
  const slowest = links.reduce((a, p) => (p.psPerByte > a.psPerByte ? p : a));
  let t = wire * slowest.psPerByte;
  for (const p of links) {
    t += p.delay_ps;
    if (p !== slowest) t += (Math.min(frame, size) + WIRE_OVERHEAD) * p.psPerByte;
  }
  return t;
}

type Links = NonNullable<SimSummary['throughput']>['links'];

/**
 * A 64-bit counter of the arena at 32-bit word w, as two halves (exact below 2^53, as fabric.ts
 * r64). The summary reads some 200,000 counters of a k = 16 tree through one view taken once,
 * instead of a call per counter that asks the core for its view.
 */
function u64(i32: Int32Array, w: number): number {
  return (i32[w] >>> 0) + i32[w + 1] * 4294967296;
}

/**
 * Each port's first use, ps: the earliest start of a flow whose path leaves through the port or
 * arrives through it (Infinity: none). The path is walked in the arena's path table as pathPorts
 * walks it, without building its list of ports.
 */
function firstUseOfPorts(fab: Fabric, scn: Scenario, flows: SimFlowResult[]): Float64Array {
  const firstUse = new Float64Array(scn.ports.length).fill(Infinity);
  const i32 = fab.core.i32;
  const { ports, nodes } = scn;
  for (const f of scn.flows) {
    const start = flows[f.id].start_ps;
    const row = (fab.addr.paths >>> 2) + f.id * fab.pathLen;
    let p = ports[nodes[f.src].ports[0]];
    for (let hop = 0; ; hop++) {
      if (start < firstUse[p.id]) firstUse[p.id] = start;
      if (start < firstUse[p.peer]) firstUse[p.peer] = start;
      if (hop === fab.pathLen || nodes[p.peerNode].isHost) break;
      p = ports[i32[row + hop]];
    }
  }
  return firstUse;
}

/**
 * Per port that sent anything: wire bytes of data and of control frames per second of run, their
 * sum against the port's rate, and the busy share of the port's active window. That window opens at
 * the first start of a flow whose path uses the link in either direction (data one way; ACKs and
 * pause frames the other) and closes at the end of the last frame the port sent, so a link
 * saturated for 1.3 ms of a 20 ms run reads 100 % there, with the run average beside it.
 */
function linkFigures(fab: Fabric, scn: Scenario, flows: SimFlowResult[]): Links {
  const { L, portAt } = fab;
  const i32 = fab.core.i32;
  const firstUse = firstUseOfPorts(fab, scn, flows);
  const links: Links = [];
  const d = scn.duration_ps;
  const step = L.SQ_SIZE >>> 2; // words from one TC's transmitted bytes to the next's
  for (const p of scn.ports) {
    const pa = portAt(p.id);
    let data = 0;
    for (let w = (pa + L.SP_TCQ + L.SQ_TX_BYTES) >>> 2, end = w + 8 * step; w < end; w += step) data += (i32[w] >>> 0) + i32[w + 1] * 4294967296;
    let control = u64(i32, (pa + L.SP_TX_CTRL) >>> 2) * (CONTROL_FRAME_BYTES + WIRE_OVERHEAD);
    if (data + control === 0) continue;
    // A frame is counted when it starts; the part still on the wire at the end is not yet sent.
    const busyUntil = u64(i32, (pa + L.SP_BUSY_UNTIL) >>> 2);
    const unsent = (Math.max(0, busyUntil - d) * p.bps) / 8e12;
    if (unsent <= data) data -= unsent;
    else control -= unsent;
    const perRun = (bytes: number) => Math.round((bytes * 8 * 1e12) / d);
    const wire = perRun(data + control);
    // A port no flow uses (a PFC storm source's) is active from the run's start.
    const from = Math.min(firstUse[p.id] === Infinity ? 0 : firstUse[p.id], d);
    const to = Math.min(busyUntil, d);
    const window = Math.max(1, to - from);
    const busyPs = ((data + control) * 8e12) / p.bps;
    links.push({
      port: p.name, rate_bps: p.bps, data_wire_bps: perRun(data), control_wire_bps: perRun(control), wire_bps: wire,
      utilisation_pct: round3((100 * wire) / p.bps),
      active_from_ps: from, active_to_ps: to, active_utilisation_pct: round3(Math.min(100, (100 * busyPs) / window)),
      sent_bps: perRun(data),
    });
  }
  return links;
}

type PausedByPort = NonNullable<SimSummary['pfc']['paused_ps_by_port']>;

/** Port p's paused time per priority, added to the run's (a port that obeyed an XOFF: few do). */
function addPausedTime(fab: Fabric, scn: Scenario, p: Scenario['ports'][number], byPort: PausedByPort, byPrio: number[]): void {
  const v = Array.from({ length: 8 }, (_, pr) => fab.pausedPs(p.id, scn.duration_ps, pr));
  v.forEach((x, pr) => { byPrio[pr] += x; });
  if (v.some((x) => x > 0)) byPort.push({ port: p.name, paused_ps_by_priority: v });
}

/**
 * One pass over the port records: the XOFF (refreshes included) and XON frames every port's PFC
 * kernel sent, all units, and the paused time of each port and priority. Its own function, so that
 * V8 optimises this loop apart from summarise's other parts.
 */
function pfcFigures(fab: Fabric, scn: Scenario) {
  const pausedByPort: PausedByPort = [];
  const { L, portAt } = fab;
  const pausedByPrio = new Array<number>(8).fill(0);
  // The sums are kept as low and high halves apart (each exact below 2^53 for any fabric the arena
  // holds): no call and no multiply per counter.
  let xoffLow = 0, xoffHigh = 0, xonLow = 0, xonHigh = 0;
  const i32 = fab.core.i32;
  const { ports } = scn;
  for (let id = 0; id < ports.length; id++) {
    const rec = portAt(id) + L.SP_PFC;
    const tx = (rec + L.PFC_XOFF_TX) >>> 2, xon = (rec + L.PFC_XON_TX) >>> 2;
    for (let w = 0, end = 2 * L.PFC_UNITS; w < end; w += 2) {
      xoffLow += i32[tx + w] >>> 0; xoffHigh += i32[tx + w + 1];
      xonLow += i32[xon + w] >>> 0; xonHigh += i32[xon + w + 1];
    }
    // A port none of whose units (eight priorities, the PAUSE unit) obeyed an XOFF paused for zero
    // time: no eight calls into the core for it (a k = 16 tree's 6,144 ports, nearly all never paused).
    if (obeyedXoff(i32, L, rec, 0, L.PFC_UNITS)) addPausedTime(fab, scn, ports[id], pausedByPort, pausedByPrio);
  }
  return { pausedByPort, pausedByPrio, xoffFrames: xoffLow + xoffHigh * 4294967296, xonSent: xonLow + xonHigh * 4294967296 };
}

export function summarise(fab: Fabric, scn: Scenario, m: RunMeasures): FullSummary {
  const { L, r32, r64, flowAt } = fab;
  const c = (field: number) => r64(fab.addr.counters + field);
  const hops = c(L.SC_HOPS);
  const events = c(L.SC_EVENTS);
  const byPrio = Array.from({ length: 8 }, (_, p) => c(L.SC_DROP_PRIO + 8 * p));
  const { pausedByPort, pausedByPrio, xonSent, ...pfcCounts } = pfcFigures(fab, scn);
  let xoffFrames = pfcCounts.xoffFrames;
  // A storm source re-sends XOFF without ever sending XON: one episode per storm that began.
  const stormEpisodes = c(L.SC_STORM_XOFF) > 0 ? scn.storms.filter((st) => st.start_ps < scn.duration_ps).length : 0;
  const xoffEpisodes = xoffFrames - c(L.SC_XOFF_REFRESHES) + stormEpisodes;
  xoffFrames += c(L.SC_STORM_XOFF);

  const lastDelivery: number[] = [];
  const flows: SimFlowResult[] = scn.flows.map((f) => {
    const fa = flowAt(f.id);
    const delivered = r64(fa + L.SF_DELIV);
    lastDelivery[f.id] = delivered > 0 ? Math.min(r64(fa + L.SF_LAST_DELIV), scn.duration_ps) : 0;
    // The start as the engine ran it (start_jitter applied at init).
    const start = r64(fa + L.SF_START);
    const roce = f.transport === 'roce';
    // A roce message is complete when its last PSN arrived in order; an open-loop flow at its last byte.
    const doneAt = roce ? r64(fa + L.SF_DONE_AT) : f.size > 0 && delivered >= f.size ? r64(fa + L.SF_LAST_DELIV) : 0;
    const fct = doneAt > 0 ? doneAt - start : null;
    // Window: start to completion for a finished sized flow, else start to stop (or the run's end).
    const window = fct ?? Math.max(1, m.windowEnd[f.id] - start);
    const inWindow = fct === null ? m.deliveredAtEnd[f.id] ?? delivered : delivered;
    const rate = window > 0 ? Math.round((inWindow * 8 * 1e12) / window) : 0;
    const ideal = f.size > 0 ? idealFctPs(fab, scn, f.id, f.size, f.frames.b) : null;
    const out: SimFlowResult = {
      id: f.id, src: scn.nodes[f.src].name, dst: scn.nodes[f.dst].name, priority: f.priority,
      bytes_sent: r64(fa + L.SF_SENT), bytes_delivered: delivered, start_ps: start, fct_ps: fct,
      throughput_bps: rate,
      window_ps: window,
    };
    if (f.victim) out.victim = true;
    out.transport = f.transport;
    out.goodput_bps = rate;
    out.retransmitted_bytes = r64(fa + L.SF_RETX_BYTES);
    if (roce) { out.timeouts = r64(fa + L.SF_TIMEOUTS); out.nacks = r64(fa + L.SF_NACKS); }
    out.ideal_fct_ps = ideal;
    out.slowdown = fct !== null && ideal ? round3(fct / ideal) : null;
    return out;
  });
  const links = linkFigures(fab, scn, flows);
  const totalBytes = flows.reduce((a, f) => a + f.bytes_delivered, 0);
  const goodput = Math.round((totalBytes * 8 * 1e12) / scn.duration_ps);
  // The active window of the traffic: first flow start to the last delivery (completion for a finished flow).
  const activeFrom = flows.reduce((a, f) => Math.min(a, f.start_ps), flows.length ? Infinity : 0);
  const activeTo = flows.reduce((a, f) => Math.max(a, f.fct_ps !== null ? f.start_ps + f.fct_ps : lastDelivery[f.id]), activeFrom);
  const throughput = {
    goodput_bps: goodput, active_from_ps: activeFrom, active_to_ps: activeTo,
    active_goodput_bps: activeTo > activeFrom ? Math.round((totalBytes * 8 * 1e12) / (activeTo - activeFrom)) : 0,
    links, total_bps: goodput,
  };
  const fairFlows = flows.filter((f) => !f.victim);
  const sum = fairFlows.reduce((s, f) => s + f.throughput_bps, 0);
  const sq = fairFlows.reduce((s, f) => s + f.throughput_bps ** 2, 0);
  const jain = fairFlows.length > 0 && sq > 0 ? round3((sum * sum) / (fairFlows.length * sq)) : null;

  const nWd = Math.min(c(L.SC_WD_EVENTS), WDLOG_CAP);
  const watchdog: SimSummary['watchdog'] = [];
  for (let i = 0; i < nWd; i++) {
    const at = fab.addr.wdlog + i * L.SW_SIZE;
    const word = r32(at + 12);
    const port = scn.ports[r32(at + 8)];
    watchdog.push({
      t_ps: r64(at), port: port.name, priority: word & 0xff,
      event: word >> 8 === 1 ? 'storm_detected' : 'storm_restored', action: scn.nodes[port.node].watchdog?.action ?? 'drop',
    });
  }

  const wall = m.wall_s;
  return {
    scenario: { name: scn.name, seed: scn.seed, duration_ps: scn.duration_ps, sample_ps: scn.sample_ps },
    sim: { packet_hops: hops, events, wall_s: round3(wall), packet_hops_per_s: wall > 0 ? Math.round(hops / wall) : 0, threads: fab.threads },
    drops: { lossless: c(L.SC_DROP_LOSSLESS), lossy: c(L.SC_DROP_LOSSY), by_priority: byPrio, pool_exhausted: c(L.SC_POOL_EXHAUSTED) },
    pfc: { xoff_frames: xoffFrames, xoff_episodes: xoffEpisodes, xoff_sent: xoffFrames, xon_sent: xonSent, paused_ps_by_priority: pausedByPrio, pause_frames: c(L.SC_PAUSE_FRAMES), paused_ps_by_port: pausedByPort },
    qcn: { cnms: c(L.SC_CNMS) },
    credit: { grants: c(L.SC_GRANTS) },
    ets: m.ets,
    fairness: { jain },
    throughput,
    flows,
    watchdog,
    deadlock: m.deadlock,
  };
}
