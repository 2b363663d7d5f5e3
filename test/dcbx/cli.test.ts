// `dcbkit dcbx encode|decode|negotiate` end to end through the built CLI, with tshark as the
// independent reader of what `encode` and `negotiate --pcap` write.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers.js';
import { packageRoot } from '../../host/core/loader.js';
import { parseHex } from '../../host/frames/bytes.js';
import { writePcap } from '../../host/capture/pcap.js';
import { tmpFile } from '../frames/oracle.js';
import { fields, tsharkPdml, type PdmlNode } from './pdml.js';

const shows = (n: PdmlNode, name: string) => fields(n).filter((f) => f.name === name).map((f) => f.show);
const yaml = (text: string) => {
  const f = tmpFile('port.yaml');
  writeFileSync(f, text);
  return f;
};
const SEED001_A = `port: {name: sw1, mac: "02:00:00:00:00:01"}
ets: {willing: true, prio_tc: [0,0,0,1,1,0,0,0], tsa: [ets,ets,strict,strict,strict,strict,strict,strict], bw: [50,50,0,0,0,0,0,0]}
pfc: {enable: [3, 4], willing: true}
`;
const SEED001_B = `port: {name: sw2, mac: "02:00:00:00:00:02"}
ets: {willing: false, prio_tc: [0,0,0,0,0,0,1,1], tsa: [ets,ets,strict,strict,strict,strict,strict,strict], bw: [60,40,0,0,0,0,0,0],
      recommendation: {prio_tc: [0,0,0,0,0,0,1,1], tsa: [ets,ets,strict,strict,strict,strict,strict,strict], bw: [60,40,0,0,0,0,0,0]}}
pfc: {enable: [6, 7], willing: false}
app: [{selector: ethertype, protocol: 0x8906, priority: 3}]
`;

describe('dcbx encode', () => {
  it('writes the LLDPDU of examples/configs/converged.yaml, and tshark reads back its ETS, PFC and APP', () => {
    const file = tmpFile('lldp.pcap');
    const r = runCli(['dcbx', 'encode', 'examples/configs/converged.yaml', '--pcap', file]);
    expect(r.status, r.stderr).toBe(0);
    const [packet] = tsharkPdml(file);
    const lldp = packet.children.find((c) => c.name === 'lldp')!;
    expect(shows(lldp, 'lldp.chassis.id.mac')).toEqual(['02:00:00:00:00:04']);
    expect(shows(lldp, 'lldp.port.id')).toEqual(['Ethernet4']);
    expect(shows(lldp, 'lldp.ieee.802_1.subtype')).toEqual(['0x09', '0x0b', '0x0c']);
    // config: prio_tc [0,1,2,0,0,0,1,2], bw [40,40,20,0...], pfc.enable [1,6], three APP entries
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((p) => shows(lldp, `lldp.dcbx.feature.pg.pgid_prio${p}`)[0])).toEqual(['0', '1', '2', '0', '0', '0', '1', '2']);
    expect([0, 1, 2].map((t) => shows(lldp, `lldp.dcbx.feature.pg.per${t}`)[0])).toEqual(['40', '40', '20']);
    expect([0, 1, 2, 3, 4, 5, 6, 7].filter((p) => shows(lldp, `lldp.dcbx.feature.pfc.prio${p}`)[0] === '1')).toEqual([1, 6]);
    expect(shows(lldp, 'lldp.dcbx.feature.app.proto')).toEqual(['0x8906', '0x8914', '0x0cbc']);
    expect(shows(lldp, 'lldp.dcbx.iee.app.sf')).toEqual(['1', '1', '2']);
    expect(shows(lldp, 'lldp.dcbx.ieee.app.prio')).toEqual(['1', '1', '6']);
    expect(fields(packet).some((f) => f.name === '_ws.malformed')).toBe(false);
  });

  it('a CEE config (pg) gives one CEE TLV that tshark reads as 1.01 with SeqNo 1', () => {
    const file = tmpFile('cee.pcap');
    expect(runCli(['dcbx', 'encode', 'examples/configs/cee-pg.yaml', '--pcap', file]).status).toBe(0);
    const lldp = tsharkPdml(file)[0].children.find((c) => c.name === 'lldp')!;
    expect(shows(lldp, 'lldp.dcbx.proto')).toEqual(['0x02']);
    expect(shows(lldp, 'lldp.dcbx.control.seq')).toEqual(['1']);
    // prio_pgid [1,1,0,0,1,1,1,15], pg_bw [50,50,...]
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((p) => shows(lldp, `lldp.dcbx.feature.pg.pgid_prio${p}`)[0])).toEqual(['1', '1', '0', '0', '1', '1', '1', '15']);
  });

  it('--json prints the LLDPDU with the config key names and its hex; decode --hex reads it back identically', () => {
    const r = runCli(['dcbx', 'encode', 'examples/configs/roce.yaml', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.lldpdu.tlvs.find((t: { type: string }) => t.type === 'app').app).toEqual([
      { selector: 'dscp', protocol: 26, priority: 3 }, { selector: 'dscp', protocol: 48, priority: 6 }, { selector: 'dgram', protocol: 4791, priority: 3 },
    ]);
    const back = runCli(['dcbx', 'decode', '--hex', doc.hex, '--json']);
    expect(back.status).toBe(0);
    const { t_ps: _t, ...withoutTime } = doc.lldpdu;
    expect(JSON.parse(back.stdout)).toEqual(withoutTime);
  });

  it.each([
    ['duplicate selector+protocol', 'app: [{selector: ethertype, protocol: 0x8906, priority: 3}, {selector: ethertype, protocol: 0x8906, priority: 4}]', 'app[1]: '],
    ['more APP entries than one TLV holds', `app: [${Array.from({ length: 169 }, (_, i) => `{selector: dscp, protocol: ${i % 64}, priority: ${i % 8}}`).join(', ')}]`, 'app: '],
    ['bandwidths not summing to 100', 'ets: {prio_tc: [0,0,0,0,1,1,1,1], tsa: [ets, ets, strict, strict, strict, strict, strict, strict], bw: [50, 40, 0, 0, 0, 0, 0, 0]}', 'ets.bw: '],
    ['the IEEE OUI for the CET TLV', 'credit: {priorities: [5], oui: "00-80-C2"}', 'credit.oui: '],
    ['credit counters wider than the CE frames carry', 'credit: {priorities: [5], counter_bits: 24}', 'credit.counter_bits: '],
  ])('a config that cannot be advertised (%s) exits 2 naming the field', (_what, body, path) => {
    const file = tmpFile('never.pcap');
    const r = runCli(['dcbx', 'encode', yaml(`port: {mac: "02:00:00:00:00:09"}\n${body}\n`), '--pcap', file]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').some((l) => l.startsWith(path)), r.stderr).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('a DSCP entry in CEE mode exits 2 naming it', () => {
    const r = runCli(['dcbx', 'encode', 'examples/configs/roce.yaml', '--mode', 'cee']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^app\[0\]\.selector: CEE DCBX has no DSCP selector/);
  });
});

describe('dcbx decode', () => {
  it('prints one JSON object per frame (JSON Lines) with its time and TLVs', () => {
    const file = tmpFile('neg.pcap');
    expect(runCli(['dcbx', 'negotiate', yaml(SEED001_A), yaml(SEED001_B), '--duration', '10s', '--pcap', file]).status).toBe(0);
    const r = runCli(['dcbx', 'decode', file, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    // 10 s: each side sends at 0, then 1 us, 1 s, 2 s, 3 s after the neighbour appears = 5 each
    expect(lines.length).toBe(10);
    expect(lines.map((l) => l.frame)).toEqual([...Array(10).keys()]);
    expect(lines[0]).toMatchObject({ kind: 'lldp', t_ps: 0, src: '02:00:00:00:00:01', ttl: 120 });
    expect(lines[0].tlvs.find((t: { type: string }) => t.type === 'pfc')).toEqual({ type: 'pfc', willing: true, mbc: false, cap: 8, enable: [3, 4] });
    expect(lines.at(-1).t_ps).toBe(3e12 + 1e6);
  });

  it('a malformed frame prints the typed error with its byte offset and exits 2', () => {
    // a PFC TLV of length 5 (one octet short) after Chassis ID (14..22), Port ID "e0" (23..27) and
    // TTL (28..31): the PFC TLV header is byte 32
    const hex = '0180c200000e02000000000188cc' + '020704020000000001' + '0403056530' + '06020078' + 'fe050080c20b08' + '0000';
    const r = runCli(['dcbx', 'decode', '--hex', hex]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe('--hex: byte 32: 802.1 subtype 11 TLV has length 5, must be 6');
  });

  it('a truncated pcap names the frame and the byte', () => {
    const file = tmpFile('cut.pcap');
    expect(runCli(['frames', 'pfc', '--pause', '3:1', '--pcap', file]).status).toBe(0);
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 10));
    const r = runCli(['dcbx', 'decode', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^pcap: byte \d+: packet data of record at 24/);
  });
});

describe('dcbx decode on real captures', () => {
  // an LLDPDU, an IPv6 neighbour solicitation (as a veth sends when it comes up), a PFC frame
  const ns = '333300000016960391d6e79f86dd600000000024000100000000000000000000000000000000ff0200000000000000000000000000163a000502000001008f0087140000000104000000ff0200000000000000000001ffd6e79f';
  const mixed = () => {
    const lldp = runCli(['dcbx', 'encode', 'examples/configs/converged.yaml', '--hex']).stdout.trim();
    const pfc = runCli(['frames', 'pfc', '--pause', '3:65535', '--hex']).stdout.trim();
    const file = tmpFile('mixed.pcap');
    writeFileSync(file, writePcap([lldp, ns, pfc].map((h, i) => ({ t_ps: BigInt(i + 1) * 1000n, data: parseHex(h, 'test') }))));
    return file;
  };

  it('frames that are neither LLDP nor DCB control frames are skipped and counted, not an error', () => {
    const file = mixed();
    const r = runCli(['dcbx', 'decode', file, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.frame ?? l)).toEqual([0, 2, { skipped: 1 }]); // capture numbering kept
    expect(lines.map((l) => l.kind)).toEqual(['lldp', 'pfc', undefined]);
    const human = runCli(['dcbx', 'decode', file]);
    expect(human.stdout.trim().split('\n').at(-1)).toBe('skipped: 1 frame(s) that are not LLDP or DCB control frames');
    // nothing skipped: no closing line
    expect(runCli(['dcbx', 'decode', '--hex', ns]).stdout).toBe('');
  });

  it("'-' reads the capture from stdin: the same lines as the file", () => {
    const file = mixed();
    const fromFile = runCli(['dcbx', 'decode', file, '--json']);
    const fromStdin = runCli(['dcbx', 'decode', '-', '--json'], { input: readFileSync(file) as unknown as string });
    expect(fromStdin.status, fromStdin.stderr).toBe(0);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
  });

  it("'-' prints each LLDPDU as its record arrives, before the stream ends; a stream cut inside a record exits 2 after what it printed", async () => {
    const bytes = readFileSync(mixed());
    const firstRecordEnd = 24 + 16 + bytes.readUInt32LE(24 + 8);
    const child = spawn(process.execPath, [join(packageRoot(), 'dist', 'host', 'cli', 'main.js'), 'dcbx', 'decode', '-', '--json'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    const exited = new Promise<number>((done) => child.on('exit', (code) => done(code ?? -1)));
    child.stdin.write(bytes.subarray(0, firstRecordEnd));
    for (let i = 0; i < 200 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(JSON.parse(out.split('\n')[0])).toMatchObject({ frame: 0, kind: 'lldp' }); // printed while stdin is still open
    child.stdin.end(bytes.subarray(firstRecordEnd, bytes.length - 3));
    expect(await exited).toBe(2);
    expect(err.trim()).toMatch(/^stdin: byte \d+: the capture ends inside a pcap record/);
    // the PFC record was cut: frame 0, then (--json) the problem document
    expect(out.trim().split('\n').map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ frame: 0 }), { problems: [{ path: 'stdin', rule: expect.stringMatching(/ends inside a pcap record/) }] }]);
  });
});

describe('dcbx negotiate', () => {
  it('the DCBX white paper over the CLI: {"a": {"operational": {ets, pfc, app}}, "b": ...}, transitions and LLDPDUs', () => {
    const r = runCli(['dcbx', 'negotiate', yaml(SEED001_A), yaml(SEED001_B), '--json']);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.mode).toBe('ieee');
    expect(doc.a.operational.pfc.enable).toEqual([6, 7]);
    expect(doc.a.operational.ets).toEqual({ prio_tc: [0, 0, 0, 0, 0, 0, 1, 1], tsa: ['ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [60, 40, 0, 0, 0, 0, 0, 0] });
    expect(doc.a.operational.app).toEqual([{ selector: 'ethertype', protocol: 0x8906, priority: 3 }]);
    expect(doc.b.operational.pfc.enable).toEqual([6, 7]);
    expect(doc.transitions.find((e: { event: string; agent: string }) => e.event === 'detect' && e.agent === 'a')).toMatchObject({ agent: 'a', feature: 'pfc', local: [3, 4], peer: [6, 7] });
    expect(doc.lldpdus.length).toBe(12); // 60 s: 0, 1 us, 1 s, 2 s, 3 s, 33 s per side
    expect(doc.lldpdus[0]).toMatchObject({ t_ps: 0, from: 'a', to: 'b', delivered: true });
  });

  it('human output names the mismatch when neither side is willing', () => {
    const r = runCli(['dcbx', 'negotiate', 'examples/configs/converged.yaml', 'examples/configs/roce.yaml']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('a: ETS prio_tc=0,1,2,0,0,0,1,2');
    expect(r.stdout).toMatch(/MISMATCH pfc: local \[1,6\] vs peer \[3\]/);
  });

  it('the same MAC at both ends exits 2', () => {
    const r = runCli(['dcbx', 'negotiate', 'examples/configs/converged.yaml', 'examples/configs/converged.yaml']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^port\.mac: a and b share MAC 02:00:00:00:00:04/);
  });

  it('a broken second config exits 2 naming it', () => {
    const r = runCli(['dcbx', 'negotiate', 'examples/configs/converged.yaml', 'examples/configs/invalid/bw-sum.yaml']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^b: /m);
  });
});
