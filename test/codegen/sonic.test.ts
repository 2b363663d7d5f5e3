// SONiC target: config_db.json and patch.json validated by yanglint against the upstream
// sonic-yang-models (mutations rejected by the same check), and their meaning on a switch: a model
// of orchagent and buffermgrd (sonic-model.ts) applied to the tables must give the config's intent
// (classification, lossless PGs and their headroom, the queue a PFC frame pauses, the watchdog's
// queues, the pool's accounting) for every example config and for lossless priorities that live
// in TCs of other numbers.
import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildIr, type Ir } from '../../codegen/ir.js';
import { defaultDevice, loadDevice, parseDevice, type Device } from '../../codegen/device.js';
import { idRanges, sonicTarget } from '../../codegen/sonic.js';
import { loadConfig, type DcbConfig } from '../../host/config/index.js';
import { requireTool } from '../helpers.js';
import { arbConfigInput, exampleConfig, losslessInput, parsed, testHeadroom, type ConfigInput } from './fixtures.js';
import { switchTables, yanglint } from './sonic-yang.js';
import { applyPatch, buffermgrd, configLoad, portView, reservedHeadroom, type Db, type PgLookup } from './sonic-model.js';

const opts = { headroom: testHeadroom };
const emitted = (ir: Ir) => sonicTarget.emit(ir);
const emitDb = (ir: Ir): Db => JSON.parse(emitted(ir).files['config_db.json'] as string) as Db;
const emitPatch = (ir: Ir) => JSON.parse(emitted(ir).files['patch.json'] as string) as { op: string; path: string; value: unknown }[];

const withWatchdog = (input: ConfigInput): ConfigInput => ({ ...input, pfc: { ...input.pfc, watchdog: { enable: true, restoration_ms: 400 } } });
/** Lossless priority 6 lives in TC 1 (queue 1), lossless priority 3 in TC 2: no number agrees. */
const otherTcsInput = (): ConfigInput => ({
  port: { name: 'Ethernet0', speed: '100G', cable: '40m' },
  ets: { prio_tc: [0, 3, 0, 2, 0, 0, 1, 3], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 30, 30, 0, 0, 0, 0, 0] },
  pfc: { enable: [3, 6] },
  app: [{ selector: 'dscp', protocol: 26, priority: 6 }, { selector: 'dscp', protocol: 46, priority: 1 }],
});

const SONIC_TABLES = [
  'SCHEDULER', 'WRED_PROFILE', 'DOT1P_TO_TC_MAP', 'DSCP_TO_TC_MAP', 'TC_TO_QUEUE_MAP', 'TC_TO_PRIORITY_GROUP_MAP', 'MAP_PFC_PRIORITY_TO_QUEUE',
  'PFC_PRIORITY_TO_PRIORITY_GROUP_MAP', 'BUFFER_POOL', 'BUFFER_PROFILE', 'CABLE_LENGTH', 'QUEUE', 'PORT_QOS_MAP', 'BUFFER_PG', 'BUFFER_QUEUE',
  'BUFFER_PORT_INGRESS_PROFILE_LIST', 'BUFFER_PORT_EGRESS_PROFILE_LIST', 'PFC_WD',
];

/** A running switch before the load: its own tables, empty QoS tables, and the template's 5 m cables. */
function runningSwitch(ir: Ir): Db {
  const db: Db = switchTables({ PORT_QOS_MAP: Object.fromEntries(ir.ports.map((p) => [p.name, {}])) }) as Db;
  ir.ports.forEach((p) => (db.PORT[p.name].speed = String(p.speedBps / 1e6)));
  for (const t of SONIC_TABLES) db[t] ??= {};
  db.CABLE_LENGTH = { AZURE: Object.fromEntries(ir.ports.map((p) => [p.name, '5m'])) };
  return db;
}

/** pg_profile_lookup.ini has a row for every speed and cable here, with values unlike ours. */
const lookupEverything: PgLookup = () => ({ xon: '18432', xoff: '1024', size: '19456', dynamic_th: '0' });

/** The config's intent for one port, written from the config (and the IR's queue choice). */
function intent(cfg: DcbConfig, ir: Ir, portIndex: number) {
  const queue = (p: number) => ir.tcs[cfg.ets.prio_tc[p]].queue;
  const pg = ir.ports[portIndex].pgs.find((g) => g.lossless);
  const dscpApps = cfg.app.filter((a) => a.selector_name === 'dscp');
  const dscpPrio = (d: number) => dscpApps.find((a) => a.protocol === d)?.priority ?? 0;
  const lossless = cfg.pfc.enable;
  return {
    dot1p: Array.from({ length: 8 }, (_, p) => ({ tc: cfg.ets.prio_tc[p], queue: queue(p) })),
    dscp: Array.from({ length: 64 }, (_, d) => (dscpApps.length ? { tc: cfg.ets.prio_tc[dscpPrio(d)], queue: queue(dscpPrio(d)) } : null)),
    priorities: Array.from({ length: 8 }, (_, p) =>
      lossless.includes(p)
        ? { lossless: true, pausedQueue: queue(p), headroom: { xon: String(pg!.xonBytes), xoff: String(pg!.headroomBytes) } }
        : { lossless: false },
    ),
    watchdogQueues: cfg.pfc.watchdog.enable ? [...new Set(lossless.map(queue))].sort() : [],
  };
}

/** The same shape, from what the model says SONiC does with the tables. */
function observed(db: Db, port: string) {
  const v = portView(db, port);
  const profile = (g: number) => db.BUFFER_PROFILE?.[v.pgProfile[g] ?? ''];
  return {
    dot1p: v.dot1p.map(({ tc, queue }) => ({ tc, queue })),
    dscp: v.dscp,
    priorities: v.dot1p.map(({ pg }, p) => {
      const prof = profile(pg);
      // Lossless on SONiC: PFC on, the PFC frame sent for p when p's own traffic PG fills, and that
      // PG holding a headroom profile.
      const lossless = v.pfcEnabled.includes(p) && v.pfcPg[p] === pg && prof?.xoff !== undefined;
      return lossless ? { lossless, pausedQueue: v.pausedQueue[p], headroom: { xon: prof.xon, xoff: prof.xoff } } : { lossless };
    }),
    watchdogQueues: [...new Set(v.watchdogQueues)].sort(),
  };
}

const exampleConfigs = ['examples/configs', 'examples/codegen'].flatMap((d) =>
  readdirSync(d).filter((f) => /\.(ya?ml|json)$/.test(f) && !f.startsWith('device')).map((f) => join(d, f)),
);
const devices: [string, Device][] = [['default device', defaultDevice], ['device-2port.yaml', loadDevice('examples/codegen/device-2port.yaml')]];

/** Loads the generated tables onto a running switch both ways, lets buffermgrd run, returns both results. */
function onSwitch(ir: Ir): { load: Db; patch: Db } {
  const running = runningSwitch(ir);
  return {
    load: buffermgrd(configLoad(running, emitDb(ir)), lookupEverything),
    patch: buffermgrd(applyPatch(running, emitPatch(ir)), lookupEverything),
  };
}

function expectIntent(cfg: DcbConfig, device: Device, label: string): void {
  const ir = buildIr(cfg, device, opts);
  expect(sonicTarget.check(ir), label).toEqual([]);
  for (const [how, db] of Object.entries(onSwitch(ir))) {
    ir.ports.forEach((p, i) => expect(observed(db, p.name), `${label} ${how} ${p.name}`).toEqual(intent(cfg, ir, i)));
    // Every lossless PG buffermgrd leaves behind is paid for: pool = buffer - reserved headroom.
    expect(Number(db.BUFFER_POOL.ingress_lossless_pool.size), `${label} ${how} pool`).toBe(device.buffer_bytes - reservedHeadroom(db));
  }
}

describe('sonic target: what the switch does with the tables', () => {
  test('the example configs are all found', () => {
    expect(exampleConfigs).toEqual(expect.arrayContaining(['examples/configs/roce.yaml', 'examples/configs/converged.yaml', 'examples/configs/cee-pg.yaml', 'examples/codegen/eight-tc.yaml']));
  });

  for (const file of exampleConfigs) {
    for (const [name, device] of devices) {
      test(`${file} on the ${name}: config load and apply-patch give the config's intent`, () => {
        const cfg = loadConfig(file).config;
        const ir = buildIr(cfg, device, opts);
        if (ir.problems.length) {
          // mixed-tc.yaml: a lossless priority sharing a TC with lossy ones is refused, not emitted.
          expect(sonicTarget.check(ir).map((p) => p.path)).toContain('sonic: pfc.enable');
          return;
        }
        expectIntent(cfg, device, `${file} ${name}`);
      });
    }
  }

  test('lossless priorities in TCs of other numbers (6 in TC 1, 3 in TC 2): PFC pauses queues 1 and 2, PGs 3 and 6 are lossless', () => {
    const cfg = parsed(otherTcsInput());
    expectIntent(cfg, defaultDevice, 'other TCs');
    const db = emitDb(buildIr(cfg, defaultDevice, opts));
    expect(db.MAP_PFC_PRIORITY_TO_QUEUE.DCBKIT).toMatchObject({ 3: '2', 6: '1' });
    expect(db.PFC_PRIORITY_TO_PRIORITY_GROUP_MAP.DCBKIT).toMatchObject({ 3: '3', 6: '6' });
    expect(db.TC_TO_PRIORITY_GROUP_MAP.DCBKIT).toMatchObject({ 1: '6', 2: '3' });
    expect(Object.keys(db.BUFFER_PG)).toEqual(['Ethernet0|3', 'Ethernet0|6', 'Ethernet0|0']);
  });

  test('the model sees what the issue reports: without the PFC maps a frame for 6 pauses queue 6; without CABLE_LENGTH buffermgrd re-points the PGs', () => {
    const cfg = parsed(otherTcsInput());
    const ir = buildIr(cfg, defaultDevice, opts);
    const noMaps = emitDb(ir);
    delete noMaps.PORT_QOS_MAP.Ethernet0.pfc_to_queue_map;
    delete noMaps.PORT_QOS_MAP.Ethernet0.pfc_to_pg_map;
    const v = portView(buffermgrd(configLoad(runningSwitch(ir), noMaps), lookupEverything), 'Ethernet0');
    expect(v.pausedQueue[6]).toBe(6);
    expect(observed(configLoad(runningSwitch(ir), noMaps), 'Ethernet0')).not.toEqual(intent(cfg, ir, 0));

    const noCable = emitDb(ir);
    delete (noCable as Partial<Db>).CABLE_LENGTH;
    const after = buffermgrd(configLoad(runningSwitch(ir), noCable), lookupEverything);
    expect(after.BUFFER_PG['Ethernet0|3'].profile).toBe('pg_lossless_100000_5m_profile');
    expect(observed(after, 'Ethernet0').priorities[3]).toEqual({ lossless: true, pausedQueue: 2, headroom: { xon: '18432', xoff: '1024' } });
  });

  test('two lossless priorities in one TC (converged.yaml): buffermgrd\'s extra PG is emitted, counted and warned about', () => {
    const cfg = loadConfig('examples/configs/converged.yaml').config;
    const ir = buildIr(cfg, defaultDevice, opts);
    const out = emitted(ir);
    expect(out.warnings).toEqual([
      {
        path: 'sonic: pfc.enable',
        rule: 'lossless priority 6 shares TC 1 with lossless priority 1; buffermgrd (cfgmgr/buffermgr.cpp) still gives it a lossless PG 6, which reserves headroom on every port but carries no traffic (its frames use PG 1); the pool size counts it',
      },
    ]);
    const db = emitDb(ir);
    expect(db.PFC_PRIORITY_TO_PRIORITY_GROUP_MAP.DCBKIT).toMatchObject({ 1: '1', 6: '1' });
    expect(Object.keys(db.BUFFER_PG)).toEqual(['Ethernet4|1', 'Ethernet4|6', 'Ethernet4|0']);
    const headroom = ir.ports[0].pgs.find((g) => g.lossless)!.headroomBytes;
    expect(Number(db.BUFFER_POOL.ingress_lossless_pool.size)).toBe(defaultDevice.buffer_bytes - 2 * headroom);
  });

  test('the watchdog: pfcwd_sw_enable lists the PFC priorities; where queue p does not hold priority p SONiC cannot watch it: refused', () => {
    const ir = buildIr(parsed(withWatchdog(losslessInput())), defaultDevice, opts);
    const db = emitDb(ir);
    expect(db.PORT_QOS_MAP.Ethernet0).toMatchObject({ pfc_enable: '3,4', pfcwd_sw_enable: '3,4' });
    expect(portView(db, 'Ethernet0').watchdogQueues).toEqual([3, 4]);
    expect(buildIr(parsed(losslessInput()), defaultDevice, opts).watchdog.enabled).toBe(false);
    expect(emitDb(buildIr(parsed(losslessInput()), defaultDevice, opts)).PORT_QOS_MAP.Ethernet0.pfcwd_sw_enable).toBeUndefined();
    const apart = buildIr(parsed(withWatchdog(otherTcsInput())), defaultDevice, opts);
    expect(sonicTarget.check(apart)).toEqual([
      {
        path: 'sonic: pfc.watchdog.enable',
        rule: "SONiC's PFC watchdog watches queue p for lossless priority p (orchagent pfcwdsworch.cpp), but priority 3 is in queue 2, priority 6 is in queue 1; disable the watchdog or put each lossless priority in the TC of its own number",
      },
    ]);
  });

  test('dscp_to_tc_map only when the config classifies by DSCP; TC maps cover all 8 TCs', () => {
    const noDscp = emitDb(buildIr(parsed({ ...losslessInput(), app: [{ selector: 'ethertype', protocol: 0x8906, priority: 3 }] }), defaultDevice, opts));
    expect(noDscp.DSCP_TO_TC_MAP).toBeUndefined();
    expect(noDscp.PORT_QOS_MAP.Ethernet0.dscp_to_tc_map).toBeUndefined();
    const db = emitDb(buildIr(parsed(otherTcsInput()), defaultDevice, opts));
    expect(Object.keys(db.DSCP_TO_TC_MAP.DCBKIT)).toHaveLength(64);
    for (const m of ['TC_TO_QUEUE_MAP', 'TC_TO_PRIORITY_GROUP_MAP']) expect(Object.keys(db[m].DCBKIT), m).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
    // Unused TCs 4..7 go to the lowest used lossy TC's queue and the lossy PG.
    expect(db.TC_TO_QUEUE_MAP.DCBKIT).toMatchObject({ 4: '0', 7: '0' });
    expect(db.TC_TO_PRIORITY_GROUP_MAP.DCBKIT).toMatchObject({ 0: '0', 4: '0' });
  });

  test('property: every random config SONiC accepts means its intent on the switch (with and without the watchdog, 1 or 2 ports)', () => {
    const twoPorts = parseDevice({ ports: [{ name: 'Ethernet0', index: 0, speed: '100G', cable: '5m' }, { name: 'Ethernet8', index: 2, speed: '25G', cable: '40m' }] });
    fc.assert(
      fc.property(arbConfigInput, fc.boolean(), fc.boolean(), (input, watchdog, two) => {
        const cfg = parsed(watchdog ? withWatchdog(input) : input);
        const device = two ? twoPorts : defaultDevice;
        const problems = sonicTarget.check(buildIr(cfg, device, opts));
        // The only refusal left for these configs: a watchdog SONiC would point at other queues.
        if (problems.length) expect(problems.map((p) => p.path)).toEqual(['sonic: pfc.watchdog.enable']);
        else expectIntent(cfg, device, 'random');
      }),
      { numRuns: 150 },
    );
  });

  test('idRanges writes keys as generateIdListFromMap does', () => {
    expect(idRanges([1, 2, 5])).toEqual(['1-2', '5']);
    expect(idRanges([3, 4])).toEqual(['3-4']);
    expect(idRanges([0, 2, 3, 4, 7])).toEqual(['0', '2-4', '7']);
    expect(idRanges([])).toEqual([]);
  });
});

describe('sonic target: files and schema', () => {
  const ir = buildIr(parsed(withWatchdog(losslessInput())), defaultDevice, opts);

  test('config_db.json holds QoS and buffer tables only (never DEVICE_METADATA or PORT) and passes yanglint', () => {
    requireTool('yanglint');
    expect(sonicTarget.check(ir)).toEqual([]);
    const db = emitDb(ir);
    expect(Object.keys(db).filter((t) => !SONIC_TABLES.includes(t))).toEqual([]);
    expect(db.CABLE_LENGTH).toEqual({ AZURE: { Ethernet0: '300m' } });
    const r = yanglint(db);
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  test('patch.json: one add op per entry (per port for CABLE_LENGTH); on a switch it yields config_db.json\'s entries and passes yanglint', () => {
    requireTool('yanglint');
    const ops = emitPatch(ir);
    const db = emitDb(ir);
    expect(new Set(ops.map((o) => o.op))).toEqual(new Set(['add']));
    expect(ops.find((o) => o.path.startsWith('/CABLE_LENGTH'))).toEqual({ op: 'add', path: '/CABLE_LENGTH/AZURE/Ethernet0', value: '300m' });
    expect(ops.find((o) => o.path === '/BUFFER_PG/Ethernet0|3-4')).toEqual({ op: 'add', path: '/BUFFER_PG/Ethernet0|3-4', value: { profile: 'pg_lossless_100000_300m_profile' } });
    const running = runningSwitch(ir);
    running.SCHEDULER.azure_sched = { type: 'DWRR', weight: '14' };
    const patched = applyPatch(running, ops);
    for (const [table, rows] of Object.entries(db)) {
      if (table === 'CABLE_LENGTH') continue;
      for (const [key, value] of Object.entries(rows)) expect(patched[table][key], `${table}|${key}`).toEqual(value);
    }
    expect(patched.SCHEDULER.azure_sched).toEqual({ type: 'DWRR', weight: '14' }); // other entries stay
    expect(patched.CABLE_LENGTH.AZURE.Ethernet0).toBe('300m');
    const tables = Object.fromEntries(Object.entries(patched).filter(([, rows]) => Object.keys(rows).length > 0));
    const r = yanglint(tables);
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  test('a two-port device with different cables passes yanglint and gets two lossless profiles', () => {
    requireTool('yanglint');
    const device = parseDevice({
      ports: [
        { name: 'Ethernet0', index: 0, speed: '100G', cable: '5m', lanes: '0,1,2,3' },
        { name: 'Ethernet4', index: 1, speed: '400G', cable: '300m', lanes: '4,5,6,7,8,9,10,11' },
      ],
    });
    const db = emitDb(buildIr(parsed(losslessInput()), device, opts));
    expect(Object.keys(db.BUFFER_PROFILE).filter((n) => n.startsWith('pg_lossless')).sort()).toEqual(['pg_lossless_100000_5m_profile', 'pg_lossless_400000_300m_profile']);
    expect(db.CABLE_LENGTH).toEqual({ AZURE: { Ethernet0: '5m', Ethernet4: '300m' } });
    const r = yanglint(db);
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  test('yanglint rejects mutated tables (so the check above is a real check)', () => {
    requireTool('yanglint');
    const mutations: [string, (db: Db) => void, RegExp][] = [
      ['weight 0', (db) => (db.SCHEDULER['dcbkit.dwrr.40'].weight = '0'), /range/i],
      ['pfc_enable 8', (db) => (db.PORT_QOS_MAP.Ethernet0.pfc_enable = '8'), /pattern/i],
      ['pfcwd_sw_enable 9', (db) => (db.PORT_QOS_MAP.Ethernet0.pfcwd_sw_enable = '9'), /pattern/i],
      ['unknown scheduler', (db) => (db.QUEUE['Ethernet0|3'].scheduler = 'nope'), /leafref/i],
      ['unknown pfc_to_queue_map', (db) => (db.PORT_QOS_MAP.Ethernet0.pfc_to_queue_map = 'nope'), /leafref/i],
      ['queue 8 in MAP_PFC_PRIORITY_TO_QUEUE', (db) => (db.MAP_PFC_PRIORITY_TO_QUEUE.DCBKIT['3'] = '8'), /pattern|invalid/i],
      ['cable without unit', (db) => (db.CABLE_LENGTH.AZURE.Ethernet0 = '300'), /cable length/i],
      ['CABLE_LENGTH of a port the switch lacks', (db) => (db.CABLE_LENGTH.AZURE.Ethernet99 = '5m'), /leafref/i],
      ['BUFFER_QUEUE with an unknown profile', (db) => (db.BUFFER_QUEUE['Ethernet0|3-4'].profile = 'nope'), /leafref/i],
      ['wred max < min', (db) => (db.WRED_PROFILE.dcbkit_ecn_tc3.green_max_threshold = '1'), /max threshold/i],
      ['detection_time 50', (db) => (db.PFC_WD.Ethernet0.detection_time = '50'), /range/i],
    ];
    for (const [name, mutate, message] of mutations) {
      const db = emitDb(ir);
      mutate(db);
      const r = yanglint(db);
      expect(r.status, name).not.toBe(0);
      expect(r.output, name).toMatch(message);
    }
  });

  test('round trip: the tables give back the IR weights, thresholds and watchdog', () => {
    const db = emitDb(ir);
    const port = ir.ports[0];
    for (const t of ir.tcs.filter((x) => x.used)) {
      const q = Number(db.TC_TO_QUEUE_MAP.DCBKIT[String(t.tc)]);
      expect(q).toBe(t.queue);
      const sched = db.SCHEDULER[db.QUEUE[`${port.name}|${q}`].scheduler];
      if (t.tsa === 'ets') expect(sched).toEqual({ type: 'DWRR', weight: String(t.bwPercent) });
      else expect(sched).toEqual({ type: 'STRICT' });
      if (t.ecn) {
        const w = db.WRED_PROFILE[db.QUEUE[`${port.name}|${q}`].wred_profile];
        expect([Number(w.green_min_threshold), Number(w.green_max_threshold), Number(w.green_drop_probability)]).toEqual([t.ecn.kminBytes, t.ecn.kmaxBytes, t.ecn.pmaxPercent]);
      }
    }
    const pg = port.pgs.find((g) => g.lossless)!;
    expect(db.BUFFER_PROFILE.pg_lossless_100000_300m_profile).toEqual({
      pool: 'ingress_lossless_pool', xon: String(pg.xonBytes), xoff: String(pg.headroomBytes), size: String(pg.xonBytes + pg.headroomBytes), dynamic_th: '0',
    });
    expect(db.BUFFER_QUEUE).toEqual({ 'Ethernet0|3-4': { profile: 'egress_lossless_profile' }, 'Ethernet0|0-2': { profile: 'egress_lossy_profile' }, 'Ethernet0|5-7': { profile: 'egress_lossy_profile' } });
    expect(db.PFC_WD.Ethernet0).toEqual({ action: 'drop', detection_time: '200', restoration_time: '400' });
    expect(db.PFC_WD.GLOBAL).toEqual({ POLL_INTERVAL: '200' });
  });

  test('what SAI cannot hold is a problem: 0 % ETS TC, vendor TSA, lossless priority in a lossy PG', () => {
    const zero = losslessInput();
    zero.ets.bw = [0, 30, 30, 40, 0, 0, 0, 0];
    expect(sonicTarget.check(buildIr(parsed(zero), defaultDevice, opts))).toEqual([
      { path: 'sonic: ets.bw[0]', rule: 'SAI scheduler weight must be 1..100; an ETS TC with 0 % cannot be expressed' },
    ]);
    const vendor = losslessInput();
    vendor.ets.tsa[7] = 'vendor';
    expect(sonicTarget.check(buildIr(parsed(vendor), defaultDevice, opts)).map((p) => p.path)).toEqual(['sonic: ets.tsa[7]']);
    // docs/design.md §5 example: priorities 2 and 3 share TC 1, PFC only on 3.
    const mixed = sonicTarget.check(buildIr(exampleConfig(), defaultDevice, opts));
    expect(mixed).toEqual([{ path: 'sonic: pfc.enable', rule: 'lossless priority 3 shares TC 1 and so its priority group with lossy priority 2' }]);
  });

  test('a device with fewer PGs than a lossless priority number: refused, since buffermgrd puts priority p in PG p', () => {
    const c = { ...losslessInput(), ets: { ...losslessInput().ets, prio_tc: [0, 0, 0, 1, 2, 0, 0, 0] } };
    const problems = sonicTarget.check(buildIr(parsed(c), parseDevice({ pgs_per_port: 4 }), opts));
    expect(problems).toEqual([
      { path: 'sonic: pfc.enable', rule: 'SONiC needs priority group 4 (buffermgrd gives lossless priority p the PG p; lossy TCs share the lowest other PG) but device generic-8q has 4 per port' },
    ]);
  });
});
