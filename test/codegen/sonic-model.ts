// A small model of what SONiC derives from the QoS and buffer tables of CONFIG_DB, written from the
// upstream sources (sonic-swss e6b0c5b5d2ab52354c4ec941f7c9005aeec3f779; docs/codegen.md "sonic"),
// independent of the emitter:
//  - `config load` (sonic-cfggen --write-to-db, ConfigDBConnector.mod_config) merges each entry's
//    fields into CONFIG_DB; `config apply-patch` applies RFC 6902 ops to the whole config.
//  - buffermgrd, traditional model (cfgmgr/buffermgr.cpp doSpeedUpdateTask): for a port with a
//    CABLE_LENGTH other than "0m" and a pfc_enable, profile = pg_lossless_<PORT.speed>_<cable>_profile;
//    unless the lookup file (pg_profile_lookup.ini) lacks (speed, cable), the profile is created
//    from it when missing, and each BUFFER_PG|port|<range of pfc_enable numbers> (orch.cpp
//    generateIdListFromMap) whose profile is another is set to it.
//  - orchagent qosorch.cpp: PORT_QOS_MAP binds the maps; a map that is not bound leaves SAI's
//    identity (priority = TC = queue = PG), and no DSCP map means no DSCP classification.
//    bufferorch: a BUFFER_PG range key gives each PG of the range its profile.
//  - pfcwdsworch.cpp registerInWdDb: for each p in pfcwd_sw_enable, the watchdog watches queue p.
type Entry = Record<string, string>;
export type Db = Record<string, Record<string, Entry>>;

const clone = (db: Db): Db => JSON.parse(JSON.stringify(db)) as Db;

/** `config load FILE`: every entry's fields are merged into the running config. */
export function configLoad(running: Db, file: Db): Db {
  const out = clone(running);
  for (const [table, rows] of Object.entries(file)) {
    out[table] ??= {};
    for (const [key, fields] of Object.entries(rows)) out[table][key] = { ...(out[table][key] ?? {}), ...fields };
  }
  return out;
}

/** RFC 6902 `add` (the only op the generator writes); a missing parent is an error, as in jsonpatch. */
export function applyPatch(running: Db, ops: { op: string; path: string; value: unknown }[]): Db {
  const out = clone(running) as unknown as Record<string, unknown>;
  for (const op of ops) {
    if (op.op !== 'add') throw new Error(`unexpected op ${op.op}`);
    const tokens = op.path.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node = out;
    for (const t of tokens.slice(0, -1)) {
      if (typeof node[t] !== 'object' || node[t] === null) throw new Error(`${op.path}: parent ${t} does not exist`);
      node = node[t] as Record<string, unknown>;
    }
    node[tokens[tokens.length - 1]] = JSON.parse(JSON.stringify(op.value));
  }
  return out as unknown as Db;
}

/** PG/queue numbers of a range key "3-4" or "3". */
export function rangeIds(range: string): number[] {
  const [a, b] = range.split('-').map(Number);
  return Array.from({ length: (b ?? a) - a + 1 }, (_, i) => a + i);
}

/** generateIdListFromMap: consecutive ids joined "a-b" (written again here: the model must not share the emitter's code). */
function ranges(ids: number[]): string[] {
  const out: string[] = [];
  const sorted = [...ids].sort((x, y) => x - y);
  let start = -1;
  sorted.forEach((id, i) => {
    if (start < 0) start = id;
    if (sorted[i + 1] !== id + 1) {
      out.push(start === id ? String(id) : `${start}-${id}`);
      start = -1;
    }
  });
  return out;
}

const bits = (list: string | undefined): number[] => (list ? list.split(',').filter((s) => s !== '').map(Number) : []);

/** A pg_profile_lookup.ini row (speed Mb/s, cable) -> xon, xoff, size; undefined = no row. */
export type PgLookup = (speed: string, cable: string) => { xon: string; xoff: string; size: string; dynamic_th: string } | undefined;

/** buffermgrd's pass over every port (it reacts to each table it subscribes to; one pass reaches its fixed point). */
export function buffermgrd(db: Db, lookup: PgLookup): Db {
  const out = clone(db);
  const cables = Object.values(out.CABLE_LENGTH ?? {}).reduce<Entry>((acc, row) => ({ ...acc, ...row }), {});
  for (const [port, qos] of Object.entries(out.PORT_QOS_MAP ?? {})) {
    const cable = cables[port];
    const speed = out.PORT?.[port]?.speed;
    if (cable === undefined || cable === '0m' || speed === undefined || qos.pfc_enable === undefined) continue;
    const name = `pg_lossless_${speed}_${cable}_profile`;
    const row = lookup(speed, cable);
    if (!row) continue; // "No PG profile configured for speed ... and cable length ...": nothing changes
    out.BUFFER_PROFILE ??= {};
    out.BUFFER_PROFILE[name] ??= { pool: 'ingress_lossless_pool', ...row };
    out.BUFFER_PG ??= {};
    for (const range of ranges(bits(qos.pfc_enable))) {
      if (out.BUFFER_PG[`${port}|${range}`]?.profile !== name) out.BUFFER_PG[`${port}|${range}`] = { profile: name };
    }
  }
  return out;
}

export interface PortView {
  /** What a frame with PCP p becomes: TC, egress queue, ingress PG. */
  dot1p: { tc: number; queue: number; pg: number }[];
  /** What an IP packet with DSCP d becomes, or null when the port does not classify by DSCP. */
  dscp: ({ tc: number; queue: number } | null)[];
  /** Priorities with PFC on. */
  pfcEnabled: number[];
  /** Received PFC for priority p pauses this queue. */
  pausedQueue: number[];
  /** PFC for priority p is sent when this PG crosses XOFF. */
  pfcPg: number[];
  /** The buffer profile each PG 0..7 ends up with (null: none). */
  pgProfile: (string | null)[];
  /** Queues the PFC watchdog watches. */
  watchdogQueues: number[];
}

/** What orchagent applies to `port` from the tables. */
export function portView(db: Db, port: string): PortView {
  const qos = db.PORT_QOS_MAP?.[port] ?? {};
  const map = (field: string, table: string): Entry | undefined => (qos[field] ? db[table]?.[qos[field]] : undefined);
  const lookup = (m: Entry | undefined, k: number, identity: number | null) => (m ? Number(m[String(k)] ?? identity) : identity);
  const dot1pTc = map('dot1p_to_tc_map', 'DOT1P_TO_TC_MAP');
  const dscpTc = map('dscp_to_tc_map', 'DSCP_TO_TC_MAP');
  const tcQueue = map('tc_to_queue_map', 'TC_TO_QUEUE_MAP');
  const tcPg = map('tc_to_pg_map', 'TC_TO_PRIORITY_GROUP_MAP');
  const pfcQueue = map('pfc_to_queue_map', 'MAP_PFC_PRIORITY_TO_QUEUE');
  const pfcPg = map('pfc_to_pg_map', 'PFC_PRIORITY_TO_PRIORITY_GROUP_MAP');
  const queueOf = (tc: number) => lookup(tcQueue, tc, tc)!;
  const pgProfile: (string | null)[] = Array(8).fill(null);
  for (const [key, e] of Object.entries(db.BUFFER_PG ?? {})) {
    const [p, range] = key.split('|');
    if (p === port) for (const g of rangeIds(range)) pgProfile[g] = e.profile;
  }
  return {
    dot1p: Array.from({ length: 8 }, (_, p) => {
      const tc = lookup(dot1pTc, p, 0)!;
      return { tc, queue: queueOf(tc), pg: lookup(tcPg, tc, tc)! };
    }),
    dscp: Array.from({ length: 64 }, (_, d) => {
      if (!dscpTc) return null;
      const tc = lookup(dscpTc, d, 0)!;
      return { tc, queue: queueOf(tc) };
    }),
    pfcEnabled: bits(qos.pfc_enable),
    pausedQueue: Array.from({ length: 8 }, (_, p) => lookup(pfcQueue, p, p)!),
    pfcPg: Array.from({ length: 8 }, (_, p) => lookup(pfcPg, p, p)!),
    pgProfile,
    watchdogQueues: db.PFC_WD?.[port] ? bits(qos.pfcwd_sw_enable) : [],
  };
}

/** Headroom the lossless PGs of all ports reserve: the profile's xoff for every PG of each BUFFER_PG key. */
export function reservedHeadroom(db: Db): number {
  let sum = 0;
  for (const [key, e] of Object.entries(db.BUFFER_PG ?? {})) {
    const xoff = db.BUFFER_PROFILE?.[e.profile]?.xoff;
    if (xoff !== undefined) sum += Number(xoff) * rangeIds(key.split('|')[1]).length;
  }
  return sum;
}
