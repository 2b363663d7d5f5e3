// Drives the fabric engine (assembly/sim/engine.ts): lays a normalised scenario out as the
// engine's flat tables in one arena reserved once, computes shortest-path ECMP routes, runs the
// engine one sampling interval per call (the JS/Wasm boundary is crossed per interval, never per
// packet), reads the tables zero-copy between calls and assembles the SimResult.
import { CONTROL_FRAME_BYTES, FC_CODE, WD_ACTION_CODE, WIRE_OVERHEAD } from '../codes.js';
import { Core } from '../loader.js';
import { writeNpParams, writeRpParams, type RpParams } from '../kernels/qcn-rp.js';
import { losslessPgs, type NormNode, type Scenario } from './scenario.js';
import type { SimFlowResult, SimResult, SimSeries, SimSummary } from './result.js';
import { computeRoutes, nodeOrdinals, type Routes } from './routes.js';
import { dependencyGraphs } from './deadlock.js';
import { DeadlockMonitor, type PortProbe } from './deadlock-monitor.js';
import { checkBudget, DEFAULT_MAX_MEMORY, runFootprint } from './budget.js';

const WDLOG_CAP = 4096;
const POOL_MAX = 4_000_000;

/** Layout constant names read from the core (assembly/layout.ts, section sim). */
type L = Record<string, number>;
function layout(core: Core): L {
  return new Proxy({} as L, { get: (_t, k: string) => core.constant(k) });
}

export interface Fabric {
  core: Core;
  scn: Scenario;
  base: number;
  arenaBytes: number;
  addr: { ports: number; nodes: number; flows: number; counters: number; wdlog: number };
  L: L;
  /** The forwarding tables the engine was given (host/sim/routes.ts), and the switch ordinals they use. */
  routes: Routes;
  swOrd: Map<number, number>;
  runUntil(tPs: number): void;
}

/** Builds the engine's tables for `scn` in a fresh core instance (memory grows here, once). */
export function buildFabric(scn: Scenario, flavour: 'release' | 'debug' = 'release'): Fabric {
  const core = new Core(flavour);
  const L = layout(core);
  // The core's seeding rule (assembly/rng.ts, DESIGN.md §2) for the traffic sources the host writes.
  const rngSeed = core.fn<(seed: number, id: number) => number>('rng_seed_value');
  const nPorts = scn.ports.length;
  const nNodes = scn.nodes.length;
  const nFlows = scn.flows.length;
  const { hostOrd, swOrd } = nodeOrdinals(scn);
  const nHosts = hostOrd.size;
  const nSw = swOrd.size;

  // Routes: shortest-path ECMP sets per destination host, plus a column per pinned flow (routes.ts).
  const routes = computeRoutes(scn, hostOrd, swOrd);
  const { route, nhWords, columns, flowColumn } = routes;

  // Packet pool: everything the switch buffers and NIC queues can hold, frames in flight on every
  // link, plus control frames; sized at init so a run never allocates.
  const minWire = scn.minFrame + WIRE_OVERHEAD;
  let poolEst = 64 * nPorts + 1024;
  for (const n of scn.nodes) if (n.buffer) poolEst += Math.ceil((n.buffer.size + n.buffer.headroom.reduce((a, b) => a + b, 0) * 8) / scn.minFrame);
  for (const p of scn.ports) poolEst += Math.ceil(p.delay_ps / (minWire * p.psPerByte)) + 2;
  poolEst += nHosts * 8 * Math.ceil(scn.hostQueue / scn.minFrame + 1);
  const poolCap = Math.min(POOL_MAX, poolEst);
  const heapCap = poolCap + nPorts * 16 + nFlows * 4 + scn.storms.length + 64;
  const mixEntries = scn.flows.reduce((a, f) => a + f.frames.mix.length, 0);
  // The distinct watchdog poll intervals: one poll event each (usually one for the whole fabric).
  const wdPolls = [...new Set(scn.nodes.filter((n) => !n.isHost && n.watchdog).map((n) => n.watchdog!.poll_interval))].filter((x) => x > 0);

  let off = 0;
  const take = (bytes: number) => { const at = off; off += Math.ceil(bytes / 64) * 64; return at; };
  const o = {
    hdr: take(L.SH_SIZE), nodes: take(nNodes * L.SN_SIZE), ports: take(nPorts * L.SP_SIZE), flows: take(nFlows * L.SF_SIZE),
    pool: take(poolCap * L.SK_SIZE), heap: take(heapCap * 16), route: take(nSw * columns * 4), nh: take(nhWords.length * 4),
    mix: take(mixEntries * 8 + 8), wdPolls: take(wdPolls.length * 8 + 8), counters: take(L.SC_SIZE), wdlog: take(WDLOG_CAP * L.SW_SIZE), storms: take(scn.storms.length * L.SS_SIZE + 8),
  };
  const arenaBytes = off;
  const base = core.fn<(b: number) => number>('simReserve')(arenaBytes);
  if (base === 0) throw new Error(`cannot reserve ${arenaBytes} bytes for the simulator arena`);
  const a = Object.fromEntries(Object.entries(o).map(([k, v]) => [k, base + v])) as typeof o;
  const i32 = core.i32;
  const i64 = core.i64;
  const u8 = core.u8;
  const w32 = (at: number, v: number) => { i32[at >>> 2] = v | 0; };
  const w64 = (at: number, v: number) => { i64[at >>> 3] = v >= Number.MAX_SAFE_INTEGER ? 0x7fffffffffffffffn : BigInt(Math.round(v)); };

  // Header.
  const h = a.hdr;
  w32(h + L.SH_NPORTS, nPorts); w32(h + L.SH_NNODES, nNodes); w32(h + L.SH_NFLOWS, nFlows); w32(h + L.SH_NHOSTS, columns);
  w32(h + L.SH_POOL_CAP, poolCap); w32(h + L.SH_HEAP_CAP, heapCap);
  w32(h + L.SH_PORTS, a.ports); w32(h + L.SH_NODES, a.nodes); w32(h + L.SH_FLOWS, a.flows); w32(h + L.SH_POOL, a.pool);
  w32(h + L.SH_HEAP, a.heap); w32(h + L.SH_ROUTE, a.route); w32(h + L.SH_NH, a.nh); w32(h + L.SH_MIX, a.mix);
  w32(h + L.SH_COUNTERS, a.counters); w32(h + L.SH_WDLOG, a.wdlog); w32(h + L.SH_WDLOG_CAP, WDLOG_CAP);
  w32(h + L.SH_STORMS, a.storms); w32(h + L.SH_NSTORMS, scn.storms.length);
  const qcnMask = scn.qcn.enable ? scn.qcn.priorities.reduce((m, p) => m | (1 << p), 0) : 0;
  w32(h + L.SH_QCN_MASK, qcnMask);
  w32(h + L.SH_SEED, scn.seed >>> 0); w32(h + L.SH_HOSTQ, scn.hostQueue);
  // Credit unit and aging are fabric-wide: checkScenario requires every credit node to agree.
  const creditNode = scn.nodes.find((n) => n.modes.includes('credit')) ?? scn.nodes[0];
  w32(h + L.SH_CREDIT_UNIT, creditNode?.dcb.creditUnit ?? 64);
  w64(h + L.SH_CREDIT_AGING, creditNode?.dcb.creditAgingPs ?? 0);
  const dcqcn = scn.qcn.profile === 'dcqcn';
  w32(h + L.SH_QCN_PROFILE, dcqcn ? 1 : 0);
  w32(h + L.SH_WD_POLLS, a.wdPolls); w32(h + L.SH_NWD_POLLS, wdPolls.length);
  wdPolls.forEach((ps, g) => w64(a.wdPolls + 8 * g, ps));

  // Nodes.
  for (const n of scn.nodes) {
    const na = a.nodes + n.id * L.SN_SIZE;
    w32(na + L.SN_KIND, n.isHost ? 0 : 1);
    w32(na + L.SN_ORD, n.isHost ? hostOrd.get(n.id)! : swOrd.get(n.id)!);
    if (n.buffer) {
      const lossless = losslessPgs(n.modes);
      const reserved = lossless > 0 ? n.buffer.headroom.reduce((x, y) => x + y, 0) * lossless : 0;
      w32(na + L.SN_SHARED_SIZE, Math.max(0, n.buffer.size - reserved));
      w32(na + L.SN_XOFF, n.buffer.xoff); w32(na + L.SN_XON, n.buffer.xon); w32(na + L.SN_LOSSY_Q, n.buffer.lossyQueue);
    }
  }
  // Ports.
  for (const p of scn.ports) {
    const pa = a.ports + p.id * L.SP_SIZE;
    const node = scn.nodes[p.node];
    w32(pa + L.SP_NODE, p.node); w32(pa + L.SP_PEER, p.peer); w32(pa + L.SP_PPB, p.psPerByte);
    w32(pa + L.SP_FLAGS, node.isHost ? 1 : 0); w64(pa + L.SP_DELAY, p.delay_ps);
    const k = node.ports.indexOf(p.id);
    const headroom = node.buffer ? node.buffer.headroom[k] : 0;
    w32(pa + L.SP_HEADROOM, headroom);
    // Credit receiver buffer: the port's headroom (about one round trip, seed 000), hosts alike.
    const unit = node.dcb.creditUnit;
    const crBytes = node.buffer ? headroom : hostCreditBytes(p, node.dcb.mtu);
    w32(pa + L.SP_CR_CAP, Math.floor(crBytes / unit));
    // This node's own flow control, pause time and watchdog; the port's own congestion points and ETS.
    w32(pa + L.SP_MODES, node.modes.reduce((word, m, pr) => word | (FC_CODE[m] << (4 * pr)), 0));
    w32(pa + L.SP_PAUSE_TIME, node.dcb.pauseTime);
    const wd = node.isHost ? null : node.watchdog;
    w32(pa + L.SP_WD_POLL, wd && wd.poll_interval > 0 ? wdPolls.indexOf(wd.poll_interval) : -1);
    w32(pa + L.SP_WD_ACTION, wd ? WD_ACTION_CODE[wd.action] : 0);
    w64(pa + L.SP_WD_DETECT, wd?.detection_time ?? 0); w64(pa + L.SP_WD_RESTORE, wd?.restoration_time ?? 0);
    const cp = p.qcn;
    w32(pa + L.SP_Q_EQ, cp.q_eq); w32(pa + L.SP_W, cp.w);
    w32(pa + L.SP_KMIN, cp.kmin); w32(pa + L.SP_KMAX, cp.kmax); w32(pa + L.SP_PMAX_Q16, Math.round((cp.pmax * 65536) / 100));
    const ets = pa + L.SP_ETS;
    for (let x = 0; x < 8; x++) {
      u8[ets + L.ETS_PRIO_TC + x] = p.dcb.prioTc[x];
      u8[ets + L.ETS_TSA + x] = p.dcb.tsa[x];
      u8[ets + L.ETS_BW + x] = p.dcb.bw[x];
    }
    // etsConfigure (assembly/ets.ts) reads the largest frame from the max-wire field at init.
    w32(ets + L.ETS_MAX_WIRE, scn.maxFrame);
  }
  // Flows.
  let mixAt = 0;
  for (const f of scn.flows) {
    const fa = a.flows + f.id * L.SF_SIZE;
    const srcPort = scn.ports[scn.nodes[f.src].ports[0]];
    w32(fa + L.SF_SRC, f.src); w32(fa + L.SF_DST, f.dst); w32(fa + L.SF_PRIO, f.priority); w32(fa + L.SF_PORT, srcPort.id);
    w32(fa + L.SF_FKIND, f.frames.kind); w32(fa + L.SF_FA, f.frames.a); w32(fa + L.SF_FB, f.frames.b);
    w32(fa + L.SF_MIXOFF, mixAt); w32(fa + L.SF_MIXN, f.frames.mix.length);
    let cum = 0;
    for (const m of f.frames.mix) {
      cum += m.weight;
      w32(a.mix + 8 * mixAt, m.bytes); w32(a.mix + 8 * mixAt + 4, cum);
      mixAt++;
    }
    w32(fa + L.SF_MIXTOT, Math.max(1, cum));
    w32(fa + L.SF_RNG, rngSeed(scn.seed >>> 0, (L.SIM_ID_SOURCE | f.id) >>> 0));
    w32(fa + L.SF_DST_ORD, flowColumn[f.id]); w32(fa + L.SF_SRC_ORD, hostOrd.get(f.src)!);
    w32(fa + L.SF_TC, srcPort.dcb.prioTc[f.priority]);
    w64(fa + L.SF_START, f.start_ps); w64(fa + L.SF_STOP, f.stop_ps); w64(fa + L.SF_LEFT, f.size > 0 ? f.size : -1);
    w64(fa + L.SF_RATE, f.rate_bps > 0 ? Math.min(f.rate_bps, srcPort.bps) : srcPort.bps);
    w64(fa + L.SF_ON, f.on_ps); w64(fa + L.SF_OFF, f.off_ps); w64(fa + L.SF_LINE_BPS, srcPort.bps);
    writeRpParams(core, fa + L.SF_RP, rpParamsOf(scn.nodes[f.src], dcqcn, Math.min(srcPort.bps, Number.MAX_SAFE_INTEGER), L));
    const np = scn.nodes[f.dst].qcn.rp;
    writeNpParams(core, fa + L.SF_NP, np.profile === 'dcqcn' ? np.cnp_interval_ps : 50e6);
  }
  // Routes.
  i32.set(route, a.route >>> 2);
  i32.set(nhWords, a.nh >>> 2);
  // Storm sources.
  scn.storms.forEach((s, i) => {
    const sa = a.storms + i * L.SS_SIZE;
    w32(sa + L.SS_PORT, scn.nodes[s.host].ports[0]); w32(sa + L.SS_PRIO, s.priority);
    w64(sa + L.SS_START, s.start_ps); w64(sa + L.SS_STOP, s.stop_ps); w64(sa + L.SS_INTERVAL, s.interval_ps);
  });

  if (core.fn<(b: number) => number>('simInit')(base) !== 0) throw new Error('simulator event queue too small at init');
  const memAfterInit = core.memoryBytes;
  const runUntil = core.fn<(t: bigint) => number>('simRunUntil');
  return {
    core, scn, base, arenaBytes, L, routes, swOrd,
    addr: { ports: a.ports, nodes: a.nodes, flows: a.flows, counters: a.counters, wdlog: a.wdlog },
    runUntil(tPs: number) {
      if (runUntil(BigInt(tPs)) !== 0) throw new Error('simulator event queue overflow (sizing bug)');
      if (core.memoryBytes !== memAfterInit) throw new Error('linear memory grew during the run');
    },
  };
}

/**
 * Reaction-point parameters of flow f (its RP record) from its source host's qcn.rp (docs/config.md),
 * and the CNP spacing of its receiver's dcqcn notification point; simInit then calls the kernels'
 * configure (host/kernels/qcn-rp.ts). When the scenario's qcn.profile differs from the node's
 * rp.profile, that profile's own defaults apply.
 */
function rpParamsOf(src: NormNode, dcqcn: boolean, lineBps: number, L: L): RpParams {
  const rp = src.qcn.rp;
  const qauPc = rp.profile === 'qau-pc';
  return {
    profile: dcqcn ? 'dcqcn' : 'qau-pc', line_bps: lineBps, bc_bytes: rp.bc_bytes, timer_ps: rp.timer_ps, th: rp.th,
    ai_bps: rp.ai_bps, hai_bps: rp.hai_bps, min_bps: rp.min_bps,
    gd_shift: qauPc ? rp.gd_shift : 7, min_dec_num: qauPc ? rp.min_dec_num : 64,
    flags: qauPc ? (rp.extra_fast_recovery ? L.QCN_RP_F_EXTRA_FR : 0) | L.QCN_RP_F_JITTER | L.QCN_RP_F_HALVING
      : dcqcn ? 0 : L.QCN_RP_F_EXTRA_FR | L.QCN_RP_F_JITTER | L.QCN_RP_F_HALVING,
    alpha_timer_ps: rp.profile === 'dcqcn' ? rp.alpha_timer_ps : 55e6,
    g_q10: 1024 >> (rp.profile === 'dcqcn' ? rp.g_shift : 8),
    alpha_init_q10: 1024,
  };
}

function hostCreditBytes(p: { bps: number; delay_ps: number; psPerByte: number }, mtu: number): number {
  // One round trip of the link plus two maximum frames, the credit-FC buffer rule (seed 000).
  return Math.ceil((2 * p.delay_ps) / p.psPerByte) + 2 * (mtu + WIRE_OVERHEAD) + 2 * (CONTROL_FRAME_BYTES + WIRE_OVERHEAD);
}

export interface RunOptions {
  onProgress?: (fraction: number) => void;
  flavour?: 'release' | 'debug';
  /** Memory budget of the run in bytes (default DEFAULT_MAX_MEMORY); see host/sim/budget.ts. */
  maxMemoryBytes?: number;
  /** The series will also be written as CSV (--out), which the budget counts too. */
  withReport?: boolean;
}

/** A run advanced one sampling interval per step(), so a caller can yield between steps. */
export interface RunStepper {
  done(): boolean;
  /** Simulates the next sampling interval and records its samples. */
  step(): void;
  /** Simulated time so far, ps. */
  now(): number;
  /** Reads the counters and returns the result (call once, when done()). */
  finish(): SimResult;
}

/** Runs a scenario to its duration and returns metrics and sampled series. */
export function runScenario(scn: Scenario, opts: RunOptions = {}): SimResult {
  const run = startRun(scn, opts);
  while (!run.done()) run.step();
  return run.finish();
}

/**
 * Builds the fabric, refuses a run whose series would not fit the memory budget (InputError naming
 * `sample`), and returns a stepper over its sampling intervals.
 */
export function startRun(scn: Scenario, opts: RunOptions = {}): RunStepper {
  const t0 = process.hrtime.bigint();
  const fab = buildFabric(scn, opts.flavour);
  const { core, L } = fab;
  const i32 = () => core.i32;
  const i64 = () => core.i64;
  const r32 = (at: number) => i32()[at >>> 2];
  const r64 = (at: number) => Number(i64()[at >>> 3]);
  const portAt = (p: number) => fab.addr.ports + p * L.SP_SIZE;
  const flowAt = (f: number) => fab.addr.flows + f * L.SF_SIZE;

  const series: SimSeries[] = [];
  const mk = (name: string, kind: SimSeries['kind'], unit: string, entity: string): SimSeries => {
    const s: SimSeries = { name, kind, unit, entity, t_ps: [], values: [] };
    series.push(s);
    return s;
  };
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
  // seed 000 Figure 3 (fast recovery halving toward TR, then TR climbing by AI and HAI steps).
  const trSeries = scn.qcn.enable ? scn.seriesFlows.map((f) => mk(`target rate flow ${f}`, 'rate', 'Gb/s', `flow ${f}`)) : [];
  // Every series is known now: refuse before the first sample if they cannot be held.
  const withReport = opts.withReport ?? false;
  checkBudget(runFootprint(scn, series, fab.arenaBytes, withReport), opts.maxMemoryBytes ?? DEFAULT_MAX_MEMORY, withReport);

  // Paused time of priority pr at port p up to `now`: the PFC kernel's own pfcPausedPs (closed
  // intervals plus the running one); on a port in PAUSE mode the port unit pauses every priority.
  const pfcPausedPs = core.fn<(rec: number, unit: number, now: bigint) => bigint>('pfcPausedPs');
  const pausedPs = (p: number, now: number, pr: number) =>
    Number(pfcPausedPs(portAt(p) + L.SP_PFC, pauseMode[p] ? L.PFC_PORT_UNIT : pr, BigInt(now)));
  const lastDeliv = scn.seriesFlows.map(() => 0);
  // ETS share accounting over saturated intervals.
  const etsPorts = scn.ports.filter((p) => p.dcb.tsa.filter((t, tc) => t === 2 && p.dcb.bw[tc] > 0).length >= 2);
  const etsLast = etsPorts.map(() => new Array<number>(8).fill(0));
  const etsAcc = etsPorts.map(() => new Array<number>(8).fill(0));

  // Deadlock watch over the ports that sit on a cycle of a lossless dependency graph (none: no cost).
  const deadlock = new DeadlockMonitor(dependencyGraphs(scn, { routes: fab.routes, swOrd: fab.swOrd }), (p) => scn.ports[p].name, (p, pr) => scn.ports[p].dcb.prioTc[pr], scn.deadlock_threshold_ps);
  const probe: PortProbe = {
    pausedPs,
    txBytes: (p, tc) => r64(portAt(p) + L.SP_TX_BYTES_TC + 8 * tc),
    queuedBytes: (p, tc) => r32(portAt(p) + L.SP_QBYTES + 4 * tc),
  };

  // Each flow's measurement window ends at its stop (or the run's end): the bytes delivered by
  // then are what its throughput counts, not the queue draining afterwards (docs/reports.md).
  // An end inside a sampling interval gets a runUntil of its own; the engine only processes
  // events up to the time given, so the extra boundary changes nothing else.
  const windowEnd = scn.flows.map((f) => Math.min(scn.duration_ps, f.stop_ps));
  const deliveredAtEnd: (number | undefined)[] = scn.flows.map(() => undefined);
  const endsDue = scn.flows.map((f) => f.id).filter((f) => windowEnd[f] < scn.duration_ps).sort((x, y) => windowEnd[x] - windowEnd[y] || x - y);
  let nextEnd = 0;
  const snapshotEnds = (upTo: number) => {
    while (nextEnd < endsDue.length && windowEnd[endsDue[nextEnd]] <= upTo) {
      const f = endsDue[nextEnd++];
      if (windowEnd[f] > t) fab.runUntil(windowEnd[f]);
      deliveredAtEnd[f] = r64(flowAt(f) + L.SF_DELIV);
    }
  };

  let t = 0;
  const step = () => {
    const next = Math.min(scn.duration_ps, t + scn.sample_ps);
    snapshotEnds(next);
    fab.runUntil(next);
    const dt = next - t;
    t = next;
    scn.seriesPorts.forEach((p, i) => {
      qSeries[i].t_ps.push(t);
      qSeries[i].values.push(r32(portAt(p) + L.SP_QTOTAL));
    });
    for (const q of tcSeries) {
      q.s.t_ps.push(t);
      q.s.values.push(r32(q.at));
    }
    for (const ps of pSeries) {
      const tot = pausedPs(ps.p, t, ps.pr);
      ps.s.t_ps.push(t);
      ps.s.values.push(round3((100 * (tot - ps.last)) / dt));
      ps.last = tot;
    }
    scn.seriesFlows.forEach((f, i) => {
      const fa = flowAt(f);
      const d = r64(fa + L.SF_DELIV);
      fSeries[i].t_ps.push(t);
      fSeries[i].values.push(round3(((d - lastDeliv[i]) * 8) / dt * 1000)); // bytes/ps -> Gb/s
      lastDeliv[i] = d;
      if (rSeries.length) {
        const active = r32(fa + L.SF_RP + L.QCN_RP_ACTIVE) !== 0;
        rSeries[i].t_ps.push(t);
        rSeries[i].values.push(round3((active ? r64(fa + L.SF_RP + L.QCN_RP_CR) : r64(fa + L.SF_LINE_BPS)) / 1e9));
        trSeries[i].t_ps.push(t);
        trSeries[i].values.push(round3((active ? r64(fa + L.SF_RP + L.QCN_RP_TR) : r64(fa + L.SF_LINE_BPS)) / 1e9));
      }
    });
    etsPorts.forEach((p, i) => {
      const pa = portAt(p.id);
      const dcb = p.dcb;
      const now = new Array<number>(8).fill(0).map((_, tc) => r64(pa + L.SP_TX_BYTES_TC + 8 * tc));
      const delta = now.map((v, tc) => v - etsLast[i][tc]);
      const weighted = delta.reduce((s, v, tc) => s + (dcb.tsa[tc] === 2 && dcb.bw[tc] > 0 ? v : 0), 0);
      // Saturated: every weighted ETS TC was eligible at every selection and the port sent enough
      // for the DRR round to matter (at least 8 maximum frames).
      if (r32(pa + L.SP_UNSAT) === 0 && weighted >= 8 * (scn.maxFrame + WIRE_OVERHEAD)) delta.forEach((v, tc) => { etsAcc[i][tc] += v; });
      i32()[(pa + L.SP_UNSAT) >>> 2] = 0;
      etsLast[i] = now;
    });
    deadlock.observe(t, dt, probe);
    opts.onProgress?.(t / scn.duration_ps);
  };

  const finish = (): SimResult => {
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;

    const c = (field: number) => r64(fab.addr.counters + field);
    const hops = c(L.SC_HOPS);
    const events = c(L.SC_EVENTS);
    const byPrio = Array.from({ length: 8 }, (_, p) => c(L.SC_DROP_PRIO + 8 * p));
    const pausedByPort: { port: string; paused_ps_by_priority: number[] }[] = [];
    const pausedByPrio = new Array<number>(8).fill(0);
    for (const p of scn.ports) {
      const v = Array.from({ length: 8 }, (_, pr) => pausedPs(p.id, scn.duration_ps, pr));
      v.forEach((x, pr) => { pausedByPrio[pr] += x; });
      if (v.some((x) => x > 0)) pausedByPort.push({ port: p.name, paused_ps_by_priority: v });
    }

    // XOFF (incl. refreshes) and XON generated by the PFC kernel of every port, all units.
    let xoffSent = 0;
    let xonSent = 0;
    for (const p of scn.ports) {
      const rec = portAt(p.id) + L.SP_PFC;
      for (let u = 0; u < 9; u++) {
        xoffSent += r64(rec + L.PFC_XOFF_TX + 8 * u);
        xonSent += r64(rec + L.PFC_XON_TX + 8 * u);
      }
    }
    const perTc: SimSummary['ets']['per_tc'] = [];
    let maxErr: number | null = null;
    etsPorts.forEach((p, i) => {
      const dcb = p.dcb;
      const tcs = [0, 1, 2, 3, 4, 5, 6, 7].filter((tc) => dcb.tsa[tc] === 2 && dcb.bw[tc] > 0);
      const tot = tcs.reduce((s, tc) => s + etsAcc[i][tc], 0);
      if (tot === 0) return;
      const bwTot = tcs.reduce((s, tc) => s + dcb.bw[tc], 0);
      for (const tc of tcs) {
        const configured = (100 * dcb.bw[tc]) / bwTot;
        const measured = (100 * etsAcc[i][tc]) / tot;
        perTc.push({ port: p.name, tc, configured_pct: round3(configured), measured_pct: round3(measured) });
        maxErr = Math.max(maxErr ?? 0, Math.abs(measured - configured));
      }
    });

    const flows: SimFlowResult[] = scn.flows.map((f) => {
      const fa = flowAt(f.id);
      const delivered = r64(fa + L.SF_DELIV);
      const done = f.size > 0 && delivered >= f.size;
      const fct = done ? r64(fa + L.SF_LAST_DELIV) - f.start_ps : null;
      // Window: start to completion for a finished sized flow, else start to stop (or the run's end).
      const window = fct ?? Math.max(1, windowEnd[f.id] - f.start_ps);
      const inWindow = fct === null ? deliveredAtEnd[f.id] ?? delivered : delivered;
      const out: SimFlowResult = {
        id: f.id, src: scn.nodes[f.src].name, dst: scn.nodes[f.dst].name, priority: f.priority,
        bytes_sent: r64(fa + L.SF_SENT), bytes_delivered: delivered, start_ps: f.start_ps, fct_ps: fct,
        throughput_bps: window > 0 ? Math.round((inWindow * 8 * 1e12) / window) : 0,
        window_ps: window,
      };
      if (f.victim) out.victim = true;
      return out;
    });
    // Links carrying traffic: wire bytes of data frames each port sent over what its rate carries in the run.
    const links: NonNullable<SimSummary['throughput']>['links'] = [];
    for (const p of scn.ports) {
      let bytes = 0;
      for (let tc = 0; tc < 8; tc++) bytes += r64(portAt(p.id) + L.SP_TX_BYTES_TC + 8 * tc);
      // A frame is counted when it starts; the part still on the wire at the end is not yet sent.
      bytes -= (Math.max(0, r64(portAt(p.id) + L.SP_BUSY_UNTIL) - scn.duration_ps) * p.bps) / 8e12;
      if (bytes === 0) continue;
      const bps = Math.round((bytes * 8 * 1e12) / scn.duration_ps);
      links.push({ port: p.name, rate_bps: p.bps, sent_bps: bps, utilisation_pct: round3((100 * bps) / p.bps) });
    }
    const totalBytes = flows.reduce((a, f) => a + f.bytes_delivered, 0);
    const throughput = { total_bps: Math.round((totalBytes * 8 * 1e12) / scn.duration_ps), links };
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

    const summary: SimSummary & { drops: SimSummary['drops'] & { pool_exhausted: number }; credit: { grants: number } } = {
      scenario: { name: scn.name, seed: scn.seed, duration_ps: scn.duration_ps, sample_ps: scn.sample_ps },
      sim: { packet_hops: hops, events, wall_s: round3(wall), packet_hops_per_s: wall > 0 ? Math.round(hops / wall) : 0 },
      drops: { lossless: c(L.SC_DROP_LOSSLESS), lossy: c(L.SC_DROP_LOSSY), by_priority: byPrio, pool_exhausted: c(L.SC_POOL_EXHAUSTED) },
      pfc: { xoff_sent: xoffSent + c(L.SC_STORM_XOFF), xon_sent: xonSent, paused_ps_by_priority: pausedByPrio, pause_frames: c(L.SC_PAUSE_FRAMES), paused_ps_by_port: pausedByPort },
      qcn: { cnms: c(L.SC_CNMS) },
      credit: { grants: c(L.SC_GRANTS) },
      ets: { max_share_error_pp: maxErr === null ? null : round3(maxErr), per_tc: perTc },
      fairness: { jain },
      throughput,
      flows,
      watchdog,
      deadlock: deadlock.found,
    };
    return { summary, series };
  };
  return { done: () => t >= scn.duration_ps, step, now: () => t, finish };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
