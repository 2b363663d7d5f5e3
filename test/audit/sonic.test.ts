// dcbkit audit against SONiC's CONFIG_DB, read two ways: from a real redis-server (Debian's
// redis-server, on a unix socket in a temp dir, database 4, keys `TABLE|key` as SONiC stores them)
// and from a JSON dump in sonic-cfggen's shape. Both are loaded with the tables `dcbkit codegen
// --target sonic` writes for examples/configs/roce.yaml: audited clean, then changed by hand in
// planted ways, each of which the audit must report with exactly the expected lines (exit 1), and
// nothing else; changes that keep the meaning (other names for maps and schedulers, other ports and
// tables of the switch) must stay clean.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigDb } from '../../codegen/sonic.js';
import { requireTool, runCli, runCliAsync } from '../helpers.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const CONFIG = 'examples/configs/roce.yaml';
let dir: string;
let generated: ConfigDb;
let redis: RedisServer | undefined;
let sock: string;

const clone = (db: ConfigDb): ConfigDb => JSON.parse(JSON.stringify(db));
const redisCli = (input: string) => spawnSync('redis-cli', ['-s', sock, '-n', '4'], { input, encoding: 'utf8' });
const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** redis-cli lines that turn CONFIG_DB `from` into `to`, key by key as SONiC stores them (TABLE|key -> hash). */
function redisChanges(from: ConfigDb, to: ConfigDb): string {
  const lines: string[] = [];
  const flat = (db: ConfigDb) => new Map(Object.entries(db).flatMap(([t, rows]) => Object.entries(rows).map(([k, v]) => [`${t}|${k}`, v] as const)));
  const a = flat(from);
  const b = flat(to);
  for (const [key, fields] of b) {
    if (JSON.stringify(a.get(key)) === JSON.stringify(fields)) continue;
    if (a.has(key)) lines.push(`DEL ${quote(key)}`);
    lines.push(`HSET ${quote(key)} ${Object.entries(fields).map(([f, v]) => `${quote(f)} ${quote(v)}`).join(' ')}`);
  }
  for (const key of a.keys()) if (!b.has(key)) lines.push(`DEL ${quote(key)}`);
  return lines.join('\n') + '\n';
}

function loadRedis(from: ConfigDb, to: ConfigDb): void {
  const r = redisCli(redisChanges(from, to));
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).not.toMatch(/ERR/);
}

interface Plant {
  what: string;
  change: (db: ConfigDb) => void;
  lines: string[];
}

const PLANTS: Plant[] = [
  {
    what: "TC 3's queue moved to a scheduler of weight 30",
    change: (db) => {
      db.SCHEDULER['scheduler.30'] = { type: 'DWRR', weight: '30' };
      db.QUEUE['Ethernet0|3'].scheduler = 'scheduler.30';
    },
    lines: ['Ethernet0.ets.bw[3]: running 30, intended 50'],
  },
  {
    what: 'the shared ETS scheduler made strict',
    change: (db) => (db.SCHEDULER['dcbkit.dwrr.50'] = { type: 'STRICT' }),
    // no TC has a weight any more: one line for the whole array
    lines: ['Ethernet0.ets.tsa[0]: running strict, intended ets', 'Ethernet0.ets.tsa[3]: running strict, intended ets', 'Ethernet0.ets.bw: running absent, intended 0:50 3:50'],
  },
  {
    what: 'priority 4 mapped to TC 3',
    change: (db) => (db.DOT1P_TO_TC_MAP.DCBKIT['4'] = '3'),
    lines: ['Ethernet0.ets.prio_tc[4]: running 3, intended 0'],
  },
  {
    what: 'PFC turned on for priority 4 too',
    change: (db) => (db.PORT_QOS_MAP.Ethernet0.pfc_enable = '3,4'),
    lines: ['Ethernet0.pfc.enable: running 3,4, intended 3'],
  },
  {
    what: 'the lossless profile with less headroom',
    change: (db) => (db.BUFFER_PROFILE.pg_lossless_100000_30m_profile.xoff = '70000'),
    lines: ['Ethernet0.buffer_pg.xoff[3]: running 70000, intended 78336'],
  },
  {
    what: 'ECN marking from a lower threshold',
    change: (db) => (db.WRED_PROFILE.dcbkit_ecn_tc3.green_min_threshold = '50000'),
    lines: ['Ethernet0.wred.green_min_threshold[3]: running 50000, intended 100096'],
  },
  {
    what: 'DSCP 46 classified into TC 3',
    change: (db) => (db.DSCP_TO_TC_MAP.DCBKIT['46'] = '3'),
    lines: ['Ethernet0.dscp_tc[46]: running 3, intended 0'],
  },
  {
    what: 'the DSCP map unbound from the port',
    change: (db) => delete db.PORT_QOS_MAP.Ethernet0.dscp_to_tc_map,
    lines: [`Ethernet0.dscp_tc: running absent, intended ${Array.from({ length: 64 }, (_, d) => `${d}:${d === 26 ? 3 : d === 48 ? 6 : 0}`).join(' ')}`],
  },
  {
    what: "the port's PFC watchdog removed",
    change: (db) => delete db.PFC_WD.Ethernet0,
    lines: [
      'Ethernet0.pfc_wd.action: running absent, intended drop',
      'Ethernet0.pfc_wd.detection_time: running absent, intended 200',
      'Ethernet0.pfc_wd.restoration_time: running absent, intended 400',
      'pfc_wd.global.POLL_INTERVAL: running absent, intended 100',
    ],
  },
  {
    what: 'a lossless PG added for priority 4',
    change: (db) => (db.BUFFER_PG['Ethernet0|4'] = { profile: 'pg_lossless_100000_30m_profile' }),
    lines: ['dynamic_th 0', 'pool ingress_lossless_pool', 'size 96768', 'xoff 78336', 'xon 18432'].map((fv) => {
      const [f, v] = fv.split(' ');
      return `Ethernet0.buffer_pg.${f}[4]: running ${v}, intended absent`;
    }),
  },
  {
    what: 'a longer cable and a smaller shared pool',
    change: (db) => {
      db.CABLE_LENGTH.AZURE.Ethernet0 = '300m';
      db.BUFFER_POOL.ingress_lossless_pool.size = '20000000';
    },
    lines: ['Ethernet0.cable: running 300m, intended 30m', 'buffer_pool.ingress_lossless_pool.size: running 20000000, intended 33476096'],
  },
];

/** Same meaning, other names and other entries: a switch's own map names, a second port, the tables audit does not read. */
function renamedWithNeighbours(db: ConfigDb): ConfigDb {
  const out = clone(db);
  for (const t of ['DOT1P_TO_TC_MAP', 'TC_TO_QUEUE_MAP', 'TC_TO_PRIORITY_GROUP_MAP', 'DSCP_TO_TC_MAP', 'MAP_PFC_PRIORITY_TO_QUEUE', 'PFC_PRIORITY_TO_PRIORITY_GROUP_MAP']) {
    out[t] = { AZURE: out[t].DCBKIT };
  }
  for (const f of ['dot1p_to_tc_map', 'dscp_to_tc_map', 'tc_to_queue_map', 'tc_to_pg_map', 'pfc_to_queue_map', 'pfc_to_pg_map']) out.PORT_QOS_MAP.Ethernet0[f] = 'AZURE';
  out.SCHEDULER = { 'scheduler.0': { type: 'DWRR', weight: '50' }, 'scheduler.1': { type: 'STRICT' } };
  out.QUEUE['Ethernet0|0'].scheduler = 'scheduler.0';
  out.QUEUE['Ethernet0|3'].scheduler = 'scheduler.0';
  out.QUEUE['Ethernet0|6'].scheduler = 'scheduler.1';
  out.PORT_QOS_MAP.Ethernet8 = { dot1p_to_tc_map: 'AZURE', pfc_enable: '3,4' };
  out.QUEUE['Ethernet8|0-2'] = { scheduler: 'scheduler.1' };
  out.CABLE_LENGTH.AZURE.Ethernet8 = '5m';
  out.PORT = { Ethernet0: { lanes: '0,1,2,3', speed: '100000' }, Ethernet8: { lanes: '8,9,10,11', speed: '100000' } };
  out.DEVICE_METADATA = { localhost: { hostname: 'sw1', hwsku: 'dcbkit-generic' } };
  return out;
}

beforeAll(async () => {
  requireTool('redis-server');
  requireTool('redis-cli');
  dir = mkdtempSync(join(tmpdir(), 'dcbkit-audit-sonic-'));
  const gen = runCli(['codegen', CONFIG, '--target', 'sonic', '--out', join(dir, 'gen')]);
  expect(gen.status, gen.stderr).toBe(0);
  generated = JSON.parse(readFileSync(join(dir, 'gen', 'sonic', 'config_db.json'), 'utf8'));
  sock = join(dir, 'redis.sock');
  redis = await startRedisServer(dir, ['--port', '0', '--unixsocket', sock], () => existsSync(sock) && redisCli('PING\n').stdout.includes('PONG'));
  loadRedis({}, generated);
});

afterAll(async () => {
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const auditRedis = (...extra: string[]) => runCli(['audit', CONFIG, '--sonic-redis', `unix:${sock}`, ...extra]);

describe('audit --sonic-redis (a real redis-server holding CONFIG_DB)', () => {
  it('the generated tables audit clean, in text and in JSON', () => {
    const r = auditRedis();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^ok: sonic-redis:unix:.*redis.sock runs what ${CONFIG} means \\(\\d+ settings compared\\)\\n$`));
    const j = JSON.parse(auditRedis('--json').stdout);
    expect(j).toMatchObject({ ok: true, target: 'sonic', differences: [] });
    expect(j.compared).toBeGreaterThan(100);
  });

  it.each(PLANTS)('finds: $what', (plant) => {
    const changed = clone(generated);
    plant.change(changed);
    loadRedis(generated, changed);
    try {
      const r = auditRedis();
      expect(r.stderr).toBe('');
      expect(r.stdout.trimEnd().split('\n')).toEqual(plant.lines);
      expect(r.status).toBe(1);
    } finally {
      // a change left behind would show as an extra line in the next case
      loadRedis(changed, generated);
    }
  });

  it('--json lists each difference as {path, running, intended}, absent as null', () => {
    const changed = clone(generated);
    PLANTS[0].change(changed);
    delete changed.PFC_WD.Ethernet0;
    loadRedis(generated, changed);
    try {
      const r = auditRedis('--json');
      expect(r.status).toBe(1);
      const j = JSON.parse(r.stdout);
      expect(j.ok).toBe(false);
      expect(j.differences[0]).toEqual({ path: 'Ethernet0.ets.bw[3]', running: '30', intended: '50' });
      expect(j.differences).toContainEqual({ path: 'Ethernet0.pfc_wd.action', running: null, intended: 'drop' });
      expect(j.differences).toHaveLength(5);
    } finally {
      loadRedis(changed, generated);
    }
    expect(auditRedis().status).toBe(0);
  });

  it('other names for the same maps and schedulers, other ports and other tables change nothing', () => {
    const same = renamedWithNeighbours(generated);
    loadRedis(generated, same);
    try {
      // a string key such as SONiC's CONFIG_DB_INITIALIZED is no table entry and is passed over
      expect(redisCli('SET CONFIG_DB_INITIALIZED 1\n').status).toBe(0);
      const r = auditRedis();
      expect(r.stdout).toMatch(/^ok: /);
      expect(r.status).toBe(0);
    } finally {
      loadRedis(same, generated);
      redisCli('DEL CONFIG_DB_INITIALIZED\n');
    }
  });

  it('a list field stored as name@ (ConfigDBConnector typed_to_raw) reads as the list', () => {
    const key = 'BUFFER_PORT_EGRESS_PROFILE_LIST|Ethernet0';
    expect(redisCli(`DEL "${key}"\nHSET "${key}" "profile_list@" "egress_lossy_profile,egress_lossless_profile"\n`).status).toBe(0);
    try {
      expect(auditRedis().status).toBe(0);
      redisCli(`HSET "${key}" "profile_list@" "egress_lossy_profile"\n`);
      const r = auditRedis();
      expect(r.stdout).toBe('Ethernet0.egress_profile_list: running egress_lossy_profile, intended egress_lossless_profile,egress_lossy_profile\n' +
        ['dynamic_th 7', 'pool egress_lossless_pool', 'size 0'].map((fv) => `buffer_profile.egress_lossless_profile.${fv.split(' ')[0]}: running absent, intended ${fv.split(' ')[1]}\n`).join(''));
      expect(r.status).toBe(1);
    } finally {
      loadRedis({}, { BUFFER_PORT_EGRESS_PROFILE_LIST: generated.BUFFER_PORT_EGRESS_PROFILE_LIST });
      redisCli(`HDEL "${key}" "profile_list@"\n`);
    }
    expect(auditRedis().status).toBe(0);
  });

  it('a server that refuses the read, or holds a table key that is not a hash, is bad input (exit 2) naming the command', () => {
    expect(redisCli('CONFIG SET requirepass audit-test\n').stdout).toContain('OK');
    try {
      const r = auditRedis();
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toMatch(/^--sonic-redis: unix:.*redis.sock refused SELECT 4: NOAUTH Authentication required\.?; give the password in the URL \(redis:\/\/:PASSWORD@host:port\) or in \$DCBKIT_REDIS_PASSWORD$/);
    } finally {
      spawnSync('redis-cli', ['-s', sock, '-a', 'audit-test', '--no-auth-warning', 'CONFIG', 'SET', 'requirepass', ''], { encoding: 'utf8' });
    }
    expect(redisCli('SET "QUEUE|Ethernet0|7" x\n').status).toBe(0);
    try {
      const r = auditRedis();
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toMatch(/^--sonic-redis: unix:.*redis.sock refused HGETALL QUEUE\|Ethernet0\|7: WRONGTYPE/);
    } finally {
      redisCli('DEL "QUEUE|Ethernet0|7"\n');
    }
    expect(auditRedis().status).toBe(0);
  });

  it('a socket that does not speak RESP is bad input (exit 2)', async () => {
    const path = join(dir, 'not-redis.sock');
    const clients = new Set<Socket>();
    const server = createServer((c) => {
      clients.add(c);
      c.on('error', () => {});
      c.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    await new Promise<void>((r) => server.listen(path, r));
    try {
      const r = await runCliAsync(['audit', CONFIG, '--sonic-redis', `unix:${path}`]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toMatch(/^--sonic-redis: unix:.*not-redis.sock sent a reply that is not RESP \(is it a redis server\?\): reply type byte 0x48 is not RESP$/);
    } finally {
      for (const c of clients) c.destroy();
      server.close();
    }
  });

  it('HOST:PORT reaches the same server over TCP (a relay on 127.0.0.1 to its socket)', async () => {
    const relays = new Set<Socket>();
    const relay = createServer((c) => {
      const up = createConnection({ path: sock });
      relays.add(c).add(up);
      c.on('error', () => up.destroy());
      up.on('error', () => c.destroy());
      c.pipe(up).pipe(c);
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    try {
      const port = (relay.address() as AddressInfo).port;
      const r = await runCliAsync(['audit', CONFIG, '--sonic-redis', `127.0.0.1:${port}`]);
      expect(r.stdout).toMatch(new RegExp(`^ok: sonic-redis:127\\.0\\.0\\.1:${port} runs what`));
      expect(r.status).toBe(0);
    } finally {
      for (const c of relays) c.destroy();
      relay.close();
    }
  });

  it('a server that is not there, or a bad address, is bad input (exit 2) naming --sonic-redis', () => {
    for (const [url, rule] of [
      [`unix:${join(dir, 'nothing.sock')}`, /^--sonic-redis: cannot connect to unix:.*nothing.sock: no such socket$/],
      ['localhost', /^--sonic-redis: not an address; give unix:PATH \(a socket\), HOST:PORT or redis:\/\/\[user\[:password\]@\]host:port\[\/db\] \(rediss:\/\/ for TLS\), got "localhost"$/],
      ['127.0.0.1:70000', /^--sonic-redis: the port must be 1..65535/],
      ['unix:', /^--sonic-redis: empty socket path/],
    ] as const) {
      const r = runCli(['audit', CONFIG, '--sonic-redis', url, '--json']);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toMatch(rule);
      expect(JSON.parse(r.stdout).problems[0].path).toBe('--sonic-redis');
    }
  });
});

describe('audit --sonic (a CONFIG_DB dump)', () => {
  /** As sonic-cfggen -d --print-data prints it: lists as JSON arrays, every table of the switch. */
  const dump = (db: ConfigDb) => {
    const out: Record<string, Record<string, Record<string, string | string[]>>> = clone(db);
    for (const t of ['BUFFER_PORT_INGRESS_PROFILE_LIST', 'BUFFER_PORT_EGRESS_PROFILE_LIST']) for (const e of Object.values(out[t] ?? {})) e.profile_list = String(e.profile_list).split(',');
    return JSON.stringify(out, null, 2);
  };
  const auditFile = (text: string, ...extra: string[]) => {
    const f = join(dir, `dump-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(f, text);
    return runCli(['audit', CONFIG, '--sonic', f, ...extra]);
  };

  it('the generated tables audit clean, renamed and among other ports too', () => {
    expect(auditFile(dump(generated)).status).toBe(0);
    expect(auditFile(dump(renamedWithNeighbours(generated))).status).toBe(0);
  });

  it.each(PLANTS)('finds: $what', (plant) => {
    const changed = clone(generated);
    plant.change(changed);
    const r = auditFile(dump(changed));
    expect(r.stdout.trimEnd().split('\n')).toEqual(plant.lines);
    expect(r.status).toBe(1);
  });

  it('every planted change at once: every line of each', () => {
    const changed = clone(generated);
    // the two that hide other changes (no weights left, no DSCP map left) stay out
    const together = PLANTS.filter((p) => !p.what.includes('strict') && !p.what.includes('unbound'));
    for (const p of together) p.change(changed);
    const r = auditFile(dump(changed));
    // the added PG 4 points at the lossless profile whose xoff another plant lowered
    const want = together.flatMap((p) => p.lines).map((l) => l.replace('xoff[4]: running 78336', 'xoff[4]: running 70000'));
    expect([...r.stdout.trimEnd().split('\n')].sort()).toEqual([...want].sort());
    expect(r.status).toBe(1);
  });

  it('a dump that is not CONFIG_DB is bad input (exit 2) naming the file and the field', () => {
    const cases: [string, RegExp][] = [
      ['not json', /^--sonic: .*dump-\w+\.json is not JSON/],
      ['[]', /^--sonic: .*dump-\w+\.json: must be a JSON object of CONFIG_DB tables/],
      ['{"QUEUE": {"Ethernet0|3": {"scheduler": 5}}}', /^--sonic: .*dump-\w+\.json: QUEUE\.Ethernet0\|3\.scheduler: must be a string or a list of strings/],
      ['{"PORT_QOS_MAP": []}', /^--sonic: .*: PORT_QOS_MAP: must be an object of entries$/],
    ];
    for (const [text, rule] of cases) {
      const r = auditFile(text);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim()).toMatch(rule);
    }
    const missing = runCli(['audit', CONFIG, '--sonic', join(dir, 'absent.json')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toMatch(/^--sonic: cannot read .*absent.json"?: no such file or directory$/);
  });
});
