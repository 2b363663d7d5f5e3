// SONiC target: the config_db.json QoS and buffer tables orchagent turns into SAI objects
// (SCHEDULER, QUEUE, DSCP_TO_TC_MAP, DOT1P_TO_TC_MAP, TC_TO_QUEUE_MAP, TC_TO_PRIORITY_GROUP_MAP,
// PORT_QOS_MAP, BUFFER_POOL, BUFFER_PROFILE, BUFFER_PG, WRED_PROFILE, PFC_WD), plus the
// DEVICE_METADATA and PORT entries their YANG leafrefs need. Schema: sonic-yang-models
// (sonic-scheduler.yang etc.); values are strings as config_db stores them, references are bare
// names (current SONiC; db_migrator strips the old "[TABLE|key]" form).
//
// Mapping: ETS TC -> SCHEDULER type DWRR with weight = bw % (SAI weight 1..100, exact for 1..100);
// strict (and cbs) TC -> STRICT; lossless PG -> BUFFER_PROFILE xon / xoff = headroom / size =
// xon + headroom (SONiC's static headroom model; its XOFF trigger is the shared-pool dynamic_th).
import type { Ir, Quantisation } from './ir.js';
import { irProblemsFor } from './ir.js';
import type { CodegenTarget, Emitted } from './target.js';
import { problem } from './target.js';
import type { Problem } from '../host/errors.js';

export const SONIC_MAP_NAME = 'DCBKIT';
export const SONIC_POOL = 'ingress_lossless_pool';
export const SONIC_LOSSY_PROFILE = 'ingress_lossy_profile';

type Table = Record<string, Record<string, string | Record<string, string>>>;

export function schedulerName(tsa: string, bw: number): string {
  return tsa === 'ets' ? `dcbkit.dwrr.${bw}` : 'dcbkit.strict';
}

export function losslessProfileName(speedBps: number, cableM: number): string {
  return `pg_lossless_${Math.round(speedBps / 1e6)}_${cableM}m_profile`;
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
  if (ir.watchdog.detectionMs < 100 || ir.watchdog.detectionMs > 5000) out.push(problem('sonic', 'pfc.watchdog.detection_ms', 'PFC_WD detection_time must be 100..5000 ms'));
  if (ir.watchdog.restorationMs < 100 || ir.watchdog.restorationMs > 60000) out.push(problem('sonic', 'pfc.watchdog.restoration_ms', 'PFC_WD restoration_time must be 100..60000 ms'));
  if (ir.watchdog.pollMs < 100 || ir.watchdog.pollMs > 1000) out.push(problem('sonic', 'pfc.watchdog.poll_ms', 'PFC_WD POLL_INTERVAL must be 100..1000 ms'));
  for (const p of ir.ports) {
    const mbps = p.speedBps / 1e6;
    if (!Number.isInteger(mbps) || mbps < 1 || mbps > 1600000) out.push(problem('sonic', `ports.${p.name}.speed`, 'PORT speed must be a whole number of Mb/s in 1..1600000'));
    if (!Number.isInteger(p.cableM)) out.push(problem('sonic', `ports.${p.name}.cable`, 'SONiC cable lengths are whole metres'));
  }
  return out;
}

function emit(ir: Ir): Emitted {
  const quantisation: Quantisation[] = [];
  const used = ir.tcs.filter((t) => t.used);
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
  const dscp: Record<string, string> = {};
  ir.dscpTc.forEach((tc, d) => (dscp[String(d)] = String(tc)));
  const dot1p: Record<string, string> = {};
  ir.prioTc.forEach((tc, p) => (dot1p[String(p)] = String(tc)));
  const tcQueue: Record<string, string> = {};
  const tcPg: Record<string, string> = {};
  for (const t of used) {
    tcQueue[String(t.tc)] = String(t.queue);
    tcPg[String(t.tc)] = String(t.pg);
  }
  const pfcEnable = ir.pfc.enabled.flatMap((on, p) => (on ? [String(p)] : [])).join(',');

  const PORT: Table = {};
  const QUEUE: Table = {};
  const PORT_QOS_MAP: Table = {};
  const BUFFER_PROFILE: Table = {};
  const BUFFER_PG: Table = {};
  const PFC_WD: Table = { GLOBAL: { POLL_INTERVAL: String(ir.watchdog.pollMs) } };
  let headroomTotal = 0;
  for (const port of ir.ports) {
    PORT[port.name] = {
      lanes: port.lanes,
      speed: String(port.speedBps / 1e6),
      mtu: String(ir.mtu),
      admin_status: 'up',
    };
    for (const t of used) {
      const q: Record<string, string> = { scheduler: schedulerName(t.tsa, t.bwPercent) };
      if (t.ecn) q.wred_profile = `dcbkit_ecn_tc${t.tc}`;
      QUEUE[`${port.name}|${t.queue}`] = q;
    }
    const qos: Record<string, string> = {
      dscp_to_tc_map: SONIC_MAP_NAME,
      dot1p_to_tc_map: SONIC_MAP_NAME,
      tc_to_queue_map: SONIC_MAP_NAME,
      tc_to_pg_map: SONIC_MAP_NAME,
    };
    if (pfcEnable) qos.pfc_enable = pfcEnable;
    PORT_QOS_MAP[port.name] = qos;
    for (const pg of port.pgs) {
      if (pg.lossless) {
        const name = losslessProfileName(port.speedBps, port.cableM);
        BUFFER_PROFILE[name] = {
          pool: SONIC_POOL,
          xon: String(pg.xonBytes),
          xoff: String(pg.headroomBytes),
          size: String(pg.xonBytes + pg.headroomBytes),
          dynamic_th: String(ir.device.dynamic_th),
        };
        BUFFER_PG[`${port.name}|${pg.pg}`] = { profile: name };
        headroomTotal += pg.headroomBytes;
      } else {
        BUFFER_PROFILE[SONIC_LOSSY_PROFILE] = { pool: SONIC_POOL, size: '0', dynamic_th: '3' };
        BUFFER_PG[`${port.name}|${pg.pg}`] = { profile: SONIC_LOSSY_PROFILE };
      }
    }
    if (pfcEnable && ir.watchdog.enabled) {
      PFC_WD[port.name] = {
        action: ir.watchdog.action,
        detection_time: String(ir.watchdog.detectionMs),
        restoration_time: String(ir.watchdog.restorationMs),
      };
    }
  }
  const db: Record<string, Table> = {
    DEVICE_METADATA: {
      localhost: {
        hostname: 'dcbkit',
        hwsku: ir.device.hwsku,
        platform: ir.device.platform,
        mac: ir.mac,
        type: 'LeafRouter',
        buffer_model: 'traditional',
      },
    },
    PORT,
    SCHEDULER,
    QUEUE,
    DSCP_TO_TC_MAP: { [SONIC_MAP_NAME]: dscp },
    DOT1P_TO_TC_MAP: { [SONIC_MAP_NAME]: dot1p },
    TC_TO_QUEUE_MAP: { [SONIC_MAP_NAME]: tcQueue },
    TC_TO_PRIORITY_GROUP_MAP: { [SONIC_MAP_NAME]: tcPg },
    PORT_QOS_MAP,
    BUFFER_POOL: { [SONIC_POOL]: { type: 'ingress', mode: 'dynamic', size: String(ir.device.buffer_bytes - headroomTotal) } },
    BUFFER_PROFILE,
    BUFFER_PG,
    PFC_WD,
  };
  if (Object.keys(WRED_PROFILE).length) db.WRED_PROFILE = WRED_PROFILE;
  if (!pfcEnable || !ir.watchdog.enabled) delete db.PFC_WD;
  return { files: { 'config_db.json': JSON.stringify(db, null, 2) + '\n' }, quantisation };
}

export const sonicTarget: CodegenTarget = { name: 'sonic', check, emit };
