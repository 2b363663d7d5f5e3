// SONiC target: the QoS and buffer tables of CONFIG_DB that orchagent (qosorch, bufferorch,
// pfcwdorch) and buffermgrd turn into SAI objects, as `sonic/config_db.json` (for `config load`)
// and the same entries as an RFC 6902 JSON Patch, `sonic/patch.json` (for `config apply-patch`).
// Only QoS and buffer tables: never DEVICE_METADATA or PORT, which belong to the switch.
// Schema: sonic-yang-models; values are strings as config_db stores them, references bare names.
// Upstream behaviour relied on (file + commit in docs/codegen.md "sonic"):
//  - orchagent qosorch.cpp binds the PORT_QOS_MAP maps; `pfc_enable` and `pfcwd_sw_enable` are
//    priority bitmaps. MAP_PFC_PRIORITY_TO_QUEUE says which queue a received PFC frame for priority
//    p pauses; PFC_PRIORITY_TO_PRIORITY_GROUP_MAP which PG's XOFF sends PFC for p.
//  - buffermgrd (cfgmgr/buffermgr.cpp doSpeedUpdateTask, traditional model) takes the pfc_enable
//    priorities as PG numbers: it points BUFFER_PG|<port>|<ranges of those numbers> at
//    pg_lossless_<PORT.speed>_<CABLE_LENGTH>_profile, creating that profile when it is missing.
//  - the PFC watchdog (pfcwdsworch.cpp registerInWdDb) watches queue p and the PFC counters of
//    priority p for every p in pfcwd_sw_enable.
// So this target numbers SONiC's PGs by priority: the PG of lossless priority p is p, a lossless
// TC's traffic goes to the PG of its lowest priority, and every lossy TC shares the lowest PG no
// lossless priority uses. The tables are then a fixed point of buffermgrd (it finds every key it
// would write already written), and a PG buffermgrd adds for a second lossless priority of one TC
// is emitted and counted (with a warning: it reserves headroom no traffic uses).
//
// Mapping: ETS TC -> SCHEDULER DWRR weight = bw % (SAI weight 1..100); strict (and cbs) -> STRICT;
// lossless PG -> BUFFER_PROFILE xon / xoff = headroom / size = xon + headroom (SONiC's static
// headroom model; its XOFF trigger is the shared-pool dynamic_th).
import type { Ir, IrTc, Quantisation } from './ir.js';
import { irProblemsFor } from './ir.js';
import type { CodegenTarget, Emitted } from './target.js';
import { problem } from './target.js';
import type { Problem } from '../host/errors/errors.js';

export const SONIC_MAP_NAME = 'DCBKIT';
export const SONIC_POOL = 'ingress_lossless_pool';
export const SONIC_EGRESS_LOSSLESS_POOL = 'egress_lossless_pool';
export const SONIC_EGRESS_LOSSY_POOL = 'egress_lossy_pool';
export const SONIC_LOSSY_PROFILE = 'ingress_lossy_profile';
/** The CABLE_LENGTH key of SONiC's buffer templates (buffers_config.j2); buffermgrd reads any key. */
export const SONIC_CABLE_KEY = 'AZURE';

type Entry = Record<string, string>;
export type Table = Record<string, Entry>;
export type ConfigDb = Record<string, Table>;

export function schedulerName(tsa: string, bw: number): string {
  return tsa === 'ets' ? `dcbkit.dwrr.${bw}` : 'dcbkit.strict';
}

export function losslessProfileName(speedBps: number, cableM: number): string {
  return `pg_lossless_${Math.round(speedBps / 1e6)}_${cableM}m_profile`;
}

/**
 * Id ranges as orchagent's generateIdListFromMap writes them (orch.cpp): consecutive ids joined
 * "a-b", single ids alone; buffermgrd keys BUFFER_PG this way.
 */
export function idRanges(ids: readonly number[]): string[] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    out.push(sorted[i] === sorted[j] ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out;
}

/** SONiC's PG numbering (see the header): per TC, and the lossless priorities buffermgrd gives PGs. */
export interface SonicPgs {
  tcPg: number[];
  /** Lossless priorities: buffermgrd's PG numbers. */
  losslessPgs: number[];
  /** Lossless PGs no traffic reaches (a second lossless priority of a TC): priority -> its TC. */
  shadow: { pg: number; tc: number; trafficPg: number }[];
  /** PG shared by the lossy TCs, -1 when every priority is lossless (no lossy TC then). */
  lossyPg: number;
}

export function sonicPgs(ir: Ir): SonicPgs {
  const losslessPgs = ir.pfc.enabled.flatMap((on, p) => (on ? [p] : []));
  const lossyPg = [0, 1, 2, 3, 4, 5, 6, 7].find((g) => !losslessPgs.includes(g)) ?? -1;
  const usedPg = (t: IrTc) => (t.lossless ? Math.min(...t.priorities) : lossyPg);
  // An unused TC (no priority maps to it) follows the fallback TC, so no map entry points nowhere.
  const tcPg = ir.tcs.map((t) => usedPg(t.used ? t : fallbackTc(ir)));
  const shadow = ir.tcs.flatMap((t) => (t.lossless ? t.priorities.filter((p) => p !== tcPg[t.tc]).map((p) => ({ pg: p, tc: t.tc, trafficPg: tcPg[t.tc] })) : []));
  return { tcPg, losslessPgs, shadow, lossyPg };
}

/** The TC whose queue and PG an unused TC takes: the lowest used lossy TC (nothing is classified there). */
function fallbackTc(ir: Ir): IrTc {
  const used = ir.tcs.filter((t) => t.used);
  return used.find((t) => !t.lossless) ?? used[0];
}

function check(ir: Ir): Problem[] {
  const out: Problem[] = irProblemsFor(ir, 'sonic');
  for (const t of ir.tcs) {
    if (!t.used) continue;
    if (t.tsa === 'vendor') out.push(problem('sonic', `ets.tsa[${t.tc}]`, 'TSA vendor has no SAI scheduler type (DWRR, WRR or STRICT)'));
    if (t.tsa === 'ets' && (t.bwPercent < 1 || t.bwPercent > 100)) {
      out.push(problem('sonic', `ets.bw[${t.tc}]`, `SAI scheduler weight must be 1..100; an ETS TC with ${t.bwPercent} % cannot be expressed`));
    }
    if (t.ecn && !Number.isInteger(t.ecn.pmaxPercent)) {
      out.push(problem('sonic', 'qcn.cp.pmax', 'WRED drop probability is an integer percent 0..100'));
    }
  }
  const pfcOn = ir.pfc.enabled.some((on) => on);
  if (ir.watchdog.enabled && pfcOn) {
    if (ir.watchdog.detectionMs < 100 || ir.watchdog.detectionMs > 5000) out.push(problem('sonic', 'pfc.watchdog.detection_ms', 'PFC_WD detection_time must be 100..5000 ms'));
    if (ir.watchdog.restorationMs < 100 || ir.watchdog.restorationMs > 60000) out.push(problem('sonic', 'pfc.watchdog.restoration_ms', 'PFC_WD restoration_time must be 100..60000 ms'));
    if (ir.watchdog.pollMs < 100 || ir.watchdog.pollMs > 1000) out.push(problem('sonic', 'pfc.watchdog.poll_ms', 'PFC_WD POLL_INTERVAL must be 100..1000 ms'));
    // pfcwdsworch.cpp registerInWdDb watches queue p for priority p: right only where they agree.
    const apart = ir.pfc.enabled.flatMap((on, p) => (on && ir.tcs[ir.prioTc[p]].queue !== p ? [`priority ${p} is in queue ${ir.tcs[ir.prioTc[p]].queue}`] : []));
    if (apart.length) {
      out.push(problem('sonic', 'pfc.watchdog.enable', `SONiC's PFC watchdog watches queue p for lossless priority p (orchagent pfcwdsworch.cpp), but ${apart.join(', ')}; disable the watchdog or put each lossless priority in the TC of its own number`));
    }
  }
  const pgs = sonicPgs(ir);
  const highest = Math.max(...pgs.losslessPgs, pgs.lossyPg);
  const irHighest = Math.max(...ir.tcs.filter((t) => t.used).map((t) => t.pg));
  // Reported once: when the IR's own PG numbering is already too high, the IR problem says so.
  if (highest >= ir.device.pgs_per_port && irHighest < ir.device.pgs_per_port) {
    out.push(problem('sonic', 'pfc.enable', `SONiC needs priority group ${highest} (buffermgrd gives lossless priority p the PG p; lossy TCs share the lowest other PG) but device ${ir.device.name} has ${ir.device.pgs_per_port} per port`));
  }
  for (const p of ir.ports) {
    const mbps = p.speedBps / 1e6;
    if (!Number.isInteger(mbps) || mbps < 1 || mbps > 1600000) out.push(problem('sonic', `ports.${p.name}.speed`, 'PORT speed must be a whole number of Mb/s in 1..1600000'));
    if (!Number.isInteger(p.cableM)) out.push(problem('sonic', `ports.${p.name}.cable`, 'SONiC cable lengths are whole metres'));
  }
  return out;
}

/** Why SONiC ends up with a PG no traffic uses (the config is kept; the headroom is counted). */
function warnings(ir: Ir): Problem[] {
  return sonicPgs(ir).shadow.map((s) =>
    problem('sonic', 'pfc.enable', `lossless priority ${s.pg} shares TC ${s.tc} with lossless priority ${s.trafficPg}; buffermgrd (cfgmgr/buffermgr.cpp) still gives it a lossless PG ${s.pg}, which reserves headroom on every port but carries no traffic (its frames use PG ${s.trafficPg}); the pool size counts it`),
  );
}

/** The CONFIG_DB tables for the IR (what config_db.json holds; `dcbkit audit --sonic` compares a switch with them). */
export function sonicTables(ir: Ir): ConfigDb {
  return build(ir).db;
}

function build(ir: Ir): { db: ConfigDb; quantisation: Quantisation[] } {
  const quantisation: Quantisation[] = [];
  const used = ir.tcs.filter((t) => t.used);
  const pgs = sonicPgs(ir);
  const fallback = fallbackTc(ir);
  const pfcOn = pgs.losslessPgs.length > 0;
  const watchdogOn = pfcOn && ir.watchdog.enabled;
  const classifiesByDscp = ir.dscpPrio.some((p) => p !== null);

  const SCHEDULER: Table = {};
  for (const t of used) {
    if (t.tsa === 'ets') SCHEDULER[schedulerName('ets', t.bwPercent)] = { type: 'DWRR', weight: String(t.bwPercent) };
    else {
      SCHEDULER[schedulerName('strict', 0)] = { type: 'STRICT' };
      if (t.tsa === 'cbs') quantisation.push({ target: 'sonic', path: `ets.tsa[${t.tc}]`, quantity: 'TSA cbs emitted as STRICT (no credit shaper in SAI scheduler)', wanted: 1, got: 0, unit: 'tsa', error: 0 });
    }
  }
  const WRED_PROFILE: Table = {};
  for (const t of used) {
    if (!t.ecn) continue;
    WRED_PROFILE[`dcbkit_ecn_tc${t.tc}`] = {
      ecn: 'ecn_all',
      wred_green_enable: 'true',
      green_min_threshold: String(t.ecn.kminBytes),
      green_max_threshold: String(t.ecn.kmaxBytes),
      green_drop_probability: String(t.ecn.pmaxPercent),
    };
  }
  const byIndex = (n: number, f: (i: number) => number): Entry => Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), String(f(i))]));
  const queueOfTc = (tc: number) => (ir.tcs[tc].used ? ir.tcs[tc].queue : fallback.queue);
  const maps: ConfigDb = {
    DOT1P_TO_TC_MAP: { [SONIC_MAP_NAME]: byIndex(8, (p) => ir.prioTc[p]) },
    TC_TO_QUEUE_MAP: { [SONIC_MAP_NAME]: byIndex(8, queueOfTc) },
    TC_TO_PRIORITY_GROUP_MAP: { [SONIC_MAP_NAME]: byIndex(8, (t) => pgs.tcPg[t]) },
  };
  if (classifiesByDscp) maps.DSCP_TO_TC_MAP = { [SONIC_MAP_NAME]: byIndex(64, (d) => ir.dscpTc[d]) };
  if (pfcOn) {
    maps.MAP_PFC_PRIORITY_TO_QUEUE = { [SONIC_MAP_NAME]: byIndex(8, (p) => queueOfTc(ir.prioTc[p])) };
    maps.PFC_PRIORITY_TO_PRIORITY_GROUP_MAP = { [SONIC_MAP_NAME]: byIndex(8, (p) => pgs.tcPg[ir.prioTc[p]]) };
  }
  const pfcEnable = pgs.losslessPgs.join(',');

  const QUEUE: Table = {};
  const PORT_QOS_MAP: Table = {};
  const BUFFER_PROFILE: Table = {
    ingress_lossless_profile: { pool: SONIC_POOL, size: '0', dynamic_th: '7' },
    [SONIC_LOSSY_PROFILE]: { pool: SONIC_POOL, size: '0', dynamic_th: '3' },
    egress_lossless_profile: { pool: SONIC_EGRESS_LOSSLESS_POOL, size: '0', dynamic_th: '7' },
    egress_lossy_profile: { pool: SONIC_EGRESS_LOSSY_POOL, size: String(ir.mtu), dynamic_th: '7' },
  };
  const BUFFER_PG: Table = {};
  const BUFFER_QUEUE: Table = {};
  const BUFFER_PORT_INGRESS_PROFILE_LIST: Table = {};
  const BUFFER_PORT_EGRESS_PROFILE_LIST: Table = {};
  const cables: Entry = {};
  const PFC_WD: Table = { GLOBAL: { POLL_INTERVAL: String(ir.watchdog.pollMs) } };
  let headroomTotal = 0;
  for (const port of ir.ports) {
    for (const t of used) {
      const q: Entry = { scheduler: schedulerName(t.tsa, t.bwPercent) };
      if (t.ecn) q.wred_profile = `dcbkit_ecn_tc${t.tc}`;
      QUEUE[`${port.name}|${t.queue}`] = q;
    }
    const qos: Entry = { dot1p_to_tc_map: SONIC_MAP_NAME };
    if (classifiesByDscp) qos.dscp_to_tc_map = SONIC_MAP_NAME;
    qos.tc_to_queue_map = SONIC_MAP_NAME;
    qos.tc_to_pg_map = SONIC_MAP_NAME;
    if (pfcOn) {
      qos.pfc_to_queue_map = SONIC_MAP_NAME;
      qos.pfc_to_pg_map = SONIC_MAP_NAME;
      qos.pfc_enable = pfcEnable;
      if (watchdogOn) qos.pfcwd_sw_enable = pfcEnable;
    }
    PORT_QOS_MAP[port.name] = qos;
    cables[port.name] = `${port.cableM}m`;

    // Every lossless IR PG of a port has the same thresholds (one speed, one cable).
    const lossless = port.pgs.find((g) => g.lossless);
    if (lossless) {
      const name = losslessProfileName(port.speedBps, port.cableM);
      BUFFER_PROFILE[name] = {
        pool: SONIC_POOL,
        xon: String(lossless.xonBytes),
        xoff: String(lossless.headroomBytes),
        size: String(lossless.xonBytes + lossless.headroomBytes),
        dynamic_th: String(ir.device.dynamic_th),
      };
      for (const range of idRanges(pgs.losslessPgs)) BUFFER_PG[`${port.name}|${range}`] = { profile: name };
      headroomTotal += lossless.headroomBytes * pgs.losslessPgs.length;
    }
    if (pgs.lossyPg >= 0 && used.some((t) => !t.lossless)) BUFFER_PG[`${port.name}|${pgs.lossyPg}`] = { profile: SONIC_LOSSY_PROFILE };

    const queuesOf = (lossy: boolean) => used.filter((t) => !t.lossless === lossy).map((t) => t.queue);
    for (const range of idRanges(queuesOf(false))) BUFFER_QUEUE[`${port.name}|${range}`] = { profile: 'egress_lossless_profile' };
    for (const range of idRanges(queuesOf(true))) BUFFER_QUEUE[`${port.name}|${range}`] = { profile: 'egress_lossy_profile' };
    BUFFER_PORT_INGRESS_PROFILE_LIST[port.name] = { profile_list: 'ingress_lossless_profile' };
    BUFFER_PORT_EGRESS_PROFILE_LIST[port.name] = { profile_list: 'egress_lossless_profile,egress_lossy_profile' };

    if (watchdogOn) {
      PFC_WD[port.name] = {
        action: ir.watchdog.action,
        detection_time: String(ir.watchdog.detectionMs),
        restoration_time: String(ir.watchdog.restorationMs),
      };
    }
  }
  const shared = String(ir.device.buffer_bytes - headroomTotal);
  // Referenced tables come before the tables that reference them.
  const db: ConfigDb = {
    SCHEDULER,
    ...(Object.keys(WRED_PROFILE).length ? { WRED_PROFILE } : {}),
    ...maps,
    BUFFER_POOL: {
      [SONIC_POOL]: { type: 'ingress', mode: 'dynamic', size: shared },
      [SONIC_EGRESS_LOSSLESS_POOL]: { type: 'egress', mode: 'dynamic', size: String(ir.device.buffer_bytes) },
      [SONIC_EGRESS_LOSSY_POOL]: { type: 'egress', mode: 'dynamic', size: shared },
    },
    BUFFER_PROFILE,
    CABLE_LENGTH: { [SONIC_CABLE_KEY]: cables },
    QUEUE,
    PORT_QOS_MAP,
    BUFFER_PG,
    BUFFER_QUEUE,
    BUFFER_PORT_INGRESS_PROFILE_LIST,
    BUFFER_PORT_EGRESS_PROFILE_LIST,
    ...(watchdogOn ? { PFC_WD } : {}),
  };
  return { db, quantisation };
}

function emit(ir: Ir): Emitted {
  const { db, quantisation } = build(ir);
  return {
    files: { 'config_db.json': JSON.stringify(db, null, 2) + '\n', 'patch.json': JSON.stringify(jsonPatch(db), null, 2) + '\n' },
    quantisation,
    warnings: warnings(ir),
  };
}

/** RFC 6901 pointer token: '~' -> '~0', '/' -> '~1'. */
const token = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The tables as RFC 6902 `add` ops, one per entry, so applying them replaces our entries and
 * leaves every other entry of the switch alone. CABLE_LENGTH is added per port field: its one
 * key holds the cable of every port of the switch.
 */
export interface PatchOp {
  op: 'add';
  path: string;
  value: string | Entry;
}

export function jsonPatch(db: ConfigDb): PatchOp[] {
  return Object.entries(db).flatMap(([table, rows]) =>
    Object.entries(rows).flatMap(([key, value]): PatchOp[] =>
      table === 'CABLE_LENGTH'
        ? Object.entries(value).map(([port, length]) => ({ op: 'add', path: `/${token(table)}/${token(key)}/${token(port)}`, value: length }))
        : [{ op: 'add', path: `/${token(table)}/${token(key)}`, value }],
    ),
  );
}

export const sonicTarget: CodegenTarget = { name: 'sonic', check, emit };
