// Test-side converter from config_db.json (what SONiC loads) to YANG instance JSON (what yanglint
// validates), following the sonic-yang-models layout (sonic-net/sonic-buildimage src/sonic-yang-models): table -> "<module>:<module>":
// {"<module>:<TABLE>": {"<TABLE>_LIST": [...]}}, keys split on '|', nested maps become inner
// lists, RFC 7951 typing (8/16/32-bit integers as numbers, 64-bit integers and strings as strings).
// Written from the YANG models (key and leaf names), independent of the emitter.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schemasDir } from './schemas.js';

interface TableRule {
  module: string;
  keys: string[];
  /** Nested map tables: inner list key leaf and value leaf. */
  inner?: { key: string; value: string };
  /** Leaves typed as 8/16/32-bit integers (JSON numbers under RFC 7951). */
  numeric?: string[];
  /** Leaf-lists config_db stores as one comma-separated string. */
  lists?: string[];
  container?: boolean;
}

const RULES: Record<string, TableRule> = {
  DEVICE_METADATA: { module: 'sonic-device_metadata', keys: [], container: true },
  PORT: { module: 'sonic-port', keys: ['name'], numeric: ['speed', 'mtu'] },
  SCHEDULER: { module: 'sonic-scheduler', keys: ['name'], numeric: ['weight', 'priority', 'cbs', 'pbs'] },
  QUEUE: { module: 'sonic-queue', keys: ['ifname', 'qindex'] },
  DSCP_TO_TC_MAP: { module: 'sonic-dscp-tc-map', keys: ['name'], inner: { key: 'dscp', value: 'tc' } },
  DOT1P_TO_TC_MAP: { module: 'sonic-dot1p-tc-map', keys: ['name'], inner: { key: 'dot1p', value: 'tc' } },
  TC_TO_QUEUE_MAP: { module: 'sonic-tc-queue-map', keys: ['name'], inner: { key: 'tc', value: 'qindex' } },
  TC_TO_PRIORITY_GROUP_MAP: { module: 'sonic-tc-priority-group-map', keys: ['name'], inner: { key: 'tc', value: 'pg' } },
  PORT_QOS_MAP: { module: 'sonic-port-qos-map', keys: ['ifname'] },
  BUFFER_POOL: { module: 'sonic-buffer-pool', keys: ['name'], numeric: ['percentage'] },
  BUFFER_PROFILE: { module: 'sonic-buffer-profile', keys: ['name'], numeric: ['dynamic_th'] },
  BUFFER_PG: { module: 'sonic-buffer-pg', keys: ['port', 'pg_num'] },
  WRED_PROFILE: { module: 'sonic-wred-profile', keys: ['name'] },
  PFC_WD: { module: 'sonic-pfcwd', keys: ['ifname'], numeric: ['detection_time', 'restoration_time', 'POLL_INTERVAL'] },
  MAP_PFC_PRIORITY_TO_QUEUE: { module: 'sonic-pfc-priority-queue-map', keys: ['name'], inner: { key: 'pfc_priority', value: 'qindex' } },
  PFC_PRIORITY_TO_PRIORITY_GROUP_MAP: { module: 'sonic-pfc-priority-priority-group-map', keys: ['name'], inner: { key: 'pfc_priority', value: 'pg' } },
  CABLE_LENGTH: { module: 'sonic-cable-length', keys: ['name'], inner: { key: 'port', value: 'length' } },
  BUFFER_QUEUE: { module: 'sonic-buffer-queue', keys: ['port', 'qindex'] },
  BUFFER_PORT_INGRESS_PROFILE_LIST: { module: 'sonic-buffer-port-ingress-profile-list', keys: ['port'], lists: ['profile_list'] },
  BUFFER_PORT_EGRESS_PROFILE_LIST: { module: 'sonic-buffer-port-egress-profile-list', keys: ['port'], lists: ['profile_list'] },
};
/** Inner-list leaves typed uint8 (tc_type) in the map modules. */
const NUMERIC_INNER = new Set(['DSCP_TO_TC_MAP.tc', 'DOT1P_TO_TC_MAP.tc', 'TC_TO_QUEUE_MAP.tc', 'TC_TO_PRIORITY_GROUP_MAP.tc']);

function typed(table: string, leaf: string, v: string, numeric: string[] = []): string | number | boolean {
  if (numeric.includes(leaf)) return Number(v);
  if (v === 'true' || v === 'false') return v === 'true';
  return v;
}

export function configDbToYang(db: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [table, rows] of Object.entries(db)) {
    const rule = RULES[table];
    if (!rule) throw new Error(`no YANG rule for table ${table}`);
    const m = rule.module;
    if (rule.container) {
      const inner: Record<string, unknown> = {};
      for (const [k, fields] of Object.entries(rows)) {
        inner[k] = Object.fromEntries(Object.entries(fields as Record<string, string>).map(([f, v]) => [f, typed(table, f, v, rule.numeric)]));
      }
      out[`${m}:${m}`] = { [`${m}:${table}`]: inner };
      continue;
    }
    const list = Object.entries(rows).map(([key, fields]) => {
      const parts = key.split('|');
      const entry: Record<string, unknown> = {};
      rule.keys.forEach((k, i) => (entry[k] = parts[i]));
      if (rule.inner) {
        entry[table] = Object.entries(fields as Record<string, string>).map(([ik, iv]) => ({
          [rule.inner!.key]: NUMERIC_INNER.has(`${table}.${rule.inner!.key}`) ? Number(ik) : ik,
          [rule.inner!.value]: NUMERIC_INNER.has(`${table}.${rule.inner!.value}`) ? Number(iv) : iv,
        }));
      } else {
        for (const [f, v] of Object.entries(fields as Record<string, string>)) entry[f] = rule.lists?.includes(f) ? v.split(',') : typed(table, f, v, rule.numeric);
      }
      return entry;
    });
    out[`${m}:${m}`] = { [`${m}:${table}`]: { [`${table}_LIST`]: list } };
  }
  return out;
}

export const SONIC_YANG_DIR = join(schemasDir(), 'sonic-yang');

/**
 * The switch's own tables the generated file leaves out on purpose (DEVICE_METADATA, PORT), as a
 * running switch has them: one PORT per port the QoS tables name (4 lanes each), for the leafrefs.
 */
export function switchTables(db: Record<string, Record<string, unknown>>, speedMbps = 100000): Record<string, Record<string, Record<string, string>>> {
  const names = Object.keys((db.PORT_QOS_MAP ?? {}) as Record<string, unknown>).filter((n) => n !== 'global');
  return {
    DEVICE_METADATA: { localhost: { hostname: 'switch1', hwsku: 'generic', platform: 'x86_64-generic-r0', mac: '02:00:00:00:00:aa', type: 'LeafRouter' } },
    PORT: Object.fromEntries(names.map((n, i) => [n, { lanes: [0, 1, 2, 3].map((k) => 4 * i + k).join(','), speed: String(speedMbps), admin_status: 'up' }])),
  };
}

/** Runs yanglint on the converted config (plus the switch's own tables when it has none); returns exit status and messages. */
export function yanglint(generated: Record<string, Record<string, unknown>>): { status: number; output: string } {
  const db = generated.PORT ? generated : { ...switchTables(generated), ...generated };
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-yang-'));
  try {
    const file = join(dir, 'qos.json');
    writeFileSync(file, JSON.stringify(configDbToYang(db), null, 1));
    const modules = [...new Set(['DEVICE_METADATA', 'PORT', ...Object.keys(db)].map((t) => RULES[t].module))].map((m) => join(SONIC_YANG_DIR, `${m}.yang`));
    const r = spawnSync('yanglint', ['-p', SONIC_YANG_DIR, '-t', 'config', ...modules, file], { encoding: 'utf8' });
    // libyang 2.1 prints a harmless dictionary-refcount warning at exit for some models; drop it.
    const output = ((r.stdout ?? '') + (r.stderr ?? ''))
      .split('\n')
      .filter((l) => l && !/^libyang warn: String ".*" not freed from the dictionary/.test(l))
      .join('\n');
    return { status: r.status ?? -1, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
