// The audit's parts without a device: the view and its differences, the `dcb -j` parser over the
// replies the real dcb printed under the DCB netlink stand-in (test/audit/fixtures), lldptool's
// `arg=value` lines, the CONFIG_DB readers and the RESP decoder (fuzzed). Properties: nothing a
// generator writes escapes the audit (any one change to the Linux intent or to a generated CONFIG_DB
// field is reported), and the generators' own output always audits clean.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildIr } from '../../codegen/ir.js';
import { defaultDevice, loadDevice } from '../../codegen/device.js';
import { headroomFromModel } from '../../codegen/index.js';
import { dcbIntent, linuxTarget, type DcbState } from '../../codegen/linux.js';
import { sonicTables, sonicTarget, type ConfigDb } from '../../codegen/sonic.js';
import { loadConfig } from '../../host/config/index.js';
import { InputError } from '../../host/errors/errors.js';
import { packageRoot } from '../../host/core/loader.js';
import { auditDevice } from '../../host/audit/index.js';
import { dcbView, lldpadView, parseDcbShow, parseLldptoolApps, parseLldptoolArgs } from '../../host/audit/linux.js';
import { configDbFromHashes, parseConfigDbDump, sonicView } from '../../host/audit/sonic.js';
import { MAX_DEPTH, RespError, RespProtocolError, parseRedisUrl, parseReply } from '../../host/audit/resp.js';
import { View, diffViews, formatDifference } from '../../host/audit/view.js';
import { inputErrorOf, runCliAsync } from '../helpers.js';
import { xorshift32 } from '../fuzz.js';
import { arbConfig } from '../codegen/fixtures.js';

const FIXTURES = join(packageRoot(), 'test', 'audit', 'fixtures');
const replies = () => Object.fromEntries(['ets', 'pfc', 'app', 'buffer'].map((o) => [o, readFileSync(join(FIXTURES, `dcb-${o}.json`), 'utf8')])) as Record<'ets' | 'pfc' | 'app' | 'buffer', string>;
const base = () => loadConfig(join(FIXTURES, 'linux-base.yaml')).config;

describe('view differences', () => {
  const view = (entries: [string, string | null][]) => {
    const v = new View();
    for (const [k, x] of entries) v.set(k, x);
    return v;
  };

  it('compares every intended path, skips the ones intended null, and lists what only the device has last', () => {
    const intended = view([['a', '1'], ['b', null], ['c', '3']]);
    const running = view([['z', '9'], ['a', '2'], ['b', 'anything'], ['c', '3']]);
    expect(diffViews(running, intended).map(formatDifference)).toEqual(['a: running 2, intended 1', 'z: running 9, intended absent']);
  });

  it('an array one side lacks entirely is one line; elements of an array both sides have are one line each', () => {
    const intended = new View();
    intended.array('m', ['0', '1', '2']);
    intended.array('n', ['5', '6']);
    const running = new View();
    running.array('n', ['5', '7']);
    expect(diffViews(running, intended).map(formatDifference)).toEqual(['m: running absent, intended 0:0 1:1 2:2', 'n[1]: running 7, intended 6']);
    expect(diffViews(intended, running).map(formatDifference)).toEqual(['n[1]: running 6, intended 7', 'm: running 0:0 1:1 2:2, intended absent']);
  });
});

describe('dcb -j show replies (recorded from iproute2 dcb 6.1 under the stand-in)', () => {
  it('the device programmed with the generated dcb.sh and lldpad reads back as exactly the intent of its config', () => {
    const ir = buildIr(base(), defaultDevice, { headroom: headroomFromModel });
    const running = parseDcbShow(replies(), 'a');
    const intent = dcbIntent(ir, ir.ports[0]).ets;
    // the recommendation fields hold what lldpad wrote there: its ETS-CFG tables
    expect(running.ets).toEqual({ ...intent, reco: { tcTsa: intent.tcTsa, tcBw: intent.tcBw, prioTc: intent.prioTc } });
    // EtherTypes come in decimal (lib/json_print.c prints numbers, not the %x of the text form)
    expect(running.app).toContainEqual({ keyword: 'ethtype-prio', protocol: 0x8906, priority: 3 });
    expect(diffViews(dcbView(running), dcbView(dcbIntent(ir, ir.ports[0])))).toEqual([]);
  });

  it('auditDevice reads the tools through its runner: clean on the recorded replies, each change reported', async () => {
    const canned = (r: Record<string, string>) => (cmd: string, args: string[]) => {
      expect(cmd).toBe('dcb');
      expect(args).toEqual(['-j', args[1], 'show', 'dev', 'a']);
      return r[args[1]];
    };
    const source = { kind: 'linux' as const, iface: 'a', lldptool: false };
    expect((await auditDevice(base(), defaultDevice, source, canned(replies()))).differences).toEqual([]);
    const changed = replies();
    const ets = JSON.parse(changed.ets);
    ets.tc_bw = [30, 50, 20, 0, 0, 0, 0, 0];
    ets.reco_tc_tsa[2] = 'strict'; // lldpad's to write (codegen/linux.ts dcbIntent): not compared
    changed.ets = JSON.stringify(ets);
    changed.app = JSON.stringify({ ...JSON.parse(changed.app), default_prio: [1], dscp_prio: [[26, 3], [26, 5]] });
    changed.buffer = JSON.stringify({ ...JSON.parse(changed.buffer), buffer_size: [1, 2, 3, 4, 5, 6, 7, 8] });
    const r = await auditDevice(base(), defaultDevice, source, canned(changed));
    expect(r.differences.map(formatDifference)).toEqual([
      'ets.bw[0]: running 30, intended 40',
      'ets.bw[1]: running 50, intended 40',
      'app.dscp.26: running 3,5, intended 3',
      // the sizes of lossy PGs are the driver's: only the lossless PG 3 is compared
      'buffer.size[3]: running 4, intended 115200',
      'app.ethertype.0x0000: running 1, intended absent',
    ]);
  });

  it('a fresh device (nothing programmed, an empty app object) parses', () => {
    const fresh = parseDcbShow({
      ets: '{"willing":false,"ets_cap":8,"cbs":false,"tc_bw":[0,0,0,0,0,0,0,0],"pg_bw":[0,0,0,0,0,0,0,0],"tc_tsa":["strict","strict","strict","strict","strict","strict","strict","strict"],"prio_tc":[0,0,0,0,0,0,0,0],"reco_tc_bw":[0,0,0,0,0,0,0,0],"reco_tc_tsa":["strict","strict","strict","strict","strict","strict","strict","strict"],"reco_prio_tc":[0,0,0,0,0,0,0,0]}',
      pfc: '{"pfc_cap":8,"macsec_bypass":false,"delay":0,"prio_pfc":[false,false,false,false,false,false,false,false]}',
      app: '{}',
      buffer: '{"prio_buffer":[0,0,0,0,0,0,0,0],"buffer_size":[0,0,0,0,0,0,0,0],"total_size":0}',
    }, 'a');
    expect(fresh.app).toEqual([]);
    expect(dcbView(fresh).values.get('pfc.enable')).toBe('none');
  });

  it('a reply that is not what dcb prints is bad input naming --linux and the command', () => {
    const cases: [Partial<Record<'ets' | 'pfc' | 'app' | 'buffer', string>>, RegExp][] = [
      [{ ets: 'Attribute read: Operation not supported' }, /^dcb -j ets show dev a did not print JSON/],
      [{ pfc: '{"prio_pfc":[true,false]}' }, /^dcb -j pfc show dev a printed prio_pfc that is not what iproute2 dcb prints/],
      [{ app: '{"dscp_prio":[[26]]}' }, /^dcb -j app show dev a printed dscp_prio\.0/],
      [{ ets: JSON.stringify({ ...JSON.parse(replies().ets), tc_tsa: Array(8).fill('wfq') }) }, /^dcb -j ets show dev a printed tc_tsa\.0/],
      [{ buffer: '[]' }, /^dcb -j buffer show dev a printed a document/],
    ];
    for (const [bad, rule] of cases) {
      const e = inputErrorOf(() => parseDcbShow({ ...replies(), ...bad }, 'a'));
      expect(e.problems).toHaveLength(1);
      expect(e.problems[0].path).toBe('--linux');
      expect(e.problems[0].rule).toMatch(rule);
    }
  });

  it("lldptool's arg=value lines: an empty value is unset, other lines are passed over", () => {
    expect([...parseLldptoolArgs('enableTx=yes\nwilling=\nIEEE 8021QAZ ETS Configuration TLV\n')]).toEqual([['enableTx', 'yes'], ['willing', null]]);
  });

  it("lldpad's tables read per index in either spelling, and its APP list (as lldpad 1.1 printed it under the stand-in) per entry", () => {
    const running = lldpadView({
      adminStatus: 'rxtx',
      tlvs: { 'ETS-CFG': { tsa: '0:ets 1:ets 2:strict', up2tc: '0:0,1:0,2:1', tcbw: '40% 40% 20% 0%' } },
      apps: parseLldptoolApps('enableTx=yes\nAPP=(prio,sel,proto)\n0:(3,1,0x8906) local hw (pending set)\n1:(3,5,26) local hw (pending set)\n2:(3,3,4791) local hw (pending set)\n\n'),
    });
    const intended = lldpadView({
      adminStatus: 'rxtx',
      tlvs: { 'ETS-CFG': { tsa: '0:ets,1:ets,2:ets', up2tc: '0:0 1:0 2:1', tcbw: '40,40,20,0' } },
      apps: [{ selector: 1, protocol: 0x8906, priority: 3 }, { selector: 5, protocol: 26, priority: 4 }, { selector: 3, protocol: 4791, priority: 3 }],
    });
    expect(diffViews(running, intended).map(formatDifference)).toEqual(['lldp.ETS-CFG.tsa[2]: running strict, intended ets', 'lldp.APP.app.dscp.26: running 3, intended 4']);
  });
});

describe('CONFIG_DB readers', () => {
  it('a dump and redis hashes of the same tables read alike: lists joined, name@ fields renamed, NULL fields and other tables dropped', () => {
    const dump = parseConfigDbDump({
      BUFFER_PORT_EGRESS_PROFILE_LIST: { Ethernet0: { profile_list: ['egress_lossless_profile', 'egress_lossy_profile'] } },
      VLAN: { Vlan10: { vlanid: '10' } },
      QUEUE: { 'Ethernet0|3': { scheduler: 's', NULL: 'NULL' } },
    }, 'dump.json');
    const hashes = configDbFromHashes(new Map([
      ['BUFFER_PORT_EGRESS_PROFILE_LIST|Ethernet0', { 'profile_list@': 'egress_lossless_profile,egress_lossy_profile' }],
      ['VLAN|Vlan10', { vlanid: '10' }],
      ['QUEUE|Ethernet0|3', { scheduler: 's', NULL: 'NULL' }],
    ]));
    expect(dump).toEqual(hashes);
    expect(dump).toEqual({ BUFFER_PORT_EGRESS_PROFILE_LIST: { Ethernet0: { profile_list: 'egress_lossless_profile,egress_lossy_profile' } }, QUEUE: { 'Ethernet0|3': { scheduler: 's' } } });
  });

  it('keys naming several ports and id ranges, and [TABLE|name] references (SONiC before 202012), are followed', () => {
    const ir = buildIr(loadConfig(join(packageRoot(), 'examples', 'configs', 'roce.yaml')).config, defaultDevice, { headroom: headroomFromModel });
    const db = sonicTables(ir);
    const old: ConfigDb = JSON.parse(JSON.stringify(db));
    old.PORT_QOS_MAP.Ethernet0.dot1p_to_tc_map = '[DOT1P_TO_TC_MAP|DCBKIT]';
    old.QUEUE['Ethernet0|3'].scheduler = '[SCHEDULER|dcbkit.dwrr.50]';
    // one key for two ports and queues 0-2 (only queue 0 carries a TC; 1 and 2 carry none)
    delete old.BUFFER_QUEUE['Ethernet0|0'];
    old.BUFFER_QUEUE['Ethernet8,Ethernet0|0-2'] = { profile: '[BUFFER_PROFILE|egress_lossy_profile]' };
    const d = diffViews(sonicView(old, ['Ethernet0']), sonicView(db, ['Ethernet0'])).map(formatDifference);
    // the maps and schedulers behind the old references are the same; only queues 1 and 2 gained a buffer profile
    expect(d).toEqual([
      'Ethernet0.buffer_queue.dynamic_th[1]: running 7, intended absent',
      'Ethernet0.buffer_queue.dynamic_th[2]: running 7, intended absent',
      'Ethernet0.buffer_queue.pool[1]: running egress_lossy_pool, intended absent',
      'Ethernet0.buffer_queue.pool[2]: running egress_lossy_pool, intended absent',
      'Ethernet0.buffer_queue.size[1]: running 9216, intended absent',
      'Ethernet0.buffer_queue.size[2]: running 9216, intended absent',
    ]);
  });
});

describe('devices with several ports', () => {
  const device = loadDevice(join(packageRoot(), 'examples', 'codegen', 'device-2port.yaml'));

  it('Linux: IFACE is the device port of that name (its own buffer sizes); another name is bad input naming the ports', async () => {
    const cfg = base();
    const ir = buildIr(cfg, device, { headroom: headroomFromModel });
    const [p0, p8] = ir.ports;
    // a 100G 300 m port and a 400G 5 m port need different lossless PG sizes
    expect(dcbIntent(ir, p0).buffer.bufferSize[3]).not.toBe(dcbIntent(ir, p8).buffer.bufferSize[3]);
    const fromIntent = (s: DcbState) => (_: string, args: string[]) => {
      const o = args[1];
      if (o === 'ets') return JSON.stringify({ willing: s.ets.willing, tc_bw: s.ets.tcBw, tc_tsa: s.ets.tcTsa, prio_tc: s.ets.prioTc, reco_tc_bw: s.ets.tcBw, reco_tc_tsa: s.ets.tcTsa, reco_prio_tc: s.ets.prioTc }); // as lldpad fills reco_*
      if (o === 'pfc') return JSON.stringify({ prio_pfc: s.pfc.prioPfc });
      if (o === 'app') return replies().app; // the config's APP entries, as recorded
      return JSON.stringify({ prio_buffer: s.buffer.prioBuffer, buffer_size: s.buffer.bufferSize.map((b) => b ?? 0) });
    };
    const r8 = await auditDevice(cfg, device, { kind: 'linux', iface: 'Ethernet8', lldptool: false }, fromIntent(dcbIntent(ir, p8)));
    expect(r8.differences).toEqual([]);
    const r0 = await auditDevice(cfg, device, { kind: 'linux', iface: 'Ethernet0', lldptool: false }, fromIntent(dcbIntent(ir, p8)));
    expect(r0.differences.map((d) => d.path)).toEqual(['buffer.size[3]']);
    const e = await auditDevice(cfg, device, { kind: 'linux', iface: 'eth9', lldptool: false }, fromIntent(dcbIntent(ir, p8))).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).problems).toEqual([{ path: '--linux', rule: 'eth9 is not a port of device example-2port (its ports: Ethernet0, Ethernet8)' }]);
  });

  it('SONiC: every port of the device is audited, each under its own name', () => {
    const ir = buildIr(loadConfig(join(packageRoot(), 'examples', 'configs', 'roce.yaml')).config, device, { headroom: headroomFromModel });
    const db = sonicTables(ir);
    const ports = ir.ports.map((p) => p.name);
    expect(diffViews(sonicView(db, ports), sonicView(db, ports))).toEqual([]);
    const changed: ConfigDb = JSON.parse(JSON.stringify(db));
    changed.PORT_QOS_MAP.Ethernet8.pfc_enable = '3,6';
    changed.CABLE_LENGTH.AZURE.Ethernet8 = '40m';
    expect(diffViews(sonicView(changed, ports), sonicView(db, ports)).map(formatDifference)).toEqual(['Ethernet8.pfc.enable: running 3,6, intended 3', 'Ethernet8.cable: running 40m, intended 5m']);
  });
});

describe('RESP', () => {
  const b = (s: string) => Buffer.from(s, 'utf8');

  it('decodes each reply type, and waits (undefined) for a reply that is not complete', () => {
    expect(parseReply(b('+OK\r\n'), 0)).toEqual({ value: 'OK', next: 5 });
    expect(parseReply(b(':-12\r\n'), 0)?.value).toBe(-12);
    expect(parseReply(b('$-1\r\n'), 0)?.value).toBeNull();
    expect(parseReply(b('*2\r\n$1\r\n0\r\n*1\r\n$11\r\nQUEUE|Eth|3\r\n'), 0)?.value).toEqual(['0', ['QUEUE|Eth|3']]);
    expect(parseReply(b('-WRONGTYPE Operation\r\n'), 0)?.value).toEqual(new RespError('WRONGTYPE Operation'));
    const whole = '*2\r\n$5\r\nhello\r\n$3\r\nabc\r\n';
    for (let n = 0; n < whole.length; n++) expect(parseReply(b(whole.slice(0, n)), 0), `${n} bytes`).toBeUndefined();
  });

  it('fuzzed: random bytes and damaged replies give a reply, undefined or RespProtocolError, nothing else', () => {
    const next = xorshift32(190619);
    const seeds = ['*2\r\n$1\r\n0\r\n*2\r\n$3\r\nabc\r\n$0\r\n\r\n', '$5\r\nhello\r\n', ':42\r\n', '-ERR x\r\n', '*1\r\n'.repeat(MAX_DEPTH + 3) + ':1\r\n'];
    let errors = 0;
    for (let run = 0; run < 20000; run++) {
      let bytes: Buffer;
      if (run % 4 === 0) bytes = Buffer.from(Array.from({ length: next() % 40 }, () => next() & 0xff));
      else {
        bytes = Buffer.from(seeds[next() % seeds.length], 'utf8');
        for (let k = 0; k <= next() % 3; k++) bytes[next() % bytes.length] = run % 4 === 1 ? next() & 0xff : '*$:+-\r\n0123456789'.charCodeAt(next() % 17);
      }
      try {
        const r = parseReply(bytes, 0);
        if (r) expect(r.next).toBeLessThanOrEqual(bytes.length);
      } catch (e) {
        if (!(e instanceof RespProtocolError)) throw e;
        errors++;
      }
    }
    expect(errors).toBeGreaterThan(1000);
    expect(() => parseReply(b('*1\r\n'.repeat(MAX_DEPTH + 3) + ':1\r\n'), 0)).toThrow(RespProtocolError);
  });

  it('addresses: unix:PATH, HOST:PORT and [v6]:PORT; (redis:// URLs: test/audit/redis-login.test.ts); anything else names --sonic-redis', () => {
    expect(parseRedisUrl('unix:/run/redis/redis.sock')).toEqual({ path: '/run/redis/redis.sock' });
    expect(parseRedisUrl('10.0.0.1:6379')).toEqual({ host: '10.0.0.1', port: 6379 });
    expect(parseRedisUrl('[::1]:6379')).toEqual({ host: '::1', port: 6379 });
    for (const bad of ['http://x:1', 'x:0', 'x', ':6379', 'x:6379:1']) expect(inputErrorOf(() => parseRedisUrl(bad)).problems[0].path, bad).toBe('--sonic-redis');
  });
});

describe('properties: audit and codegen read one intent', () => {
  /** One value replaced by another of the same kind (booleans flipped, numbers moved, words changed). */
  const other = (v: unknown): unknown => (typeof v === 'boolean' ? !v : typeof v === 'number' ? (v === 0 ? 1 : v - 1) : `${String(v)}x`);

  it('Linux: a device running the intent audits clean; any one changed value of it is reported', () => {
    fc.assert(
      fc.property(arbConfig, fc.nat(), (cfg, pick) => {
        const ir = buildIr(cfg, defaultDevice, { headroom: headroomFromModel });
        fc.pre(linuxTarget.check(ir).length === 0);
        const intent = dcbIntent(ir, ir.ports[0]);
        const running: DcbState = JSON.parse(JSON.stringify(intent));
        running.ets.reco ??= { tcTsa: Array(8).fill('strict'), tcBw: Array(8).fill(0), prioTc: Array(8).fill(0) };
        running.buffer.bufferSize = running.buffer.bufferSize.map((s) => s ?? 0);
        expect(diffViews(dcbView(running), dcbView(intent))).toEqual([]);
        // every audited leaf: ETS tables, PFC, buffers, and each APP entry's priority
        const leaves: [string, (s: DcbState) => void][] = [
          ['ets.willing', (s) => (s.ets.willing = !s.ets.willing)],
          ...(['prioTc', 'tcTsa', 'tcBw'] as const).flatMap((k) => Array.from({ length: 8 }, (_, i): [string, (s: DcbState) => void] => [`ets.${k}[${i}]`, (s) => ((s.ets[k] as unknown[])[i] = k === 'tcTsa' ? (s.ets.tcTsa[i] === 'ets' ? 'strict' : 'ets') : other(s.ets[k][i]))])),
          ...Array.from({ length: 8 }, (_, p): [string, (s: DcbState) => void] => [`pfc[${p}]`, (s) => (s.pfc.prioPfc[p] = !s.pfc.prioPfc[p])]),
          ...Array.from({ length: 8 }, (_, p): [string, (s: DcbState) => void] => [`prio_buffer[${p}]`, (s) => (s.buffer.prioBuffer[p] = other(s.buffer.prioBuffer[p]) as number)]),
          ...intent.buffer.bufferSize.flatMap((size, g): [string, (s: DcbState) => void][] => (size === null ? [] : [[`size[${g}]`, (s) => (s.buffer.bufferSize[g] = size + 1)]])),
          ...intent.app.map((_, i): [string, (s: DcbState) => void] => [`app[${i}]`, (s) => (s.app[i].priority = (s.app[i].priority + 1) % 8)]),
        ];
        const [what, change] = leaves[pick % leaves.length];
        const changed: DcbState = JSON.parse(JSON.stringify(running));
        change(changed);
        expect(diffViews(dcbView(changed), dcbView(intent)).length, what).toBeGreaterThan(0);
      }),
      { numRuns: 300, seed: 190620 },
    );
  });

  it('SONiC: the generated tables audit clean; changing or deleting any field of any entry a port uses is reported', () => {
    fc.assert(
      fc.property(arbConfig, fc.nat(), fc.boolean(), (cfg, pick, remove) => {
        const ir = buildIr(cfg, defaultDevice, { headroom: headroomFromModel });
        fc.pre(sonicTarget.check(ir).length === 0);
        const db = sonicTables(ir);
        const ports = ir.ports.map((p) => p.name);
        const intended = sonicView(db, ports);
        expect(diffViews(sonicView(db, ports), intended)).toEqual([]);
        const fields = Object.entries(db).flatMap(([t, rows]) => Object.entries(rows).flatMap(([k, e]) => Object.keys(e).map((f) => [t, k, f] as const)));
        const [t, k, f] = fields[pick % fields.length];
        // An entry nothing refers to does nothing: the lossy ingress profile when every priority is lossless.
        const lossyUnused = t === 'BUFFER_PROFILE' && k === 'ingress_lossy_profile' && !Object.values(db.BUFFER_PG).some((e) => e.profile === k);
        fc.pre(!lossyUnused);
        const changed: ConfigDb = JSON.parse(JSON.stringify(db));
        if (remove) delete changed[t][k][f];
        else changed[t][k][f] = `${changed[t][k][f]}0`;
        expect(diffViews(sonicView(changed, ports), intended).length, `${remove ? 'delete' : 'change'} ${t}|${k}.${f}`).toBeGreaterThan(0);
      }),
      { numRuns: 400, seed: 190621 },
    );
  });
});

describe('InputError only', () => {
  it('a dump of the wrong shape names the file and the path', () => {
    const e = inputErrorOf(() => parseConfigDbDump({ QUEUE: { 'Ethernet0|3': [] } }, 'x.json'));
    expect(e).toBeInstanceOf(InputError);
    expect(e.problems).toEqual([{ path: '--sonic: x.json: QUEUE.Ethernet0|3', rule: 'must be an object of fields' }]);
  });
});

describe('flags', () => {
  it('exactly one device, given once, with a value; otherwise exit 2 naming the flag', async () => {
    const config = 'examples/configs/roce.yaml';
    const cases: [string[], string][] = [
      [[], '--linux: give exactly one device to read: --linux IFACE, --sonic FILE or --sonic-redis URL; got none'],
      [['--sonic', 'x.json', '--sonic-redis', 'unix:/x'], '--sonic-redis: give exactly one device to read: --linux IFACE, --sonic FILE or --sonic-redis URL; got --sonic and --sonic-redis'],
      [['--linux', 'a', '--linux', 'b'], '--linux: given 2 times; give it once (one device per audit)'],
      [['--sonic'], '--sonic: needs a value'],
      [['--sonic', 'x.json', '--bogus'], '--bogus: unknown option for dcbkit audit; its options are --device, --linux, --lldptool, --sonic, --sonic-redis, --json'],
    ];
    const results = await Promise.all(cases.map(([flags]) => runCliAsync(['audit', config, ...flags, '--json'])));
    results.forEach((r, i) => {
      expect(r.status, cases[i][0].join(' ')).toBe(2);
      expect(r.stderr).toBe(cases[i][1] + '\n');
      expect(JSON.parse(r.stdout).problems.length).toBe(1);
    });
  });
});

describe('examples/audit', () => {
  it('each command of its README gives the outcome the README promises', async () => {
    const readme = readFileSync(join(packageRoot(), 'examples', 'audit', 'README.md'), 'utf8');
    const rows = readme.split('\n').filter((l) => l.startsWith('| `npx dcbkit audit'));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const [command, outcome] = row.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, ''));
      const args = command.replace(/`/g, '').split(' ').slice(2);
      const r = await runCliAsync(args);
      expect(`exit ${r.status}`, command).toBe(/^exit (\d)/.exec(outcome)![0]);
      // every stdout line is one the README quotes, and the README quotes no other
      const quoted = [...outcome.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      expect(r.stdout.trimEnd().split('\n'), command).toEqual(quoted);
    }
  });
});
