// `dcbkit validate` through the CLI, as a user runs it: every rule of the DCB config has a failing
// input here, checked for the exact `path: rule` line on stderr, exit 2 and nothing on stdout.
import { describe, expect, it } from 'vitest';
import { readFileSync, mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCli, runCliAsync } from './helpers.js';

const ETS3 = { prio_tc: [0, 0, 1, 1, 2, 2, 3, 3], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 40, 20, 0, 0, 0, 0, 0] };
const SEED004_PG = { prio_pgid: [1, 1, 0, 0, 1, 1, 1, 15], pg_bw: [50, 50, 0, 0, 0, 0, 0, 0] };

/** [what, config, the one stderr line expected] */
const RULES: [string, unknown, string][] = [
  // document
  ['not a mapping', [1, 2], 'config: must be a mapping of keys to values, got [1,2]'],
  ['unknown top-level key', { ports: {} }, 'ports: unknown key; allowed keys: port, ets, pg, pfc, pause, app, qcn, credit'],
  ['unknown nested key', { pfc: { enabled: [3] } }, 'pfc.enabled: unknown key; allowed keys: enable, willing, mbc, cap, pause_time, headroom, xoff, xon, watchdog'],
  ['section of the wrong type', { pfc: [3] }, 'pfc: must be a mapping of keys to values, got [3]'],
  // port
  ['speed not a speed', { port: { speed: 'fast' } }, 'port.speed: a rate needs a unit: bit/s with a prefix k, M, G or T, written G, Gbps, Gb/s or Gbit, e.g. 100G; got "fast"'],
  // 8e12 / 3e9 = 2666.67 ps per byte: not a whole number
  ['speed without whole ps per byte', { port: { speed: '3G' } }, 'port.speed: must give a whole number of picoseconds per byte (8e12 / speed), got 3000000000 bit/s'],
  ['speed out of range', { port: { speed: '2T' } }, 'port.speed: must be between 1 Mb/s and 1.6 Tb/s, got 2000000000000 bit/s'],
  ['mtu out of range', { port: { mtu: 20000 } }, 'port.mtu: must be a frame size in bytes 64..16384, got 20000'],
  ['cable not a length', { port: { cable: '300ft' } }, 'port.cable: must be a length 0..100000 m like "300m" or "2km", got "300ft"'],
  ['mac syntax', { port: { mac: '02:00:00:00:00' } }, 'port.mac: must be a MAC address of 6 hex octets like "02:00:00:00:00:01", got "02:00:00:00:00"'],
  ['mac multicast', { port: { mac: '01:80:C2:00:00:0E' } }, 'port.mac: must be a unicast address (I/G bit of the first octet 0), got "01:80:C2:00:00:0E"'],
  ['mac all zeros', { port: { mac: '00-00-00-00-00-00' } }, 'port.mac: must not be all zeros'],
  ['port name empty', { port: { name: '' } }, 'port.name: must not be empty'],
  // ets tables
  ['prio_tc misses a priority', { ets: { ...ETS3, prio_tc: [0, 0, 1, 1, 2, 2, 3] } }, 'ets.prio_tc: must have 8 entries (one per priority 0..7), got 7'],
  ['prio_tc TC out of 0..7', { ets: { ...ETS3, prio_tc: [0, 0, 8, 1, 2, 2, 3, 3] } }, 'ets.prio_tc[2]: must be a TC 0..7, got 8'],
  ['prio_tc TC beyond max_tcs', { ets: { ...ETS3, max_tcs: 3, prio_tc: [0, 0, 1, 1, 2, 2, 2, 3] } }, 'ets.prio_tc[7]: TC 3 is out of range: max_tcs is 3 (TCs 0..2)'],
  ['tsa unknown', { ets: { ...ETS3, tsa: ['ets', 'wrr', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'] } }, 'ets.tsa[1]: must be one of strict, cbs, ets, vendor (or 0, 1, 2, 255), got "wrr"'],
  ['tsa missing', { ets: { prio_tc: ETS3.prio_tc, bw: ETS3.bw } }, 'ets.tsa: is required'],
  ['bw not a percentage', { ets: { ...ETS3, bw: [101, 0, 0, 0, 0, 0, 0, 0] } }, 'ets.bw[0]: must be a whole percentage 0..100, got 101'],
  // 40 + 40 + 10 = 90
  ['bw sum of ETS TCs', { ets: { ...ETS3, bw: [40, 40, 10, 0, 0, 0, 0, 0] } }, 'ets.bw: bandwidths of ETS TCs sum to 90, must be 100'],
  ['bw on a strict TC', { ets: { ...ETS3, bw: [40, 40, 20, 10, 0, 0, 0, 0] } }, 'ets.bw[3]: TC 3 has TSA strict; its bandwidth must be 0, got 10'],
  ['bw on an ETS TC beyond max_tcs', {
    ets: { max_tcs: 2, prio_tc: [0, 0, 0, 0, 1, 1, 1, 1], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 40, 20, 0, 0, 0, 0, 0] },
  }, 'ets.bw[2]: TC 2 is beyond max_tcs 2; its bandwidth must be 0, got 20'],
  ['cbs TSA without the CBS bit', { ets: { ...ETS3, cbs: false, tsa: ['ets', 'ets', 'ets', 'cbs', 'strict', 'strict', 'strict', 'strict'] } }, 'ets.cbs: TC 3 uses TSA cbs, so cbs (credit-based shaper supported) must be true'],
  ['recommendation bw sum', { ets: { ...ETS3, recommendation: { ...ETS3, bw: [30, 20, 0, 0, 0, 0, 0, 0] } } }, 'ets.recommendation.bw: bandwidths of ETS TCs sum to 50, must be 100'],
  // pg (CEE)
  ['reserved PGID', { pg: { ...SEED004_PG, prio_pgid: [1, 1, 0, 0, 1, 1, 1, 9] } }, 'pg.prio_pgid[7]: PGID 9 is reserved (8..14); use 0..7 or 15 (strict)'],
  ['PGID beyond 15', { pg: { ...SEED004_PG, prio_pgid: [1, 1, 0, 0, 1, 1, 1, 16] } }, 'pg.prio_pgid[7]: must be a PGID 0..7 or 15 (strict), got 16'],
  ['pg_bw sum', { pg: { ...SEED004_PG, pg_bw: [50, 40, 0, 0, 0, 0, 0, 0] } }, 'pg.pg_bw: bandwidths of PGIDs 0..7 sum to 90, must be 100'],
  ['pg_bw with only strict priorities', { pg: { prio_pgid: [15, 15, 15, 15, 15, 15, 15, 15], pg_bw: [100, 0, 0, 0, 0, 0, 0, 0] } }, 'pg.pg_bw: every priority is in PGID 15 (strict), so the bandwidths must all be 0; they sum to 100'],
  ['pg needing 9 TCs', { pg: { prio_pgid: [0, 1, 2, 3, 4, 5, 6, 15], pg_bw: [10, 10, 10, 10, 10, 10, 20, 20] } }, 'pg.pg_bw: all 8 PGIDs have bandwidth and some priorities are in PGID 15: that needs 9 traffic classes, at most 8 exist'],
  // ets and pg together: the same scheduler or an error
  ['pg strict, ets not', { ets: ETS3, pg: { prio_pgid: [0, 0, 1, 1, 15, 15, 15, 15], pg_bw: [40, 40, 20, 0, 0, 0, 0, 0] } }, 'pg.prio_pgid[4]: priority 4 is in PGID 15 (strict) but ets puts it in TC 2 with TSA ets'],
  ['pg limited, ets strict', { ets: ETS3, pg: { prio_pgid: [0, 0, 1, 1, 2, 2, 2, 15], pg_bw: [40, 40, 20, 0, 0, 0, 0, 0] } }, 'pg.prio_pgid[6]: priority 6 is in PGID 2 (bandwidth-limited) but ets puts it in TC 3 with TSA strict'],
  ['pg bandwidth differs', { ets: ETS3, pg: { prio_pgid: [0, 0, 1, 1, 2, 2, 15, 15], pg_bw: [50, 30, 20, 0, 0, 0, 0, 0] } }, 'pg.pg_bw[0]: PGID 0 has 50 % but ets gives TC 0 of priority 0 40 %'],
  ['pg grouping differs', {
    ets: { ...ETS3, tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'] },
    pg: { prio_pgid: [0, 1, 1, 1, 2, 2, 15, 15], pg_bw: [40, 40, 20, 0, 0, 0, 0, 0] },
  }, 'pg.prio_pgid[1]: priorities 0 and 1 share TC 0 in ets but are in PGIDs 0 and 1'],
  // pfc
  ['pfc priority listed twice', { pfc: { enable: [3, 3] } }, 'pfc.enable[1]: priority 3 is listed twice'],
  ['pfc priority out of range', { pfc: { enable: [8] } }, 'pfc.enable[0]: must be a priority 0..7, got 8'],
  ['pfc more priorities than cap', { pfc: { enable: [3, 4, 5], cap: 2 } }, 'pfc.enable: 3 priorities have PFC but pfc.cap is 2'],
  ['pfc cap range', { pfc: { cap: 9 } }, 'pfc.cap: must be a count 0..8, got 9'],
  ['pause_time too small for a refresh', { pfc: { pause_time: 1 } }, 'pfc.pause_time: must be a number of quanta 2..65535, got 1'],
  ['headroom neither auto nor bytes', { pfc: { headroom: 'big' } }, 'pfc.headroom: must be "auto" or a number of bytes, got "big"'],
  ['headroom negative', { pfc: { headroom: -1 } }, 'pfc.headroom: must be a number of bytes 0..2147483647, got -1'],
  ['xon not below xoff', { pfc: { xoff: 20000, xon: 20000 } }, 'pfc.xon: must be below pfc.xoff (20000 bytes), got 20000'],
  ['willing not a boolean', { pfc: { willing: 'yes' } }, 'pfc.willing: must be true or false, got "yes"'],
  ['watchdog action', { pfc: { watchdog: { action: 'reboot' } } }, 'pfc.watchdog.action: must be one of drop, forward, alert, got "reboot"'],
  ['watchdog detection range (SONiC 100..5000 ms)', { pfc: { watchdog: { detection_ms: 50 } } }, 'pfc.watchdog.detection_ms: must be a time in ms 100..5000, got 50'],
  // flow-control modes
  ['PFC and credit on one priority', { pfc: { enable: [3] }, credit: { priorities: [2, 3] } }, 'credit.priorities[1]: priority 3 already has PFC; a priority uses one flow control (remove it from pfc.enable or here)'],
  ['PAUSE with PFC', { pfc: { enable: [3] }, pause: { enable: true } }, 'pause.enable: 802.3x PAUSE stops the whole port and excludes PFC and credit flow control; empty pfc.enable and credit.priorities or disable pause'],
  // credit
  ['credit unit above the MTU', { port: { mtu: 1500 }, credit: { unit: 2048 } }, 'credit.unit: must not exceed port.mtu (1500 bytes), got 2048'],
  ['credit unit below 64', { credit: { unit: 32 } }, 'credit.unit: must be a number of bytes 64..16384, got 32'],
  ['credit OUI of IEEE 802.1', { credit: { oui: '00-80-c2' } }, 'credit.oui: 00-80-C2 belongs to the IEEE 802.1 / CEE TLVs; use your own OUI or a locally administered CID such as 0A-DC-B0'],
  ['credit OUI syntax', { credit: { oui: '0A-DC' } }, 'credit.oui: must be an OUI of 3 hex octets like "0A-DC-B0", got "0A-DC"'],
  // qcn
  ['qcn kmin not below kmax', { qcn: { cp: { kmin: 300000, kmax: 200000 } } }, 'qcn.cp.kmin: must be below qcn.cp.kmax (200000 bytes), got 300000'],
  ['qcn quantiser', { qcn: { cp: { quantiser: 'log' } } }, 'qcn.cp.quantiser: must be one of linear, msb, got "log"'],
  ['qcn rp profile', { qcn: { rp: { profile: 'timely' } } }, 'qcn.rp.profile: must be qau-pc or dcqcn, got "timely"'],
  ['qcn rp key of the other profile', { qcn: { rp: { profile: 'qau-pc', g_shift: 8 } } }, 'qcn.rp.g_shift: unknown key; allowed keys: profile, line_bps, bc_bytes, timer_ps, th, ai_bps, hai_bps, gd_shift, min_dec_num, min_bps, extra_fast_recovery'],
  ['qcn rp line rate above the port', { port: { speed: '25G' }, qcn: { rp: { profile: 'qau-pc', line_bps: 100e9 } } }, 'qcn.rp.line_bps: must not exceed port.speed (25000000000 bit/s), got 100000000000'],
  ['qcn rp cut floor above 2^gd_shift', { qcn: { rp: { profile: 'qau-pc', gd_shift: 6, min_dec_num: 100 } } }, 'qcn.rp.min_dec_num: must be at most 2^gd_shift = 64 (it is a numerator over 2^gd_shift), got 100'],
  ['qcn rp min rate above the line rate', { port: { speed: '10G' }, qcn: { rp: { profile: 'dcqcn', min_bps: 20e9 } } }, 'qcn.rp.min_bps: must not exceed qcn.rp.line_bps (10000000000 bit/s), got 20000000000'],
  // app
  ['app selector unknown', { app: [{ selector: 'http', protocol: 80, priority: 0 }] }, 'app[0].selector: must be one of ethertype, stream (or tcp, sctp), dgram (or udp, dccp), any (or port), dscp (or 1..5), got "http"'],
  ['app selector number out of 1..5', { app: [{ selector: 6, protocol: 80, priority: 0 }] }, 'app[0].selector: must be one of ethertype, stream (or tcp, sctp), dgram (or udp, dccp), any (or port), dscp (or 1..5), got 6'],
  ['app selector: no object property is a name', { app: [{ selector: 'constructor', protocol: 80, priority: 0 }] }, 'app[0].selector: must be one of ethertype, stream (or tcp, sctp), dgram (or udp, dccp), any (or port), dscp (or 1..5), got "constructor"'],
  // 1500 = 0x05DC is an 802.3 length, not an ethertype
  ['app ethertype below 0x0600', { app: [{ selector: 'ethertype', protocol: 1500, priority: 0 }] }, 'app[0].protocol: an ethertype must be 0 (default priority) or 0x0600..0xFFFF, got 0x05DC'],
  ['app DSCP above 63', { app: [{ selector: 'dscp', protocol: 64, priority: 3 }] }, 'app[0].protocol: a DSCP must be 0..63, got 64'],
  ['app port above 65535', { app: [{ selector: 'dgram', protocol: 65536, priority: 3 }] }, 'app[0].protocol: must be an integer 0..65535 or a hex string like "0x8906", got 65536'],
  ['app protocol missing', { app: [{ selector: 'dscp', priority: 3 }] }, 'app[0].protocol: is required'],
  ['app priority out of range', { app: [{ selector: 'dscp', protocol: 26, priority: 8 }] }, 'app[0].priority: must be a priority 0..7, got 8'],
  ['app selector_name contradicts selector', { app: [{ selector: 5, selector_name: 'stream', protocol: 26, priority: 3 }] }, 'app[0].selector_name: stream does not match selector 5 (dscp)'],
  ['app entry repeated', { app: [{ selector: 'dscp', protocol: 26, priority: 3 }, { selector: 5, protocol: 26, priority: 3 }] }, 'app[1]: repeats app[0] (dscp 26 -> priority 3)'],
  // (511 - 5) / 3 = 168.67: the 9-bit TLV length holds 168 entries
  ['app table larger than one TLV', { app: Array.from({ length: 169 }, (_, i) => ({ selector: 'dgram', protocol: 1000 + i, priority: 0 })) }, 'app: at most 168 entries fit in an APP TLV, got 169'],
];

describe('dcbkit validate: one failing input per rule', () => {
  for (const [what, config, line] of RULES) {
    it.concurrent(what, async () => {
      const r = await runCliAsync(['validate', '-'], { input: JSON.stringify(config) });
      expect(r.stderr).toBe(line + '\n');
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
    });
  }

  it('lists every problem of a config, one line each', () => {
    const r = runCli(['validate', '-'], { input: JSON.stringify({ port: { speed: '3G', mtu: 10 }, pfc: { enable: [9] } }) });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      'port.speed: must give a whole number of picoseconds per byte (8e12 / speed), got 3000000000 bit/s',
      'port.mtu: must be a frame size in bytes 64..16384, got 10',
      'pfc.enable[0]: must be a priority 0..7, got 9',
    ]);
    expect(r.stdout).toBe('');
  });

  it('names the line of a YAML syntax error and of a duplicate key', () => {
    const bad = runCli(['validate', '-'], { input: 'port:\n  speed: 100G\n mtu: 9216\npfc: {}\n' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('-: line 3: not valid YAML: All mapping items must start at the same column\n');
    const dup = runCli(['validate', '-'], { input: 'pfc:\n  enable: [3]\n  enable: [4]\n' });
    expect(dup.stderr).toBe('-: line 3: not valid YAML: the key "enable" is repeated (first on line 2); map keys must be unique\n');
    expect(dup.status).toBe(2);
    expect(dup.stdout).toBe('');
  });

  it('names the line of a JSON syntax error in a .json file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-cfg-'));
    try {
      const f = join(dir, 'bad.json');
      writeFileSync(f, '{\n  "pfc": {"enable": [3]},\n  "app": [,]\n}\n');
      const r = runCli(['validate', f]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^${f.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: line 3: not valid JSON: `));
      expect(r.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a missing file as bad input', () => {
    const r = runCli(['validate', 'examples/configs/no-such-file.yaml']);
    expect(r.stderr).toBe('examples/configs/no-such-file.yaml: cannot read "examples/configs/no-such-file.yaml": no such file or directory\n');
    expect(r.status).toBe(2);
  });
});

describe('dcbkit validate: examples', () => {
  const readme = readFileSync('examples/configs/README.md', 'utf8');

  for (const name of ['converged.yaml', 'converged.json', 'roce.yaml', 'cee-pg.yaml']) {
    it(`${name} is valid with no warnings`, () => {
      const r = runCli(['validate', `examples/configs/${name}`]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^ok: examples/configs/${name.replace('.', '\\.')} is a valid config\n`));
      expect(readme).toContain(name);
    });
  }

  const MIXED = 'warning: ets.prio_tc: TC 0 mixes PFC priorities (3) with non-PFC priorities (0, 1, 2): a pause of 3 also stops 0, 1, 2\n';
  const REFUSED = 'lossless priority 3 shares TC 0 and so its priority group with lossy priority 0,1,2';

  it('prints warnings on stderr and still exits 0, including the codegen targets that would refuse the config', () => {
    const r = runCli(['validate', 'examples/configs/mixed-tc.yaml']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(MIXED + `warning: pfc.enable: codegen --target sonic,p4,linux,c-header,sv would refuse this: ${REFUSED}\n`);
    expect(r.stdout).toContain('(2 warnings)');
    const j = runCli(['validate', 'examples/configs/mixed-tc.yaml', '--json']);
    expect(j.status).toBe(0);
    const doc = JSON.parse(j.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.warnings).toEqual([
      { path: 'ets.prio_tc', rule: 'TC 0 mixes PFC priorities (3) with non-PFC priorities (0, 1, 2): a pause of 3 also stops 0, 1, 2' },
      { path: 'pfc.enable', rule: `codegen --target sonic,p4,linux,c-header,sv would refuse this: ${REFUSED}` },
    ]);
  });

  it('validate --target T[,T] fails exactly where codegen fails, with the same lines', () => {
    const codegen = runCli(['codegen', 'examples/configs/mixed-tc.yaml', '--target', 'sonic,lldp', '--out', join(tmpdir(), 'dcbkit-never-written')]);
    const v = runCli(['validate', 'examples/configs/mixed-tc.yaml', '--target', 'sonic,lldp']);
    expect(v.status).toBe(2);
    expect(codegen.status).toBe(2);
    expect(v.stderr).toBe(`sonic: pfc.enable: ${REFUSED}\n`);
    expect(codegen.stderr).toBe(v.stderr);
    expect(v.stdout).toBe('');
    // a target with no objection: ok, and the config's own warning only
    const lldp = runCli(['validate', 'examples/configs/mixed-tc.yaml', '--target', 'lldp']);
    expect(lldp.status).toBe(0);
    expect(lldp.stderr).toBe(MIXED);
    expect(runCli(['validate', 'examples/configs/converged.yaml', '--target', 'all']).status).toBe(0);
    // repeated or comma-listed, as codegen takes them; bad names and non-configs are usage errors
    expect(runCli(['validate', 'examples/configs/mixed-tc.yaml', '--target', 'lldp', '--target', 'p4']).stderr).toBe(`p4: pfc.enable: ${REFUSED}\n`);
    const bad = runCli(['validate', 'examples/configs/converged.yaml', '--target', 'sonc']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^--target: "sonc" is not one of "sonic", "p4"/);
    const scenario = runCli(['validate', 'examples/sim-tiny/scenario.yaml', '--target', 'p4']);
    expect(scenario.status).toBe(2);
    expect(scenario.stderr).toBe('--target: codegen emits DCB configs; examples/sim-tiny/scenario.yaml is a scenario\n');
  });

  it('warns about a PFC and a non-PFC priority in one CEE priority group', () => {
    const r = runCli(['validate', '-'], { input: JSON.stringify({ pg: { prio_pgid: [1, 1, 0, 0, 1, 1, 1, 15], pg_bw: [50, 50, 0, 0, 0, 0, 0, 0] }, pfc: { enable: [3, 4] } }) });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      'warning: pg.prio_pgid: PGID 0 mixes PFC priorities (3) with non-PFC priorities (2): a pause of 3 also stops 2\n' +
        'warning: pg.prio_pgid: PGID 1 mixes PFC priorities (4) with non-PFC priorities (0, 1, 5, 6): a pause of 4 also stops 0, 1, 5, 6\n' +
        // what codegen makes of the same mix, one line per reason with the targets that give it
        'warning: pfc.enable: codegen --target sonic,p4,linux,c-header,sv would refuse this: lossless priority 3 shares TC 0 and so its priority group with lossy priority 2\n' +
        'warning: pfc.enable: codegen --target sonic,p4,linux,c-header,sv would refuse this: lossless priority 4 shares TC 1 and so its priority group with lossy priority 0,1,5,6\n',
    );
  });

  it('warns about lossless protocols on lossy priorities and unused bandwidth', () => {
    const cfg = {
      ets: { prio_tc: [0, 0, 0, 0, 0, 0, 0, 0], tsa: ['ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [70, 30, 0, 0, 0, 0, 0, 0] },
      app: [{ selector: 'dgram', protocol: 4791, priority: 3 }, { selector: 'dgram', protocol: 4791, priority: 5 }],
    };
    const r = runCli(['validate', '-', '--json'], { input: JSON.stringify(cfg) });
    expect(r.status).toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual([
      'warning: ets.bw[1]: TC 1 has 30 % but no priority maps to it; that share goes to the other ETS TCs',
      'warning: app[0]: RoCE v2 (UDP 4791) is mapped to priority 3, which has no PFC or credit flow control; it is normally run lossless',
      'warning: app[1]: RoCE v2 (UDP 4791) is mapped to priority 5, which has no PFC or credit flow control; it is normally run lossless',
      'warning: app[1]: dgram 4791 is also mapped to priority 3 by app[0]; devices differ in which one they use',
      'warning: app[1]: codegen --target lldp would refuse this: selector 3 protocol 4791 is already mapped by app[0]; give each application one priority',
    ]);
  });

  it('each invalid example fails with the line its README entry promises', () => {
    for (const name of ['bw-sum.yaml', 'reserved-pgid.yaml', 'typo.yaml', 'pfc-and-pause.yaml']) {
      const file = `examples/configs/invalid/${name}`;
      const expected = /Expected: exit 2, stderr `([^`]+)`/.exec(readFileSync(file, 'utf8'))![1];
      const r = runCli(['validate', file]);
      expect(r.stderr, file).toBe(expected + '\n');
      expect(r.status, file).toBe(2);
      expect(r.stdout, file).toBe('');
      expect(readme).toContain(expected);
    }
  });

  it('validate --json prints {ok, kind, warnings, config} with the normalised config', () => {
    const r = runCli(['validate', 'examples/configs/roce.yaml', '--json']);
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['ok', 'kind', 'warnings', 'config']);
    expect(doc.config.port).toEqual({ name: 'Ethernet0', speed: 100e9, mtu: 9216, cable: 30, mac: '02:00:00:00:01:00' });
    expect(doc.config.app[0]).toEqual({ selector: 5, selector_name: 'dscp', protocol: 26, priority: 3 });
    expect(doc.config.qcn.rp.profile).toBe('dcqcn');
    expect(doc.config.qcn.rp.line_bps).toBe(100e9);
  });
});

describe('dcbkit validate: document kinds', () => {
  it('dispatches a scenario (hosts + links) to the scenario kind and checks its embedded DCB configs', () => {
    const r = runCli(['validate', 'examples/sim-tiny/scenario.yaml']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ok: examples\/sim-tiny\/scenario\.yaml is a valid scenario\n/);
    expect(r.stderr).toBe('');
    const j = JSON.parse(runCli(['validate', 'examples/sim-tiny/scenario.yaml', '--json']).stdout);
    expect([j.ok, j.kind, j.document.name]).toEqual([true, 'scenario', 'sim-tiny']);
  });

  it('warns about an embedded config that mixes PFC and non-PFC priorities in one TC, with the scenario path', () => {
    // sim-tiny with priority 2 moved into lossless priority 3's TC 1 (PFC on 3 only)
    const text = readFileSync('examples/sim-tiny/scenario.yaml', 'utf8').replace('prio_tc: [0, 0, 0, 1,', 'prio_tc: [0, 0, 1, 1,');
    const r = runCli(['validate', '-'], { input: text });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/is a valid scenario \(1 warning\)\n/);
    expect(r.stderr).toBe('warning: defaults.dcb.ets.prio_tc: TC 1 mixes PFC priorities (3) with non-PFC priorities (2): a pause of 3 also stops 2\n');
  });

  it('reports a broken embedded config with the scenario path in front', () => {
    const text = readFileSync('examples/sim-tiny/scenario.yaml', 'utf8').replace('bw: [50, 50, 0,', 'bw: [50, 40, 0,');
    const r = runCli(['validate', '-'], { input: text });
    expect(r.stderr).toBe('defaults.dcb.ets.bw: bandwidths of ETS TCs sum to 90, must be 100\n');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('checks a device file (codegen --device) on its own: summary, problems at the file\'s own paths, --json', () => {
    const ok = runCli(['validate', 'examples/codegen/device-2port.yaml']);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('ok: examples/codegen/device-2port.yaml is a valid device\n' +
      '  device example-2port (dcbkit-example, x86_64-dcbkit_example-r0): 2 ports (Ethernet0 100G, Ethernet8 400G)\n' +
      '  buffer 33554432 B in 256-B cells, 8 queues and 8 PGs per port, headroom ieee, dcbx auto\n');
    const j = JSON.parse(runCli(['validate', 'examples/codegen/device-4q.yaml', '--json']).stdout);
    expect([j.kind, j.document.queues_per_port, j.document.buffer_bytes]).toEqual(['device', 4, 33554432]);
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-device-'));
    try {
      const bad = join(dir, 'bad.yaml');
      writeFileSync(bad, 'ports:\n  - {name: e0, index: 0, speed: 100G, cable: 3m}\n  - {name: e0, index: 0, speed: 100G, cable: 3m}\ncell_bytes: 0\n');
      const r = runCli(['validate', bad]);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe('cell_bytes: must be at least 1\n');
      writeFileSync(bad, 'ports:\n  - {name: e0, index: 0, speed: 100G, cable: 3m}\n  - {name: e0, index: 0, speed: 100G, cable: 3m}\n');
      const dup = runCli(['validate', bad]);
      expect(dup.stderr).toBe('ports[1].name: duplicate port name e0\nports[1].index: duplicate port index 0\n');
      expect(dup.status).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--kind forces a kind; an unknown kind is bad input', () => {
    const r = runCli(['validate', 'examples/configs/roce.yaml', '--kind', 'scenario']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('duration: ');
    const u = runCli(['validate', 'examples/configs/roce.yaml', '--kind', 'devices']);
    expect(u.stderr).toBe('--kind: unknown document kind "devices"; one of scenario, device, config\n');
    expect(u.status).toBe(2);
  });
});

describe('dcbkit schema config', () => {
  it('prints the JSON Schema and writes it atomically with --out', () => {
    const r = runCli(['schema', 'config']);
    expect(r.status).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-schema-'));
    try {
      const out = join(dir, 'sub', 'config.schema.json');
      const w = runCli(['schema', 'config', '--out', out]);
      expect(w.status).toBe(0);
      expect(w.stdout).toBe('');
      expect(existsSync(out)).toBe(true);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(s);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the scenario schema checks embedded DCB configs with the config schema', () => {
    const config = JSON.parse(runCli(['schema', 'config']).stdout);
    const scenario = JSON.parse(runCli(['schema', 'scenario']).stdout);
    const { $schema: _drop, ...configBody } = config;
    expect(scenario.$defs.dcbConfig).toEqual(configBody);
    const ref = { $ref: '#/$defs/dcbConfig' };
    expect(scenario.properties.dcb_profiles.additionalProperties).toEqual(ref);
    for (const dcb of [scenario.properties.defaults.properties.dcb, scenario.properties.hosts.items.properties.dcb, scenario.properties.switches.items.properties.dcb]) {
      expect(dcb.anyOf).toContainEqual(ref); // a config, or the name of a profile
      expect(dcb.anyOf.find((a: { type?: string }) => a.type === 'string')).toBeDefined();
    }
  });

  it('schema device: the device file format, closed to unknown keys, with its defaults and limits', () => {
    const r = runCli(['schema', 'device']);
    expect(r.status).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(s.additionalProperties).toBe(false);
    expect(Object.keys(s.properties)).toEqual(['name', 'hwsku', 'platform', 'ports', 'buffer_bytes', 'cell_bytes', 'queues_per_port', 'pgs_per_port', 'headroom_profile', 'dcbx', 'dynamic_th']);
    expect(s.properties.queues_per_port).toMatchObject({ type: 'integer', minimum: 1, maximum: 16, default: 8 });
    expect(s.properties.ports.items.required).toEqual(['name', 'index', 'speed', 'cable']);
    expect(s.properties.ports.items.additionalProperties).toBe(false);
  });

  it('rejects an unknown schema kind with exit 2', () => {
    const r = runCli(['schema', 'scenery']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('<kind>: unknown schema "scenery"; one of config, scenario, device\n');
    expect(r.stdout).toBe('');
  });
});
