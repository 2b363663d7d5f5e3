// `dcbkit audit --sonic FILE | --sonic-redis URL`: a SONiC switch's CONFIG_DB compared with the
// tables codegen/sonic.ts writes for the config, both read through one function (sonicView) into
// what the tables mean per port: priority -> TC, TC -> queue and PG, each used TC's scheduler and
// WRED profile, the PFC bitmaps and maps, each PG's and queue's buffer profile (and its pool), the
// cable length and the PFC watchdog. Object names (scheduler, profile, map names) are followed, not
// compared: a switch whose maps are called AZURE runs the same thing as one whose maps are DCBKIT.
//
// CONFIG_DB as SONiC stores it (sonic-swss-common configdb.h / ConfigDBConnector): key `TABLE|key`,
// a multi-part key joined with `|` (`QUEUE|Ethernet0|3`), a hash of string fields; a list field is
// stored as `name@` holding a comma list, an entry with no fields as the one field `NULL`. `sonic-cfggen
// -d --print-data` prints the same as {TABLE: {key: {field: value}}} with lists as arrays; config_db.json
// is that shape too. A key may name several ports and id ranges (`Ethernet0,Ethernet4|3-4`);
// references are bare names or, before SONiC 202012, `[TABLE|name]`.
import { readInputText } from '../io/input.js';
import { InputError } from '../errors/errors.js';
import type { ConfigDb, Table } from '../../codegen/sonic.js';
import { View, intSet } from './view.js';

/** The tables codegen/sonic.ts writes, the only ones the audit reads. */
export const AUDITED_TABLES = [
  'SCHEDULER', 'WRED_PROFILE', 'DOT1P_TO_TC_MAP', 'DSCP_TO_TC_MAP', 'TC_TO_QUEUE_MAP', 'TC_TO_PRIORITY_GROUP_MAP',
  'MAP_PFC_PRIORITY_TO_QUEUE', 'PFC_PRIORITY_TO_PRIORITY_GROUP_MAP', 'BUFFER_POOL', 'BUFFER_PROFILE', 'CABLE_LENGTH',
  'QUEUE', 'PORT_QOS_MAP', 'BUFFER_PG', 'BUFFER_QUEUE', 'BUFFER_PORT_INGRESS_PROFILE_LIST', 'BUFFER_PORT_EGRESS_PROFILE_LIST', 'PFC_WD',
];

/**
 * An object without a prototype: keys read from a device (`__proto__`, `constructor`) are plain keys
 * there, and a reference to a name the device does not hold finds nothing.
 */
export const emptyRecord = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/** One CONFIG_DB hash as stored: `name@` lists become `name`, the placeholder field NULL goes. */
export function normaliseEntry(fields: Record<string, string>): Record<string, string> {
  const out = emptyRecord<string>();
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'NULL') continue;
    out[k.endsWith('@') ? k.slice(0, -1) : k] = v;
  }
  return out;
}

/**
 * A CONFIG_DB dump (`sonic-cfggen -d --print-data`, config_db.json) checked and normalised: only the
 * audited tables are kept; every kept entry must be an object of strings or lists of strings.
 */
export function parseConfigDbDump(doc: unknown, source: string): ConfigDb {
  const bad = (path: string, rule: string) => new InputError({ path: `--sonic: ${source}${path ? ': ' + path : ''}`, rule });
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw bad('', 'must be a JSON object of CONFIG_DB tables ({TABLE: {key: {field: value}}}, as sonic-cfggen -d --print-data prints)');
  const db: ConfigDb = emptyRecord();
  for (const table of AUDITED_TABLES) {
    const rows = (doc as Record<string, unknown>)[table];
    if (rows === undefined) continue;
    if (typeof rows !== 'object' || rows === null || Array.isArray(rows)) throw bad(table, 'must be an object of entries');
    const out: Table = emptyRecord();
    for (const [key, entry] of Object.entries(rows)) {
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw bad(`${table}.${key}`, 'must be an object of fields');
      const fields = emptyRecord<string>();
      for (const [f, v] of Object.entries(entry)) {
        if (typeof v === 'string') fields[f] = v;
        else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) fields[f] = v.join(',');
        else throw bad(`${table}.${key}.${f}`, 'must be a string or a list of strings (CONFIG_DB holds nothing else)');
      }
      out[key] = normaliseEntry(fields);
    }
    db[table] = out;
  }
  return db;
}

export function loadConfigDbDump(file: string): ConfigDb {
  const text = readInputText(file, '--sonic');
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new InputError({ path: '--sonic', rule: `${file} is not JSON (${e instanceof Error ? e.message : String(e)})` });
  }
  return parseConfigDbDump(doc, file);
}

/** CONFIG_DB keys `TABLE|key` and their hashes -> tables (audited tables only). */
export function configDbFromHashes(hashes: Map<string, Record<string, string>>): ConfigDb {
  const db: ConfigDb = emptyRecord();
  for (const [full, fields] of hashes) {
    const bar = full.indexOf('|');
    if (bar < 0) continue;
    const table = full.slice(0, bar);
    if (!AUDITED_TABLES.includes(table)) continue;
    (db[table] ??= emptyRecord())[full.slice(bar + 1)] = normaliseEntry(fields);
  }
  return db;
}

/** A reference as written in CONFIG_DB: `name` or the old `[TABLE|name]`. */
function refName(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const m = /^\[[A-Z0-9_]+\|(.*)\]$/.exec(v.trim());
  return m ? m[1] : v.trim();
}

/** Ids of `a-b,c` (ranges and lists); undefined when the text is not one. */
function idsOf(text: string): number[] | undefined {
  const out: number[] = [];
  for (const part of text.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) return undefined;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo || hi - lo > 4096) return undefined;
    for (let i = lo; i <= hi; i++) out.push(i);
  }
  return out;
}

/** id -> entry of a `PORTS|IDS` table for one port (the first key that covers an id wins). */
function perPortIds(table: Table | undefined, port: string): Map<number, Record<string, string>> {
  const out = new Map<number, Record<string, string>>();
  for (const [key, entry] of Object.entries(table ?? {})) {
    const bar = key.lastIndexOf('|');
    if (bar < 0 || !key.slice(0, bar).split(',').includes(port)) continue;
    for (const id of idsOf(key.slice(bar + 1)) ?? []) if (!out.has(id)) out.set(id, entry);
  }
  return out;
}

const byId = (m: Map<number, Record<string, string>>) => [...m].sort(([a], [b]) => a - b);
/** Entries of a record or map in key order (views list fields alike whatever order a device stored them in). */
const sorted = <T>(entries: Iterable<[string, T]>): [string, T][] => [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** A map table's entry as index -> value (8 or 64 ids), undefined where the map has none. */
function mapValues(db: ConfigDb, table: string, name: string | undefined, size: number): (string | undefined)[] {
  const entry = name === undefined ? undefined : db[table]?.[name];
  return Array.from({ length: size }, (_, i) => entry?.[String(i)]);
}

const SCHEDULER_TSA: Record<string, string> = { STRICT: 'strict', DWRR: 'ets', WRR: 'wrr' };

/**
 * What the tables mean for `ports` (and the pools their profiles use), in paths `PORT.ets.prio_tc[p]`,
 * `PORT.ets.tsa[t]`, `PORT.ets.bw[t]`, `PORT.pfc.enable`, `PORT.buffer_pg.xoff[g]`, `buffer_pool.NAME.size` ...
 */
export function sonicView(db: ConfigDb, ports: readonly string[]): View {
  const v = new View();
  const pools = new Set<string>();
  const listProfiles = new Set<string>();
  for (const port of ports) {
    const p = (path: string) => `${port}.${path}`;
    const qos = db.PORT_QOS_MAP?.[port] ?? {};
    const prioTc = mapValues(db, 'DOT1P_TO_TC_MAP', refName(qos.dot1p_to_tc_map), 8);
    v.array(p('ets.prio_tc'), prioTc);
    const dscpTc = qos.dscp_to_tc_map === undefined ? [] : mapValues(db, 'DSCP_TO_TC_MAP', refName(qos.dscp_to_tc_map), 64);
    v.array(p('dscp_tc'), dscpTc);
    const tcQueue = mapValues(db, 'TC_TO_QUEUE_MAP', refName(qos.tc_to_queue_map), 8);
    v.array(p('tc_queue'), tcQueue);
    v.array(p('tc_pg'), mapValues(db, 'TC_TO_PRIORITY_GROUP_MAP', refName(qos.tc_to_pg_map), 8));

    // Each TC traffic reaches: its queue's scheduler and WRED profile.
    const queues = perPortIds(db.QUEUE, port);
    const used = [...new Set([...prioTc, ...dscpTc].flatMap((t) => (t !== undefined && /^[0-7]$/.test(t) ? [Number(t)] : [])))].sort((a, b) => a - b);
    const tsa: (string | undefined)[] = Array(8).fill(undefined);
    const bw: (string | undefined)[] = Array(8).fill(undefined);
    const schedulerFields = new Map<string, (string | undefined)[]>();
    const wredFields = new Map<string, (string | undefined)[]>();
    const put = (m: Map<string, (string | undefined)[]>, field: string, t: number, value: string) => {
      if (!m.has(field)) m.set(field, Array(8).fill(undefined));
      m.get(field)![t] = value;
    };
    for (const t of used) {
      const q = tcQueue[t] === undefined ? undefined : Number(tcQueue[t]);
      const queue = q === undefined ? undefined : queues.get(q);
      const sched = db.SCHEDULER?.[refName(queue?.scheduler) ?? ''];
      if (sched) {
        for (const [f, val] of Object.entries(sched)) {
          if (f === 'type') tsa[t] = SCHEDULER_TSA[val.toUpperCase()] ?? val;
          else if (f === 'weight') bw[t] = val;
          else put(schedulerFields, f, t, val);
        }
      }
      const wred = db.WRED_PROFILE?.[refName(queue?.wred_profile) ?? ''];
      for (const [f, val] of Object.entries(wred ?? {})) put(wredFields, f, t, val);
    }
    v.array(p('ets.tsa'), tsa);
    v.array(p('ets.bw'), bw);
    for (const [f, vals] of sorted(schedulerFields)) v.array(p(`scheduler.${f}`), vals);
    for (const [f, vals] of sorted(wredFields)) v.array(p(`wred.${f}`), vals);

    const bitmap = (s: string | undefined) => (s === undefined ? null : intSet((idsOf(s) ?? []).filter((n) => n < 8)));
    v.set(p('pfc.enable'), bitmap(qos.pfc_enable) ?? 'none');
    v.set(p('pfc.watchdog'), bitmap(qos.pfcwd_sw_enable) ?? 'none');
    v.array(p('pfc.priority_queue'), qos.pfc_to_queue_map === undefined ? [] : mapValues(db, 'MAP_PFC_PRIORITY_TO_QUEUE', refName(qos.pfc_to_queue_map), 8));
    v.array(p('pfc.priority_pg'), qos.pfc_to_pg_map === undefined ? [] : mapValues(db, 'PFC_PRIORITY_TO_PRIORITY_GROUP_MAP', refName(qos.pfc_to_pg_map), 8));

    // Buffers per PG and per queue: the fields of the profile each points at.
    const buffers = (table: string, path: string) => {
      const fields = new Map<string, (string | undefined)[]>();
      for (const [id, entry] of byId(perPortIds(db[table], port))) {
        const profile = db.BUFFER_PROFILE?.[refName(entry.profile) ?? ''];
        if (!profile) {
          put(fields, 'profile', id, `${entry.profile ?? '(none)'} (no such BUFFER_PROFILE)`);
          continue;
        }
        for (const [f, val] of Object.entries(profile)) {
          put(fields, f, id, f === 'pool' ? refName(val)! : val);
          if (f === 'pool') pools.add(refName(val)!);
        }
      }
      for (const [f, vals] of sorted(fields)) v.array(p(`${path}.${f}`), vals);
    };
    buffers('BUFFER_PG', 'buffer_pg');
    buffers('BUFFER_QUEUE', 'buffer_queue');
    for (const [table, path] of [['BUFFER_PORT_INGRESS_PROFILE_LIST', 'ingress_profile_list'], ['BUFFER_PORT_EGRESS_PROFILE_LIST', 'egress_profile_list']] as const) {
      const names = (db[table]?.[port]?.profile_list ?? '').split(',').map((s) => refName(s)!).filter((s) => s);
      names.forEach((n) => listProfiles.add(n));
      v.set(p(path), names.length ? [...names].sort().join(',') : 'none');
    }
    const cable = Object.keys(db.CABLE_LENGTH ?? {}).sort().map((k) => db.CABLE_LENGTH[k][port]).find((c) => c !== undefined);
    if (cable !== undefined) v.set(p('cable'), cable);
    for (const [f, val] of sorted(Object.entries(db.PFC_WD?.[port] ?? {}))) v.set(p(`pfc_wd.${f}`), val);
  }
  for (const name of [...listProfiles].sort()) {
    for (const [f, val] of sorted(Object.entries(db.BUFFER_PROFILE?.[name] ?? {}))) {
      v.set(`buffer_profile.${name}.${f}`, f === 'pool' ? refName(val)! : val);
      if (f === 'pool') pools.add(refName(val)!);
    }
  }
  for (const name of [...pools].sort()) for (const [f, val] of sorted(Object.entries(db.BUFFER_POOL?.[name] ?? {}))) v.set(`buffer_pool.${name}.${f}`, val);
  // The watchdog's global poll interval matters only where a port of the config is watched.
  if (ports.some((port) => db.PFC_WD?.[port])) for (const [f, val] of sorted(Object.entries(db.PFC_WD?.GLOBAL ?? {}))) v.set(`pfc_wd.global.${f}`, val);
  return v;
}

/** Whether any table holds an entry of `port`: keyed by it (`PORT_QOS_MAP|Ethernet0`) or by it and an id (`QUEUE|Ethernet0|3`). */
export function portHasEntries(db: ConfigDb, port: string): boolean {
  return Object.values(db).some((table) => Object.keys(table ?? {}).some((key) => key === port || key.startsWith(`${port}|`)));
}
