// Oracle: tshark (Wireshark 4.0 dissectors, independent of our code) decodes every control frame
// dcbkit writes, and every field agrees. PFC and PAUSE use Wireshark's own macc dissector; the
// credit-exchange opcodes and the CNM, which tshark does not know, use test/wireshark/dcbkit.lua.
import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toHex } from '../../host/frames/bytes.js';
import { encodeFrame, type ControlFrame } from '../../host/frames/index.js';
import { readPcap } from '../../host/capture/pcap.js';
import { runCli } from '../helpers.js';
import { controlFrameArb } from './arbitraries.js';
import { LUA, num, pcapOf, tmpFile, tsharkFields } from './oracle.js';

const prio = [0, 1, 2, 3, 4, 5, 6, 7];
const FIELDS = [
  'eth.dst', 'eth.src', 'eth.type', 'macc.opcode', 'macc.pause_time', 'macc.cbfc.enbv',
  ...prio.map((n) => `macc.cbfc.pause_time.c${n}`),
  'dcbkit_ce.opcode', 'dcbkit_ce.channel', 'dcbkit_ce.enbv',
  ...prio.map((n) => `dcbkit_ce.count${n}`), ...prio.map((n) => `dcbkit_ce.request${n}`),
  'vlan.priority', 'vlan.dei', 'vlan.id', 'dcbkit_cntag.flow',
  'dcbkit_cnm.version', 'dcbkit_cnm.qf', 'dcbkit_cnm.cpid', 'dcbkit_cnm.qoff', 'dcbkit_cnm.qdelta', 'dcbkit_cnm.prio',
  'dcbkit_cnm.encap_dst', 'dcbkit_cnm.msdu_len', 'dcbkit_cnm.msdu',
  '_ws.expert.message', '_ws.malformed', 'eth.fcs.status',
];

const bits = (list: number[]) => list.reduce((v, p) => v | (1 << p), 0);

/** What tshark must show for frame f. */
function expectAgrees(row: Record<string, string>, f: ControlFrame): void {
  expect(row['eth.dst']).toBe(f.dst);
  expect(row['eth.src']).toBe(f.src);
  expect(row['_ws.malformed']).toBe('');
  switch (f.kind) {
    case 'pfc':
      expect(num(row['macc.opcode'])).toBe(0x0101);
      expect(num(row['macc.cbfc.enbv'])).toBe(bits(f.enable));
      prio.forEach((n) => expect(num(row[`macc.cbfc.pause_time.c${n}`])).toBe(f.time[n]));
      break;
    case 'pause':
      expect(num(row['macc.opcode'])).toBe(0x0001);
      expect(num(row['macc.pause_time'])).toBe(f.time);
      break;
    case 'ce-sync':
    case 'ce-grant': {
      expect(num(row['dcbkit_ce.opcode'])).toBe(f.kind === 'ce-sync' ? 0x0110 : 0x0111);
      expect(num(row['dcbkit_ce.channel'])).toBe(f.channel);
      expect(num(row['dcbkit_ce.enbv'])).toBe(bits(f.enable));
      const counts = f.kind === 'ce-sync' ? f.tbs : f.cl;
      prio.forEach((n) => expect(num(row[`dcbkit_ce.count${n}`])).toBe(counts[n]));
      if (f.kind === 'ce-sync') prio.forEach((n) => expect(num(row[`dcbkit_ce.request${n}`])).toBe(f.request[n]));
      expect(row['macc.opcode']).toBe(''); // the Lua dissector, not macc "Unknown opcode"
      break;
    }
    case 'cnm':
      expect(num(row['dcbkit_cnm.version'])).toBe(0);
      expect(num(row['dcbkit_cnm.qf'])).toBe(f.qf);
      expect(row['dcbkit_cnm.cpid'].replace(/:/g, '')).toBe(f.cpid);
      expect(num(row['dcbkit_cnm.qoff'])).toBe(f.q_off);
      expect(num(row['dcbkit_cnm.qdelta'])).toBe(f.q_delta);
      expect(num(row['dcbkit_cnm.prio'])).toBe(f.encap_priority);
      expect(row['dcbkit_cnm.encap_dst']).toBe(f.encap_dst);
      expect(num(row['dcbkit_cnm.msdu_len'])).toBe(f.encap_msdu.length / 2);
      expect(row['dcbkit_cnm.msdu'].replace(/:/g, '')).toBe(f.encap_msdu);
      if (f.vlan) {
        expect(num(row['vlan.priority'])).toBe(f.vlan.pcp);
        expect(num(row['vlan.dei'])).toBe(f.vlan.dei);
        expect(num(row['vlan.id'])).toBe(f.vlan.vid);
      } else expect(row['vlan.id']).toBe('');
      expect(row['dcbkit_cntag.flow']).toBe(f.cn_tag === undefined ? '' : String(f.cn_tag));
      break;
  }
}

describe('tshark decodes the frames dcbkit writes', () => {
  it('agrees on every field of 400 random PFC, PAUSE, CE and CNM frames', () => {
    const frames = fc.sample(controlFrameArb, { seed: 11, numRuns: 400 });
    const rows = tsharkFields(pcapOf(frames.map((f) => encodeFrame(f))), FIELDS, ['-X', `lua_script:${LUA}`]);
    expect(rows.length).toBe(frames.length);
    frames.forEach((f, i) => expectAgrees(rows[i], f));
  });

  it('checks the FCS dcbkit appends (eth.fcs.status = Good)', () => {
    const frames = fc.sample(controlFrameArb, { seed: 12, numRuns: 50 });
    const rows = tsharkFields(pcapOf(frames.map((f) => encodeFrame(f, { fcs: true }))), FIELDS, ['-X', `lua_script:${LUA}`, '-o', 'eth.fcs:Always', '-o', 'eth.check_fcs:TRUE']);
    rows.forEach((row, i) => {
      expect(row['eth.fcs.status']).toBe('1');
      expectAgrees(row, frames[i]);
    });
  });

  it('`frames pfc --pause 3:65535,4:4660 --pcap` is the §1.1 golden frame, and tshark reads it as CBFC', () => {
    const file = tmpFile('pfc.pcap');
    const r = runCli(['frames', 'pfc', '--pause', '3:65535,4:4660', '--src', '02:00:00:00:00:01', '--pcap', file, '--hex']);
    expect(r.status).toBe(0);
    const hex = '0180c2000001020000000001880801010018000000000000ffff1234000000000000' + '00'.repeat(26);
    expect(r.stdout.trim()).toBe(hex);
    expect(toHex(readPcap(readFileSync(file))[0].data)).toBe(hex);
    const [row] = tsharkFields(file, FIELDS, ['-X', `lua_script:${LUA}`]);
    expect(num(row['macc.cbfc.enbv'])).toBe(0x18);
    expect(num(row['macc.cbfc.pause_time.c3'])).toBe(65535);
    expect(num(row['macc.cbfc.pause_time.c4'])).toBe(4660);
    expect(row['_ws.expert.message']).toBe('');
  });

  it('each `frames` kind from the CLI decodes in tshark with the values given', () => {
    const cases: [string[], (row: Record<string, string>) => void][] = [
      [['pause', '--time', '300'], (row) => expect(num(row['macc.pause_time'])).toBe(300)],
      [['cnm', '--qf', '40', '--dst', '02:00:00:00:00:09', '--cpid', '0102030405060708', '--qoff', '-1200', '--qdelta', '64', '--vlan', '100', '--prio', '3'],
        (row) => {
          expect([row['eth.dst'], num(row['dcbkit_cnm.qf']), num(row['dcbkit_cnm.qoff']), num(row['dcbkit_cnm.qdelta'])]).toEqual(['02:00:00:00:00:09', 40, -1200, 64]);
          expect([num(row['vlan.id']), num(row['vlan.priority']), row['dcbkit_cnm.cpid']]).toEqual([100, 3, '0102030405060708']);
        }],
      [['ce', '--grant', '--cl', '3:1024,5:65535', '--channel', '9'],
        (row) => expect([num(row['dcbkit_ce.opcode']), num(row['dcbkit_ce.channel']), num(row['dcbkit_ce.enbv']), num(row['dcbkit_ce.count3']), num(row['dcbkit_ce.count5'])]).toEqual([0x111, 9, 0x28, 1024, 65535])],
      [['ce', '--sync', '--tbs', '3:77', '--request', '3:12,4:1'],
        (row) => expect([num(row['dcbkit_ce.opcode']), num(row['dcbkit_ce.enbv']), num(row['dcbkit_ce.count3']), num(row['dcbkit_ce.request3']), num(row['dcbkit_ce.request4'])]).toEqual([0x110, 0x18, 77, 12, 1])],
    ];
    for (const [args, check] of cases) {
      const file = tmpFile('f.pcap');
      const r = runCli(['frames', ...args, '--pcap', file]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
      const rows = tsharkFields(file, FIELDS, ['-X', `lua_script:${LUA}`]);
      expect(rows.length).toBe(1);
      check(rows[0]);
    }
  });
});

describe('`frames` bad input', () => {
  it.each([
    [['pfc', '--pause', '8:1'], '--pause'],
    [['pause', '--time', '-1'], '--time'],
    [['cnm', '--qf', '64', '--dst', '02:00:00:00:00:09'], '--qf'],
    [['cnm', '--qf', '1', '--dst', '02:00:00:00:00:09', '--cpid', '12'], '--cpid'],
    [['ce', '--grant', '--sync', '--cl', '1:1'], '--grant|--sync'],
    [['pfc', '--pause', '3:1', '--src', '02:00:00:00:00'], '--src'],
  ])('%j exits 2 naming %s and writes nothing', (args, path) => {
    const file = tmpFile('never.pcap');
    const r = runCli(['frames', ...args, '--pcap', file]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(`${path}: `)).toBe(true);
    expect(existsSync(file)).toBe(false);
  });
});
