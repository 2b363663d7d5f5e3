// SONiC target: config_db.json validated by yanglint against the upstream sonic-yang-models,
// mutations rejected by the same check, and the tables read back into the IR's numbers.
import { describe, expect, test } from 'vitest';
import { buildIr, type Ir } from '../../codegen/ir.js';
import { defaultDevice, parseDevice } from '../../codegen/device.js';
import { sonicTarget } from '../../codegen/sonic.js';
import { requireTool } from '../helpers.js';
import { exampleConfig, losslessConfig, losslessInput, parsed, testHeadroom } from './fixtures.js';
import { yanglint } from './sonic-yang.js';

type Db = Record<string, Record<string, Record<string, string>>>;
const emitDb = (ir: Ir): Db => JSON.parse(sonicTarget.emit(ir).files['config_db.json'] as string) as Db;

describe('sonic target', () => {
  const watched = { ...losslessInput(), pfc: { ...losslessInput().pfc, watchdog: { enable: true, restoration_ms: 400 } } };
  const ir = buildIr(parsed(watched), defaultDevice, { headroom: testHeadroom });

  test('config_db.json passes yanglint', () => {
    requireTool('yanglint');
    expect(sonicTarget.check(ir)).toEqual([]);
    const r = yanglint(emitDb(ir));
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
    const db = emitDb(buildIr(losslessConfig(), device, { headroom: testHeadroom }));
    expect(Object.keys(db.BUFFER_PROFILE).sort()).toEqual(['ingress_lossy_profile', 'pg_lossless_100000_5m_profile', 'pg_lossless_400000_300m_profile']);
    const r = yanglint(db);
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  test('yanglint rejects mutated tables (so the check above is a real check)', () => {
    requireTool('yanglint');
    const mutations: [string, (db: Db) => void, RegExp][] = [
      ['weight 0', (db) => (db.SCHEDULER['dcbkit.dwrr.40'].weight = '0'), /range/i],
      ['pfc_enable 8', (db) => (db.PORT_QOS_MAP.Ethernet0.pfc_enable = '8'), /pattern/i],
      ['unknown scheduler', (db) => (db.QUEUE['Ethernet0|3'].scheduler = 'nope'), /leafref/i],
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

  test('round trip: the tables give back the IR maps, weights, thresholds and watchdog', () => {
    const db = emitDb(ir);
    const port = ir.ports[0];
    for (let p = 0; p < 8; p++) expect(Number(db.DOT1P_TO_TC_MAP.DCBKIT[String(p)])).toBe(ir.prioTc[p]);
    for (let d = 0; d < 64; d++) expect(Number(db.DSCP_TO_TC_MAP.DCBKIT[String(d)])).toBe(ir.dscpTc[d]);
    expect(db.DSCP_TO_TC_MAP.DCBKIT['26']).toBe('3'); // APP dscp 26 -> priority 3 -> TC 3
    for (const t of ir.tcs.filter((x) => x.used)) {
      const q = Number(db.TC_TO_QUEUE_MAP.DCBKIT[String(t.tc)]);
      expect(q).toBe(t.queue);
      expect(Number(db.TC_TO_PRIORITY_GROUP_MAP.DCBKIT[String(t.tc)])).toBe(t.pg);
      const sched = db.SCHEDULER[db.QUEUE[`${port.name}|${q}`].scheduler];
      if (t.tsa === 'ets') expect(sched).toEqual({ type: 'DWRR', weight: String(t.bwPercent) });
      else expect(sched).toEqual({ type: 'STRICT' });
      if (t.ecn) {
        const w = db.WRED_PROFILE[db.QUEUE[`${port.name}|${q}`].wred_profile];
        expect([Number(w.green_min_threshold), Number(w.green_max_threshold), Number(w.green_drop_probability)]).toEqual([t.ecn.kminBytes, t.ecn.kmaxBytes, t.ecn.pmaxPercent]);
      }
    }
    expect(db.PORT_QOS_MAP.Ethernet0.pfc_enable).toBe('3,4');
    for (const pg of port.pgs) {
      const prof = db.BUFFER_PROFILE[db.BUFFER_PG[`${port.name}|${pg.pg}`].profile];
      if (pg.lossless) {
        expect(Number(prof.xoff)).toBe(pg.headroomBytes);
        expect(Number(prof.xon)).toBe(pg.xonBytes);
        expect(Number(prof.size)).toBe(pg.xonBytes + pg.headroomBytes);
      } else expect(prof.size).toBe('0');
    }
    expect(db.PFC_WD.Ethernet0).toEqual({ action: 'drop', detection_time: '200', restoration_time: '400' });
    expect(db.PFC_WD.GLOBAL).toEqual({ POLL_INTERVAL: '200' });
  });

  test('what SAI cannot hold is a problem: 0 % ETS TC, vendor TSA, lossless priority in a lossy PG', () => {
    const zero = losslessInput();
    zero.ets.bw = [0, 30, 30, 40, 0, 0, 0, 0];
    expect(sonicTarget.check(buildIr(parsed(zero), defaultDevice, { headroom: testHeadroom }))).toEqual([
      { path: 'sonic: ets.bw[0]', rule: 'SAI scheduler weight must be 1..100; an ETS TC with 0 % cannot be expressed' },
    ]);
    const vendor = losslessInput();
    vendor.ets.tsa[7] = 'vendor';
    expect(sonicTarget.check(buildIr(parsed(vendor), defaultDevice, { headroom: testHeadroom })).map((p) => p.path)).toEqual(['sonic: ets.tsa[7]']);
    // DESIGN.md §5 example: priorities 2 and 3 share TC 1, PFC only on 3.
    const mixed = sonicTarget.check(buildIr(exampleConfig(), defaultDevice, { headroom: testHeadroom }));
    expect(mixed).toEqual([{ path: 'sonic: pfc.enable', rule: 'lossless priority 3 shares TC 1 and so its priority group with lossy priority 2' }]);
  });
});
