// Oracle: lldptool (lldpad 1.1, intel/openlldp) decodes the LLDPDUs dcbkit writes. lldpad will not
// run DCBX on a veth (no dcbnl_ops, torvalds/linux net/dcb/dcbnl.c dcb_doit), but as a receiver it keeps the last
// LLDPDU of a neighbour and `lldptool -t -n` prints its TLVs with lldpad's own printers — a second
// decoder written independently of Wireshark's. Everything runs in a private network namespace
// (we need root); only the lldpad we start is stopped, by its pid.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CeeTlv } from '../../host/dcbx/cee.js';
import type { AppTlv, EtsCfgTlv, EtsRecTlv, PfcTlv, TsaName } from '../../host/dcbx/ieee.js';
import { selectorCode } from '../../host/dcbx/ieee.js';
import { decodeTlv, encodeLldpdu, encodeTlv, type LldpTlv, type Lldpdu } from '../../host/dcbx/lldpdu.js';
import { parseHex, toHex } from '../../host/frames/bytes.js';
import { requireTool } from '../helpers.js';
import { ceeArb } from './arbitraries.js';

const NS = `dcbkit-lldp-${process.pid}`;
let lldpad: ChildProcess | undefined;
let stateDir: string | undefined;

function sh(cmd: string, args: string[], input?: string): { status: number; out: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', input });
  return { status: r.status ?? -1, out: (r.stdout ?? '') + (r.stderr ?? '') };
}
const inNs = (...args: string[]) => sh('ip', ['netns', 'exec', NS, ...args]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  for (const t of ['lldpad', 'lldptool', 'ip', 'python3']) requireTool(t);
  if (process.getuid?.() !== 0) throw new Error('the lldptool oracle needs root (a network namespace with a veth pair)');
  const steps = [
    ['netns', 'add', NS],
    ['-n', NS, 'link', 'add', 'dev', 'a', 'type', 'veth', 'peer', 'name', 'b'],
    ['-n', NS, 'link', 'set', 'dev', 'a', 'up'],
    ['-n', NS, 'link', 'set', 'dev', 'b', 'up'],
  ];
  for (const s of steps) {
    const r = sh('ip', s);
    if (r.status !== 0) throw new Error(`ip ${s.join(' ')}: ${r.out}`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-lldpad-'));
  stateDir = dir;
  // lldpad refuses to start while another instance's state record looks alive (its SysV shared
  // memory is machine-wide, not per namespace), so a start is retried after that one has gone.
  let log = '';
  for (let attempt = 0; attempt < 5 && !lldpad; attempt++) {
    // -p: no pid file, -t: keep our own state, -f: a private config (lldpad creates it)
    const p = spawn('ip', ['netns', 'exec', NS, 'lldpad', '-p', '-t', '-f', join(dir, 'lldpad.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let exited = false;
    p.on('exit', () => (exited = true));
    p.stdout.on('data', (d) => (log += d));
    p.stderr.on('data', (d) => (log += d));
    for (let i = 0; i < 50 && !exited; i++) {
      if (inNs('lldptool', 'set-lldp', '-i', 'a', 'adminStatus=rx').status === 0) {
        lldpad = p;
        break;
      }
      await sleep(200);
    }
    if (!lldpad) {
      p.kill('SIGTERM');
      await sleep(1000);
    }
  }
  if (!lldpad) throw new Error(`lldpad did not start in the namespace: ${log}`);
}, 60_000);

afterAll(async () => {
  const p = lldpad;
  if (p && p.exitCode === null) {
    const gone = new Promise((r) => p.once('exit', r));
    p.kill('SIGTERM');
    await Promise.race([gone, sleep(5000)]);
  }
  sh('ip', ['netns', 'del', NS]);
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
}, 10_000);

/** Sends the frame on b, then returns lldptool's view of a's neighbour once it shows `marker`. */
async function throughLldpad(frame: Uint8Array, marker: string): Promise<string> {
  const send = inNs('python3', '-c', 'import socket,sys\ns=socket.socket(socket.AF_PACKET,socket.SOCK_RAW)\ns.bind(("b",0))\ns.send(bytes.fromhex(sys.argv[1]))', toHex(frame));
  if (send.status !== 0) throw new Error(`inject: ${send.out}`);
  for (let i = 0; i < 50; i++) {
    const r = inNs('lldptool', '-t', '-n', '-i', 'a');
    if (r.out.includes(marker)) return r.out;
    await sleep(100);
  }
  throw new Error(`lldpad never showed ${marker}`);
}

/** lldptool's sections: title line -> the indented lines under it. */
function sections(out: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  let cur: string[] = [];
  for (const line of out.split('\n')) {
    if (!line.trim()) continue;
    if (/^\S/.test(line)) m.set(line.trim(), (cur = []));
    else cur.push(line.trim());
  }
  return m;
}
const after = (lines: string[], key: string) => lines.find((l) => l.startsWith(key))?.slice(key.length).trim() ?? '';
const TSA_LLDPTOOL: Record<TsaName, string> = { strict: 'strict', cbs: 'cbshaper', ets: 'ets', vendor: 'vendor' };

function checkEts(lines: string[], t: EtsCfgTlv | EtsRecTlv): void {
  expect(after(lines, 'PRIO_MAP:').split(/\s+/)).toEqual(t.prio_tc.map((tc, p) => `${p}:${tc}`));
  expect(after(lines, 'TC Bandwidth:').split(/\s+/)).toEqual(t.bw.map((b) => `${b}%`));
  expect(after(lines, 'TSA_MAP:').split(/\s+/)).toEqual(t.tsa.map((x, tc) => `${tc}:${TSA_LLDPTOOL[x as TsaName]}`));
}

function checkIeee(s: Map<string, string[]>, tlvs: LldpTlv[]): void {
  for (const t of tlvs) {
    if (t.type === 'ets_cfg') {
      const l = s.get('IEEE 8021QAZ ETS Configuration TLV')!;
      expect(after(l, 'Willing:')).toBe(t.willing ? 'yes' : 'no');
      expect(after(l, 'CBS:')).toBe(t.cbs ? 'supported' : 'not supported');
      expect(Number(after(l, 'MAX_TCS:'))).toBe(t.max_tcs); // lldptool prints wire 0 as 8, like our decoder
      checkEts(l, t);
    } else if (t.type === 'ets_rec') {
      checkEts(s.get('IEEE 8021QAZ ETS Recommendation TLV')!, t);
    } else if (t.type === 'pfc') {
      const l = s.get('IEEE 8021QAZ PFC TLV')!;
      expect(after(l, 'Willing:')).toBe(t.willing ? 'yes' : 'no');
      expect(after(l, 'MACsec Bypass Capable:')).toBe(t.mbc ? 'yes' : 'no'); // raw bit (§5.4 note)
      expect(Number(after(l, 'PFC capable traffic classes:'))).toBe(t.cap);
      expect((after(l, 'PFC enabled:').match(/\d/g) ?? []).map(Number)).toEqual(t.enable);
    } else if (t.type === 'app') {
      const l = s.get('IEEE 8021QAZ APP TLV')!;
      const seen: string[] = [];
      for (const line of l) {
        const m = /Prio (\d)\s+Sel (\d)\s+P-ID\s+.*?:\s*(0x[0-9a-fA-F]+|\d+)\s*$/.exec(line);
        if (m) seen.push(`${m[2]}/${Number(m[3])}/${m[1]}`);
        const d = /^Prio:(\d)\s+dscp:\s*(.*)$/.exec(line);
        if (d) for (const v of d[2].split(',').map((x) => x.trim()).filter((x) => /^\d+$/.test(x))) seen.push(`5/${Number(v)}/${d[1]}`);
      }
      expect(seen.sort()).toEqual(t.app.map((e) => `${selectorCode(e.selector)}/${e.protocol}/${e.priority}`).sort());
    }
  }
}

function flags(h: { enable: boolean; willing: boolean; error: boolean }): string {
  return `${h.enable ? 'Enabled' : 'Not Enabled'}, ${h.willing ? 'Willing' : 'Not Willing'}, ${h.error ? 'Error' : 'No Error'}`;
}

function checkCee(s: Map<string, string[]>, t: CeeTlv): void {
  const l = s.get('CEE DCBX TLV')!;
  // lldptool prints SeqNo/AckNo as signed 32-bit integers (0xffffffed shows as -19)
  expect(l).toContain(`SeqNo: ${t.control.seq | 0}, AckNo: ${t.control.ack | 0}`);
  const at = (title: string) => l.indexOf(title);
  if (t.pg) {
    const i = at('Priority Groups TLV:');
    expect(l[i + 1]).toBe(flags(t.pg));
    const groups = new Map<number, number[]>();
    t.pg.prio_pgid.forEach((g, p) => groups.set(g, [...(groups.get(g) ?? []), p]));
    const want = [...groups.entries()].sort((x, y) => x[0] - y[0]).map(([g, ps]) => `${g}:[${ps.join(',')}]`);
    expect(after(l, 'PGID Priorities:').split(/\s+/)).toEqual(want);
    expect(after(l, 'PGID Percentages:').split(/\s+/)).toEqual(t.pg.pg_bw.map((b, g) => `${g}:${b}%`));
  }
  if (t.pfc) {
    const i = at('Priority Flow Control TLV:');
    expect(l[i + 1]).toBe(flags(t.pfc));
    expect((l[i + 2].replace('PFC enabled priorities:', '').match(/\d/g) ?? []).map(Number)).toEqual(t.pfc.enable_prios);
  }
  if (t.app) {
    const i = at('Application TLV:');
    expect(l[i + 1]).toBe(flags(t.app));
    const entries = l.slice(i + 2, i + 2 + t.app.app.length);
    expect(entries).toEqual(t.app.app.map((e) => `${e.selector === 'ethertype' ? 'Ethertype' : 'TCP/UDP Port'}: 0x${e.protocol.toString(16).padStart(4, '0')}, Priority Map: 0x${e.priorities.reduce((v, p) => v | (1 << p), 0).toString(16).padStart(2, '0')}`));
  }
}

const frameOf = (n: number, tlvs: LldpTlv[]): Lldpdu => {
  const mac = `02:00:00:00:${(n >> 8).toString(16).padStart(2, '0')}:${(n & 0xff).toString(16).padStart(2, '0')}`;
  return { dst: '01:80:c2:00:00:0e', src: mac, chassis: { subtype: 4, id: mac }, port: { subtype: 5, id: `eth${n}` }, ttl: 120, tlvs, end: true };
};

describe('lldptool reads the LLDPDUs dcbkit writes', () => {
  it('the golden IEEE TLVs of §5.5 and a CET TLV (shown raw with our OUI and bytes)', async () => {
    const tlvs = ['fe190080c209c3012345670a141e280000000002020202000100ff', 'fe190080c20a001123456732320000000000000202000000000000', 'fe060080c20bc818', 'fe110080c20c006189068312b7a5001a420cbc']
      .map((h) => decodeTlv(parseHex(h, 'golden')));
    const cet: LldpTlv = { type: 'cet', oui: '0adcb0', supported: true, channels: false, ce_tag: false, priorities: [3, 4], unit: 64, aging_us: 100, counter_bits: 16 };
    const pdu = frameOf(1, [...tlvs, cet]);
    const s = sections(await throughLldpad(encodeLldpdu(pdu), 'MAC: 02:00:00:00:00:01'));
    checkIeee(s, tlvs);
    // CET: flags 0x80, priorities 0x18, unit 0x0040, aging 0x00000064, width 0x10
    expect(s.get('Unidentified Org Specific TLV')).toEqual(['OUI: 0x0adcb0, Subtype: 1, Info: ' + toHex(encodeTlv(cet)).slice(12)]);
    expect(toHex(encodeTlv(cet)).slice(12)).toBe('80180040000000' + '6410');
  }, 30_000);

  it('the golden CEE TLV of §5.6', async () => {
    const cee = decodeTlv(parseHex('fe3d001b2102020a0000000000050000000304110000c000001122f719191919000000000806060000a00008080810000080008906001b21080cbc011b2110', 'golden')) as CeeTlv;
    const s = sections(await throughLldpad(encodeLldpdu(frameOf(2, [cee])), 'MAC: 02:00:00:00:00:02'));
    checkCee(s, cee);
  }, 30_000);

  it('random IEEE and CEE LLDPDUs', async () => {
    const tsa = fc.constantFrom<TsaName>('strict', 'cbs', 'ets', 'vendor');
    const prio = fc.integer({ min: 0, max: 7 });
    const tables = fc.record({ prio_tc: fc.array(prio, { minLength: 8, maxLength: 8 }), bw: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 8, maxLength: 8 }), tsa: fc.array(tsa, { minLength: 8, maxLength: 8 }) });
    const ieee = fc.record({
      cfg: fc.record({ willing: fc.boolean(), cbs: fc.boolean(), max_tcs: fc.integer({ min: 1, max: 8 }), t: tables }).map(({ t, ...h }): EtsCfgTlv => ({ type: 'ets_cfg', ...h, ...t })),
      rec: tables.map((t): EtsRecTlv => ({ type: 'ets_rec', ...t })),
      pfc: fc.record({ willing: fc.boolean(), mbc: fc.boolean(), cap: fc.integer({ min: 0, max: 8 }), enable: fc.uniqueArray(prio).map((a) => a.sort()) }).map((p): PfcTlv => ({ type: 'pfc', ...p })),
      app: fc.array(fc.oneof(
        fc.record({ selector: fc.constantFrom('ethertype', 'stream', 'dgram', 'any') as fc.Arbitrary<'ethertype' | 'stream' | 'dgram' | 'any'>, protocol: fc.integer({ min: 1, max: 0xffff }), priority: prio }),
        fc.record({ selector: fc.constant('dscp' as const), protocol: fc.integer({ min: 0, max: 63 }), priority: prio }),
      ), { minLength: 1, maxLength: 12 }).map((app): AppTlv => ({ type: 'app', app })),
    });
    const cases = fc.sample(fc.tuple(ieee, ceeArb), { seed: 51, numRuns: 4 });
    let n = 10;
    for (const [i, c] of cases) {
      const tlvs = [i.cfg, i.rec, i.pfc, i.app];
      checkIeee(sections(await throughLldpad(encodeLldpdu(frameOf(++n, tlvs)), `Ifname: eth${n}`)), tlvs);
      const cee: CeeTlv = { ...c, control: { ...c.control, oper_version: 0, max_version: 0 } };
      if (cee.pg) cee.pg = { ...cee.pg, oper_version: 0, max_version: 0 };
      if (cee.pfc) cee.pfc = { ...cee.pfc, oper_version: 0, max_version: 0 };
      if (cee.app) cee.app = { ...cee.app, oper_version: 0, max_version: 0, app: cee.app.app.map((e) => ({ ...e, selector: e.selector === 'ethertype' ? 'ethertype' : 'port', oui: 0x1b21 })) };
      checkCee(sections(await throughLldpad(encodeLldpdu(frameOf(++n, [cee])), `Ifname: eth${n}`)), cee);
    }
  }, 60_000);
});
