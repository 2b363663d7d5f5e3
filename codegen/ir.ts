// Code-generation intermediate representation: everything a hardware or OS target needs, computed
// once from a validated DCB config (DESIGN.md §5 keys) and a device description. Every emitter in
// codegen/ reads only this IR, so all targets agree on the same numbers.
//
// Standards: 802.1Qaz ETS (prio -> TC, TSA, bandwidth %; higher TC = strict precedence), 802.1Qbb
// PFC (per-priority enable; XOFF/XON/headroom per priority group, headroom from host/headroom.ts),
// DCQCN ECN marking (Kmin/Kmax/Pmax) and QCN CP (Qeq, w), SONiC PFC watchdog semantics.
//
// Invariants of a built IR:
//  - prioTc[p] in 0..7; tcs[t].priorities lists exactly the p with prioTc[p] = t;
//  - ETS TC bandwidths are integers summing to 100 (cumulative rounding, like the kernel's ETS
//    offload), non-ETS TCs have 0; quantumBytes = bw x quantumUnit with
//    quantumUnit = ceil(max wire frame / min non-zero bw), so every non-zero quantum >= one frame;
//  - a used TC has a queue in 0..queues-1 when the device has enough queues (else a problem);
//  - thresholds and headroom are whole buffer cells; each rounding is listed in `quantisation`.
import type { Device } from './device.js';
import { InputError } from '../host/errors.js';

export type Tsa = 'strict' | 'ets' | 'vendor' | 'cbs';
export type WatchdogAction = 'drop' | 'forward' | 'alert';

/** The config fields code generation reads (DESIGN.md §5 key names), as the config loader yields them. */
export interface CodegenConfig {
  port: { name: string; speed: string | number; mtu?: number; cable?: string | number; mac?: string };
  ets?: {
    willing?: boolean;
    cbs?: boolean;
    max_tcs?: number;
    prio_tc: number[];
    tsa: string[];
    bw: number[];
    recommendation?: { prio_tc: number[]; tsa: string[]; bw: number[] };
  };
  pg?: { willing?: boolean; prio_pgid: number[]; pg_bw: number[] };
  pfc?: {
    enable?: number[];
    willing?: boolean;
    mbc?: boolean;
    cap?: number;
    pause_time?: number;
    headroom?: 'auto' | number;
    /** Ingress occupancy (bytes) at which XOFF is sent / at or below which XON is sent. */
    xoff?: number;
    xon?: number;
    watchdog?: { enable?: boolean; detection_ms?: number; restoration_ms?: number; poll_ms?: number; action?: WatchdogAction };
  };
  app?: { selector: string | number; selector_name?: string; protocol: number; priority: number }[];
  qcn?: {
    cp?: { priorities?: number[]; q_eq?: number; w?: number; kmin?: number; kmax?: number; pmax?: number };
    rp?: { profile?: string };
  };
  pause?: { enable?: boolean };
  credit?: { priorities?: number[]; unit?: number; aging_us?: number; counter_bits?: number; oui?: string };
}

export interface HeadroomArgs {
  speedBps: number;
  cableM: number;
  mtu: number;
  profile: 'ieee' | 'sonic';
}
/** Headroom in bytes for one lossless priority group (host/headroom.ts). */
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
  credit: { priorities: number[]; unit: number; aging_us: number; counter_bits?: number; oui?: string } | null;
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

// Defaults chosen where the config is silent; each is documented in docs/codegen.md.
export const DCQCN_DEFAULTS = { kminBytes: 5 * 1024, kmaxBytes: 200 * 1024, pmaxPercent: 1 }; // Zhu et al. 2015
export const QCN_DEFAULTS = { qEqBytes: 26000, w: 2 }; // DESIGN.md §4.4
export const WATCHDOG_DEFAULTS = { detectionMs: 200, restorationMs: 400, pollMs: 200, action: 'drop' as WatchdogAction };
export const ETH_WIRE_OVERHEAD = 20; // preamble + SFD 8, IFG 12 (DESIGN.md §2)

const SPEEDS: Record<string, number> = {
  '1G': 1e9, '10G': 10e9, '25G': 25e9, '40G': 40e9, '50G': 50e9, '100G': 100e9, '200G': 200e9, '400G': 400e9, '800G': 800e9,
};

export function speedToBps(speed: string | number): number {
  if (typeof speed === 'number') return speed;
  const s = speed.trim().toUpperCase().replace(/BPS$/, '');
  if (s in SPEEDS) return SPEEDS[s];
  const m = /^(\d+)(G|M)?$/.exec(s);
  if (!m) throw new Error(`unparsed speed ${speed}`);
  return Number(m[1]) * (m[2] === 'G' ? 1e9 : m[2] === 'M' ? 1e6 : 1);
}

export function cableToMetres(cable: string | number | undefined): number {
  if (cable === undefined) return 0;
  if (typeof cable === 'number') return cable;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(m|km)?\s*$/i.exec(cable);
  if (!m) throw new Error(`unparsed cable length ${cable}`);
  return Number(m[1]) * (m[2]?.toLowerCase() === 'km' ? 1000 : 1);
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

const SELECTORS: Record<string, { name: IrApp['selector']; code: number }> = {
  ethertype: { name: 'ethertype', code: 1 }, '1': { name: 'ethertype', code: 1 },
  stream: { name: 'stream', code: 2 }, '2': { name: 'stream', code: 2 },
  dgram: { name: 'dgram', code: 3 }, '3': { name: 'dgram', code: 3 },
  any: { name: 'any', code: 4 }, '4': { name: 'any', code: 4 },
  dscp: { name: 'dscp', code: 5 }, '5': { name: 'dscp', code: 5 },
};

function tsaOf(s: string): Tsa {
  const t = s.toLowerCase();
  if (t === 'strict' || t === 'ets' || t === 'vendor' || t === 'cbs') return t;
  throw new Error(`unknown TSA ${s}`);
}

/** The ETS view (prio -> TC, TSA, bw) from either `ets` or the CEE `pg` view of the config. */
function etsView(cfg: CodegenConfig, problems: IrProblem[]): { prioTc: number[]; tsa: Tsa[]; bw: number[] } {
  if (cfg.ets) return { prioTc: [...cfg.ets.prio_tc], tsa: cfg.ets.tsa.map(tsaOf), bw: [...cfg.ets.bw] };
  if (cfg.pg) {
    // CEE priority groups: PGID 0..7 become TCs 0..7 with PG % as ETS bandwidth; PGID 15 (link
    // strict) becomes the highest TC no PG uses, with TSA strict.
    const usedPg = new Set(cfg.pg.prio_pgid.filter((g) => g <= 7));
    let strictTc = -1;
    for (let t = 7; t >= 0; t--) if (!usedPg.has(t)) { strictTc = t; break; }
    const tsa: Tsa[] = Array(8).fill('ets');
    const bw = [...cfg.pg.pg_bw];
    if (cfg.pg.prio_pgid.includes(15)) {
      if (strictTc < 0) {
        problems.push({ targets: ['*'], path: 'pg.prio_pgid', rule: 'PGID 15 needs a TC no other PG uses; all 8 are taken' });
        strictTc = 7;
      }
      tsa[strictTc] = 'strict';
      bw[strictTc] = 0;
    }
    return { prioTc: cfg.pg.prio_pgid.map((g) => (g === 15 ? strictTc : g)), tsa, bw };
  }
  // No ETS config: every priority in TC 0, one ETS TC with the whole link.
  return { prioTc: Array(8).fill(0), tsa: ['ets', ...Array(7).fill('strict')] as Tsa[], bw: [100, 0, 0, 0, 0, 0, 0, 0] };
}

export interface BuildIrOptions {
  headroom: HeadroomFn;
}

/** Builds the IR; problems a target cannot express are collected in `ir.problems`, not thrown. */
export function buildIr(cfg: CodegenConfig, device: Device, opts: BuildIrOptions): Ir {
  const problems: IrProblem[] = [];
  const quantisation: Quantisation[] = [];
  const mtu = cfg.port.mtu ?? 9216;
  const maxWireFrameBytes = mtu + ETH_WIRE_OVERHEAD;
  const cell = device.cell_bytes;
  const view = etsView(cfg, problems);

  // ETS bandwidth: integers summing to 100 over ETS TCs (cumulative rounding keeps an already
  // integral config unchanged and repairs nothing silently: any change is listed).
  const etsBwIn = view.bw.map((b, t) => (view.tsa[t] === 'ets' ? b : 0));
  const etsBw = cumulativeRound(etsBwIn, etsBwIn.some((b) => b > 0) ? 100 : 0);
  etsBw.forEach((b, t) => {
    if (b !== etsBwIn[t]) quantisation.push({ target: 'ir', path: `ets.bw[${t}]`, quantity: 'ETS bandwidth', wanted: etsBwIn[t], got: b, unit: '%', error: b - etsBwIn[t] });
  });
  const minBw = Math.min(...etsBw.filter((b) => b > 0));
  const quantumUnitBytes = Number.isFinite(minBw) ? Math.ceil(maxWireFrameBytes / minBw) : maxWireFrameBytes;

  const pfcEnabled = Array.from({ length: 8 }, (_, p) => (cfg.pfc?.enable ?? []).includes(p));
  const usedTcs = [...new Set(view.prioTc)].sort((a, b) => a - b);

  // TC -> queue: identity when the device has a queue per TC number; otherwise used TCs take
  // queues 0.. in ascending TC order, which keeps strict precedence (higher TC, higher queue).
  const queues = device.queues_per_port;
  const tcQueue = Array(8).fill(-1);
  if (usedTcs.length > queues) {
    problems.push({
      targets: ['sonic', 'p4', 'linux', 'c-header'],
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
  const cpPrios = cfg.qcn?.cp?.priorities ?? [];
  const ecnFor = (t: number): IrEcn | null => {
    if (!view.prioTc.some((tc, p) => tc === t && cpPrios.includes(p))) return null;
    const cp = cfg.qcn?.cp ?? {};
    const want = {
      kminBytes: cp.kmin ?? DCQCN_DEFAULTS.kminBytes,
      kmaxBytes: cp.kmax ?? DCQCN_DEFAULTS.kmaxBytes,
      qEqBytes: cp.q_eq ?? QCN_DEFAULTS.qEqBytes,
    };
    const got = { kminBytes: roundUpTo(want.kminBytes, cell), kmaxBytes: roundUpTo(want.kmaxBytes, cell), qEqBytes: roundUpTo(want.qEqBytes, cell) };
    for (const [k, key] of [['kminBytes', 'kmin'], ['kmaxBytes', 'kmax'], ['qEqBytes', 'q_eq']] as const) {
      if (got[k] !== want[k]) quantisation.push({ target: 'ir', path: `qcn.cp.${key}`, quantity: `${key === 'q_eq' ? 'QCN' : 'ECN'} ${key} of TC ${t} to whole cells of ${cell} B`, wanted: want[k], got: got[k], unit: 'B', error: got[k] - want[k] });
    }
    return { ...got, pmaxPercent: cp.pmax ?? DCQCN_DEFAULTS.pmaxPercent, w: cp.w ?? QCN_DEFAULTS.w };
  };

  const tcs: IrTc[] = Array.from({ length: 8 }, (_, t) => ({
    tc: t,
    used: usedTcs.includes(t),
    tsa: view.tsa[t],
    bwPercent: etsBw[t],
    quantumBytes: etsBw[t] * quantumUnitBytes,
    queue: tcQueue[t],
    priorities: view.prioTc.flatMap((tc, p) => (tc === t ? [p] : [])),
    lossless: losslessTc(t) && !mixedTc(t),
    pg: tcPg[t],
    ecn: ecnFor(t),
  }));

  // Ports: the device's, or the config's own port at index 0.
  const devicePorts = device.ports.length
    ? device.ports.map((p) => ({ name: p.name, index: p.index, speed: p.speed, cable: p.cable, lanes: p.lanes }))
    : [{ name: cfg.port.name, index: 0, speed: cfg.port.speed, cable: cfg.port.cable ?? 0, lanes: undefined as string | undefined }];
  // The headroom model's input errors (a speed it has no constants for) name the port.
  const headroomOf = (port: string, args: HeadroomArgs): number => {
    try {
      return opts.headroom(args);
    } catch (e) {
      if (e instanceof InputError) throw new InputError(e.problems.map((q) => ({ path: `ports.${port}.${q.path}`, rule: `headroom: ${q.rule}` })));
      throw e;
    }
  };
  const xonWanted = cfg.pfc?.xon ?? 2 * mtu;
  const xoffWanted = cfg.pfc?.xoff ?? 4 * mtu;
  const xon = roundUpTo(xonWanted, cell);
  const xoff = roundUpTo(xoffWanted, cell);
  if (losslessTcs.length && xon !== xonWanted) quantisation.push({ target: 'ir', path: 'pfc.xon', quantity: `XON threshold to whole cells of ${cell} B`, wanted: xonWanted, got: xon, unit: 'B', error: xon - xonWanted });
  if (losslessTcs.length && xoff !== xoffWanted) quantisation.push({ target: 'ir', path: 'pfc.xoff', quantity: `XOFF threshold to whole cells of ${cell} B`, wanted: xoffWanted, got: xoff, unit: 'B', error: xoff - xoffWanted });
  let reserved = 0;
  const ports: IrPort[] = devicePorts.map((p, pi) => {
    const speedBps = speedToBps(p.speed);
    const cableM = cableToMetres(p.cable);
    const pgs: IrPg[] = [...pgsNeeded].sort((a, b) => a - b).map((g) => {
      const pgTcs = usedTcs.filter((t) => tcPg[t] === g);
      const lossless = pgTcs.every((t) => tcs[t].lossless) && pgTcs.some((t) => losslessTc(t));
      let headroomBytes = 0;
      if (lossless) {
        const fixed = typeof cfg.pfc?.headroom === 'number' ? cfg.pfc.headroom : undefined;
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

  const app: IrApp[] = (cfg.app ?? []).map((a) => {
    const s = SELECTORS[String(a.selector).toLowerCase()];
    if (!s) throw new Error(`unknown APP selector ${a.selector}`);
    return { selector: s.name, selectorCode: s.code, protocol: a.protocol, priority: a.priority };
  });
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
  if (cfg.pause?.enable) omitted.push({ path: 'pause.enable', reason: '802.3x PAUSE is a MAC setting outside the QoS tables of these targets' });
  if (cfg.credit?.priorities?.length) omitted.push({ path: 'credit.priorities', reason: 'credit-based flow control has no representation in SONiC, P4Runtime, Linux dcb or the register map (only the lldp target advertises it, in the CET TLV)' });
  if (cfg.qcn?.rp && cfg.qcn.cp?.priorities?.length) omitted.push({ path: 'qcn.rp', reason: 'reaction-point parameters belong to the NIC rate limiter, not to these switch/host tables' });
  const wd = cfg.pfc?.watchdog ?? {};
  const rec = cfg.ets?.recommendation;
  return {
    device,
    mac: cfg.port.mac ?? '02:00:00:00:00:01',
    mtu,
    maxWireFrameBytes,
    cellBytes: cell,
    prioTc: view.prioTc,
    tcs,
    tcPg,
    ets: {
      willing: cfg.ets?.willing ?? false,
      cbs: cfg.ets?.cbs ?? false,
      maxTcs: cfg.ets?.max_tcs ?? 8,
      recommendation: rec ? { prioTc: [...rec.prio_tc], tsa: rec.tsa.map(tsaOf), bwPercent: [...rec.bw] } : null,
    },
    dcbxMode: device.dcbx === 'auto' ? (cfg.pg ? 'cee' : 'ieee') : device.dcbx,
    pg: cfg.pg ? { willing: cfg.pg.willing ?? false, prio_pgid: [...cfg.pg.prio_pgid], pg_bw: [...cfg.pg.pg_bw] } : null,
    credit: cfg.credit?.priorities?.length
      ? { priorities: [...cfg.credit.priorities], unit: cfg.credit.unit ?? 64, aging_us: cfg.credit.aging_us ?? 100, counter_bits: cfg.credit.counter_bits, oui: cfg.credit.oui }
      : null,
    quantumUnitBytes,
    pfc: {
      enabled: pfcEnabled,
      cap: cfg.pfc?.cap ?? 8,
      mbc: cfg.pfc?.mbc ?? false,
      willing: cfg.pfc?.willing ?? false,
      pauseTime: cfg.pfc?.pause_time ?? 0xffff,
    },
    app,
    dscpPrio,
    dscpTc,
    watchdog: {
      enabled: wd.enable ?? true,
      detectionMs: wd.detection_ms ?? WATCHDOG_DEFAULTS.detectionMs,
      restorationMs: wd.restoration_ms ?? WATCHDOG_DEFAULTS.restorationMs,
      pollMs: wd.poll_ms ?? WATCHDOG_DEFAULTS.pollMs,
      action: wd.action ?? WATCHDOG_DEFAULTS.action,
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
