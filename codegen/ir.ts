// Code-generation intermediate representation: everything a hardware or OS target needs, computed
// once from a validated DCB config (docs/design.md §5 keys) and a device description. Every emitter in
// codegen/ reads only this IR, so all targets agree on the same numbers.
//
// Standards: 802.1Qaz ETS (prio -> TC, TSA, bandwidth %; higher TC = strict precedence), 802.1Qbb
// PFC (per-priority enable; XOFF/XON/headroom per priority group, headroom from host/analysis/headroom.ts),
// DCQCN ECN marking (Kmin/Kmax/Pmax) and QCN CP (Qeq, w), SONiC PFC watchdog semantics.
//
// Invariants of a built IR:
//  - prioTc[p] in 0..7; tcs[t].priorities lists exactly the p with prioTc[p] = t;
//  - ETS TC bandwidths are the config's (integers summing to 100; non-ETS TCs 0); the wire frame
//    (MTU + 20), quantumUnit = ceil(max wire frame / min non-zero bw) and every quantumBytes are
//    the core's own (assembly/ets.ts etsConfigure), so every non-zero quantum >= one frame;
//  - a used TC has a queue in 0..queues-1 when the device has enough queues (else a problem);
//  - thresholds and headroom are whole buffer cells; each rounding is listed in `quantisation`.
import type { Device } from './device.js';
import { InputError } from '../host/errors/errors.js';
import type { DcbConfig, EtsTables, TsaName } from '../host/config/index.js';
import { Core } from '../host/core/loader.js';
import { EtsHarness, TSA_CODE } from '../host/core/ets.js';

export type Tsa = TsaName;
export type WatchdogAction = 'drop' | 'forward' | 'alert';

export interface HeadroomArgs {
  speedBps: number;
  cableM: number;
  mtu: number;
  profile: 'ieee' | 'sonic';
}
/** Headroom in bytes for one lossless priority group (host/analysis/headroom.ts). */
export type HeadroomFn = (args: HeadroomArgs) => number;

export interface IrEcn {
  /** DCQCN marking: probability 0 below kmin, rising linearly to pmax at kmax, 1 above. */
  kminBytes: number;
  kmaxBytes: number;
  pmaxPercent: number;
  /** QCN congestion point equilibrium and weight (802.1Qau). */
  qEqBytes: number;
  w: number;
}

export interface IrTc {
  tc: number;
  used: boolean;
  tsa: Tsa;
  /** 802.1Qaz TSA code (0 strict, 1 cbs, 2 ets, 255 vendor), as the core and the TLVs use it. */
  tsaCode: number;
  bwPercent: number;
  quantumBytes: number;
  /** Egress queue, -1 when the TC is unused or the device has too few queues. */
  queue: number;
  priorities: number[];
  /** Every priority of the TC has PFC on (a mixed TC is lossless=false and listed in mixedTcs). */
  lossless: boolean;
  pg: number;
  ecn: IrEcn | null;
}

export interface IrPg {
  pg: number;
  lossless: boolean;
  tcs: number[];
  priorities: number[];
  /** Occupancy at or below which XON is sent. */
  xonBytes: number;
  /** Occupancy at or above which XOFF is sent. */
  xoffBytes: number;
  /** Buffer reserved above the XOFF trigger for data in flight (cell-rounded). */
  headroomBytes: number;
  /** Reserved per PG: xoff trigger + headroom (0 for lossy PGs, which use the shared pool). */
  sizeBytes: number;
}

export interface IrPort {
  name: string;
  index: number;
  speedBps: number;
  cableM: number;
  lanes: string;
  pgs: IrPg[];
}

export interface IrApp {
  selector: 'ethertype' | 'stream' | 'dgram' | 'any' | 'dscp';
  /** 802.1Qaz selector code: 1 EtherType, 2 TCP/SCTP, 3 UDP/DCCP, 4 any port, 5 DSCP. */
  selectorCode: number;
  protocol: number;
  priority: number;
}

export interface Quantisation {
  target: string;
  path: string;
  quantity: string;
  wanted: number;
  got: number;
  unit: string;
  error: number;
}

export interface IrProblem {
  /** Targets that cannot express this (a problem for every other target is not one). */
  targets: string[];
  path: string;
  rule: string;
}

export interface Ir {
  device: Device;
  mac: string;
  mtu: number;
  maxWireFrameBytes: number;
  cellBytes: number;
  prioTc: number[];
  tcs: IrTc[];
  tcPg: number[];
  ets: { willing: boolean; cbs: boolean; maxTcs: number; recommendation: { prioTc: number[]; tsa: Tsa[]; bwPercent: number[] } | null };
  /** DCBX flavour for the LLDPDU: the device's choice, or CEE when the config gave the CEE pg view. */
  dcbxMode: 'ieee' | 'cee';
  /** The CEE priority-group view as given in the config (advertised as is in CEE mode). */
  pg: { willing: boolean; prio_pgid: number[]; pg_bw: number[] } | null;
  /** Credit-based flow control as advertised in the DCBX CET TLV (only the lldp target uses it). */
  credit: { priorities: number[]; unit: number; aging_us: number; counter_bits: number; oui: string } | null;
  quantumUnitBytes: number;
  pfc: { enabled: boolean[]; cap: number; mbc: boolean; willing: boolean; pauseTime: number };
  app: IrApp[];
  /** DSCP 0..63 -> priority from the APP DSCP entries (the first one), null when none. */
  dscpPrio: (number | null)[];
  /** DSCP 0..63 -> TC (dscpPrio through prioTc; unmapped code points take priority 0's TC). */
  dscpTc: number[];
  watchdog: { enabled: boolean; detectionMs: number; restorationMs: number; pollMs: number; action: WatchdogAction };
  ports: IrPort[];
  quantisation: Quantisation[];
  problems: IrProblem[];
  /** Config settings no target represents (reported in the manifest, never silently dropped). */
  omitted: { path: string; reason: string }[];
}

/**
 * Integer shares that sum to `total`, by cumulative rounding as the kernel's ETS offload does
 * (sch_ets.c ets_offload_change): w_psum = q_psum * total / q_sum; share = w_psum - previous.
 * Zero inputs get zero; an all-zero input gives all zeros.
 */
export function cumulativeRound(values: readonly number[], total: number): number[] {
  const sum = values.reduce((a, b) => a + b, 0);
  if (sum === 0) return values.map(() => 0);
  let psum = 0;
  let prev = 0;
  return values.map((v) => {
    psum += v;
    const w = Math.floor((psum * total) / sum);
    const share = w - prev;
    prev = w;
    return share;
  });
}

export function roundUpTo(bytes: number, unit: number): number {
  return Math.ceil(bytes / unit) * unit;
}

// The core's own ETS configuration (assembly/ets.ts etsConfigure) gives the wire frame, the quantum
// unit and every quantum, so codegen and the simulator cannot disagree on them. One core instance
// serves every build (its scratch ETS record is rewritten each time).
let etsCore: Core | undefined;
function coreEtsQuanta(ets: EtsTables, mtu: number): { maxWireFrameBytes: number; quantumUnitBytes: number; quantumBytes: number[] } {
  etsCore ??= new Core('release');
  const h = new EtsHarness(etsCore, ets, mtu);
  const snap = h.snapshot();
  return { maxWireFrameBytes: etsCore.getI32(h.rec + etsCore.constant('ETS_MAX_WIRE')), quantumUnitBytes: snap.q_unit, quantumBytes: snap.quantum };
}

export interface BuildIrOptions {
  headroom: HeadroomFn;
}

/**
 * Builds the IR from the normalised config `parseConfig` returns (the one `validate` prints: every
 * default filled, `ets` derived from a CEE `pg` view); problems a target cannot express are
 * collected in `ir.problems`, not thrown.
 */
export function buildIr(cfg: DcbConfig, device: Device, opts: BuildIrOptions): Ir {
  const problems: IrProblem[] = [];
  const quantisation: Quantisation[] = [];
  const mtu = cfg.port.mtu;
  const cell = device.cell_bytes;
  const view = { prioTc: cfg.ets.prio_tc, tsa: cfg.ets.tsa, bw: cfg.ets.bw };

  // The parser guarantees integer ETS bandwidths summing to 100 (0 for other TSAs).
  const { maxWireFrameBytes, quantumUnitBytes, quantumBytes } = coreEtsQuanta(cfg.ets, mtu);

  const pfcEnabled = Array.from({ length: 8 }, (_, p) => cfg.pfc.enable.includes(p));
  const usedTcs = [...new Set(view.prioTc)].sort((a, b) => a - b);

  // TC -> queue: identity when the device has a queue per TC number; otherwise used TCs take
  // queues 0.. in ascending TC order, which keeps strict precedence (higher TC, higher queue).
  const queues = device.queues_per_port;
  const tcQueue = Array(8).fill(-1);
  if (usedTcs.length > queues) {
    problems.push({
      targets: ['sonic', 'p4', 'linux', 'c-header', 'dpdk'],
      path: 'ets.prio_tc',
      rule: `uses ${usedTcs.length} traffic classes but device ${device.name} has ${queues} queues per port`,
    });
  } else if (usedTcs[usedTcs.length - 1] < queues) {
    for (const t of usedTcs) tcQueue[t] = t;
  } else {
    usedTcs.forEach((t, i) => (tcQueue[t] = i));
  }

  // TC -> PG: a lossless TC gets the PG of its own number; lossy TCs share the lowest PG no
  // lossless TC uses. A TC whose priorities mix PFC on and off cannot be given a PG that is both.
  const losslessTc = (t: number) => view.prioTc.some((tc, p) => tc === t && pfcEnabled[p]);
  const mixedTc = (t: number) => view.prioTc.some((tc, p) => tc === t && pfcEnabled[p]) && view.prioTc.some((tc, p) => tc === t && !pfcEnabled[p]);
  for (const t of usedTcs) {
    if (mixedTc(t)) {
      const on = view.prioTc.flatMap((tc, p) => (tc === t && pfcEnabled[p] ? [p] : []));
      const off = view.prioTc.flatMap((tc, p) => (tc === t && !pfcEnabled[p] ? [p] : []));
      problems.push({
        targets: ['sonic', 'linux', 'c-header', 'p4'],
        path: 'pfc.enable',
        rule: `lossless priority ${on.join(',')} shares TC ${t} and so its priority group with lossy priority ${off.join(',')}`,
      });
    }
  }
  const losslessTcs = usedTcs.filter(losslessTc);
  const lossyPg = [0, 1, 2, 3, 4, 5, 6, 7].find((g) => !losslessTcs.includes(g)) ?? 0;
  const tcPg = Array.from({ length: 8 }, (_, t) => (losslessTc(t) ? t : lossyPg));
  const pgsNeeded = new Set(usedTcs.map((t) => tcPg[t]));
  const maxPg = Math.max(...pgsNeeded);
  if (maxPg >= device.pgs_per_port) {
    problems.push({
      targets: ['sonic', 'linux', 'c-header', 'p4'],
      path: 'pfc.enable',
      rule: `needs priority group ${maxPg} but device ${device.name} has ${device.pgs_per_port} per port`,
    });
  }

  // ECN/QCN marking on TCs that carry a congestion-point priority.
  const cp = cfg.qcn.cp;
  const cpPrios = cp.priorities;
  const ecnFor = (t: number): IrEcn | null => {
    if (!view.prioTc.some((tc, p) => tc === t && cpPrios.includes(p))) return null;
    const want = { kminBytes: cp.kmin, kmaxBytes: cp.kmax, qEqBytes: cp.q_eq };
    const got = { kminBytes: roundUpTo(want.kminBytes, cell), kmaxBytes: roundUpTo(want.kmaxBytes, cell), qEqBytes: roundUpTo(want.qEqBytes, cell) };
    for (const [k, key] of [['kminBytes', 'kmin'], ['kmaxBytes', 'kmax'], ['qEqBytes', 'q_eq']] as const) {
      if (got[k] !== want[k]) quantisation.push({ target: 'ir', path: `qcn.cp.${key}`, quantity: `${key === 'q_eq' ? 'QCN' : 'ECN'} ${key} of TC ${t} to whole cells of ${cell} B`, wanted: want[k], got: got[k], unit: 'B', error: got[k] - want[k] });
    }
    return { ...got, pmaxPercent: cp.pmax, w: cp.w };
  };

  const tcs: IrTc[] = Array.from({ length: 8 }, (_, t) => ({
    tc: t,
    used: usedTcs.includes(t),
    tsa: view.tsa[t],
    tsaCode: TSA_CODE[view.tsa[t]],
    bwPercent: view.bw[t],
    // A 0 % ETS TC has no share (the core serves it only when no other ETS TC is backlogged, with
    // one frame as its quantum among such TCs): no target has that class, so its quantum is 0 here.
    quantumBytes: view.tsa[t] === 'ets' && view.bw[t] > 0 ? quantumBytes[t] : 0,
    queue: tcQueue[t],
    priorities: view.prioTc.flatMap((tc, p) => (tc === t ? [p] : [])),
    lossless: losslessTc(t) && !mixedTc(t),
    pg: tcPg[t],
    ecn: ecnFor(t),
  }));

  // Ports: the device's, or the config's own port at index 0.
  const devicePorts = device.ports.length
    ? device.ports.map((p) => ({ name: p.name, index: p.index, speed: p.speed, cable: p.cable, lanes: p.lanes }))
    : [{ name: cfg.port.name, index: 0, speed: cfg.port.speed, cable: cfg.port.cable, lanes: undefined as string | undefined }];
  // The headroom model's input errors (a speed it has no constants for) name the port.
  const headroomOf = (port: string, args: HeadroomArgs): number => {
    try {
      return opts.headroom(args);
    } catch (e) {
      if (e instanceof InputError) throw new InputError(e.problems.map((q) => ({ path: `ports.${port}.${q.path}`, rule: `headroom: ${q.rule}` })));
      throw e;
    }
  };
  const xonWanted = cfg.pfc.xon;
  const xoffWanted = cfg.pfc.xoff;
  const xon = roundUpTo(xonWanted, cell);
  const xoff = roundUpTo(xoffWanted, cell);
  if (losslessTcs.length && xon !== xonWanted) quantisation.push({ target: 'ir', path: 'pfc.xon', quantity: `XON threshold to whole cells of ${cell} B`, wanted: xonWanted, got: xon, unit: 'B', error: xon - xonWanted });
  if (losslessTcs.length && xoff !== xoffWanted) quantisation.push({ target: 'ir', path: 'pfc.xoff', quantity: `XOFF threshold to whole cells of ${cell} B`, wanted: xoffWanted, got: xoff, unit: 'B', error: xoff - xoffWanted });
  let reserved = 0;
  const ports: IrPort[] = devicePorts.map((p, pi) => {
    const speedBps = p.speed;
    const cableM = p.cable;
    const pgs: IrPg[] = [...pgsNeeded].sort((a, b) => a - b).map((g) => {
      const pgTcs = usedTcs.filter((t) => tcPg[t] === g);
      const lossless = pgTcs.every((t) => tcs[t].lossless) && pgTcs.some((t) => losslessTc(t));
      let headroomBytes = 0;
      if (lossless) {
        const fixed = typeof cfg.pfc.headroom === 'number' ? cfg.pfc.headroom : undefined;
        const raw = fixed ?? headroomOf(p.name, { speedBps, cableM, mtu, profile: device.headroom_profile });
        headroomBytes = roundUpTo(raw, cell);
        if (headroomBytes !== raw) quantisation.push({ target: 'ir', path: `ports[${pi}].pg[${g}].headroom`, quantity: `headroom to whole cells of ${cell} B`, wanted: raw, got: headroomBytes, unit: 'B', error: headroomBytes - raw });
      }
      const pg: IrPg = {
        pg: g,
        lossless,
        tcs: pgTcs,
        priorities: view.prioTc.flatMap((tc, pr) => (pgTcs.includes(tc) ? [pr] : [])),
        xonBytes: lossless ? xon : 0,
        xoffBytes: lossless ? xoff : 0,
        headroomBytes,
        sizeBytes: lossless ? xoff + headroomBytes : 0,
      };
      reserved += pg.sizeBytes;
      return pg;
    });
    // SONiC PORT.lanes is mandatory; without a device value, four lanes per port index.
    const lanes = p.lanes ?? [0, 1, 2, 3].map((k) => p.index * 4 + k).join(',');
    return { name: p.name, index: p.index, speedBps, cableM, lanes, pgs };
  });
  if (reserved > device.buffer_bytes) {
    problems.push({
      targets: ['sonic', 'c-header', 'p4', 'linux'],
      path: 'pfc.enable',
      rule: `lossless reservations need ${reserved} B over all ports but device ${device.name} has ${device.buffer_bytes} B of buffer`,
    });
  }

  const app: IrApp[] = cfg.app.map((a) => ({ selector: a.selector_name, selectorCode: a.selector, protocol: a.protocol, priority: a.priority }));
  // A DSCP classifier holds one priority per code point; APP may list several (devices differ in
  // which they use), so two different priorities for one DSCP stop the classifier targets.
  const dscpPrio: (number | null)[] = Array(64).fill(null);
  app.forEach((a, i) => {
    if (a.selector !== 'dscp' || a.protocol >= 64) return;
    const before = dscpPrio[a.protocol];
    if (before !== null && before !== a.priority) {
      problems.push({ targets: ['sonic', 'p4', 'c-header'], path: `app[${i}]`, rule: `DSCP ${a.protocol} is mapped to priorities ${before} and ${a.priority}; a DSCP classifier holds one` });
    }
    if (before === null) dscpPrio[a.protocol] = a.priority;
  });
  const dscpTc = dscpPrio.map((p) => view.prioTc[p ?? 0]);

  const omitted: Ir['omitted'] = [];
  if (cfg.pause.enable) omitted.push({ path: 'pause.enable', reason: '802.3x PAUSE is a MAC setting outside the QoS tables of these targets' });
  if (cfg.credit.priorities.length) omitted.push({ path: 'credit.priorities', reason: 'credit-based flow control has no representation in SONiC, P4Runtime, Linux dcb or the register map (only the lldp target advertises it, in the CET TLV)' });
  if (cfg.qcn.cp.priorities.length) omitted.push({ path: 'qcn.rp', reason: 'reaction-point parameters belong to the NIC rate limiter, not to these switch/host tables' });
  const wd = cfg.pfc.watchdog;
  const rec = cfg.ets.recommendation;
  return {
    device,
    mac: cfg.port.mac,
    mtu,
    maxWireFrameBytes,
    cellBytes: cell,
    prioTc: view.prioTc,
    tcs,
    tcPg,
    ets: {
      willing: cfg.ets.willing,
      cbs: cfg.ets.cbs,
      maxTcs: cfg.ets.max_tcs,
      recommendation: rec ? { prioTc: [...rec.prio_tc], tsa: [...rec.tsa], bwPercent: [...rec.bw] } : null,
    },
    dcbxMode: device.dcbx === 'auto' ? (cfg.pg ? 'cee' : 'ieee') : device.dcbx,
    pg: cfg.pg ? { willing: cfg.pg.willing, prio_pgid: [...cfg.pg.prio_pgid], pg_bw: [...cfg.pg.pg_bw] } : null,
    credit: cfg.credit.priorities.length
      ? { priorities: [...cfg.credit.priorities], unit: cfg.credit.unit, aging_us: cfg.credit.aging_us, counter_bits: cfg.credit.counter_bits, oui: cfg.credit.oui }
      : null,
    quantumUnitBytes,
    pfc: {
      enabled: pfcEnabled,
      cap: cfg.pfc.cap,
      mbc: cfg.pfc.mbc,
      willing: cfg.pfc.willing,
      pauseTime: cfg.pfc.pause_time,
    },
    app,
    dscpPrio,
    dscpTc,
    watchdog: {
      enabled: wd.enable,
      detectionMs: wd.detection_ms,
      restorationMs: wd.restoration_ms,
      pollMs: wd.poll_ms,
      action: wd.action,
    },
    ports,
    quantisation,
    problems,
    omitted,
  };
}

/** Problems of the IR that `target` cannot express, as `target: path: rule` problems. */
export function irProblemsFor(ir: Ir, target: string): { path: string; rule: string }[] {
  return ir.problems
    .filter((p) => p.targets.includes('*') || p.targets.includes(target))
    .map((p) => ({ path: `${target}: ${p.path}`, rule: p.rule }));
}
