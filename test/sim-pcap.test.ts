// Packet traces of a run (`run --pcap`, docs/capture.md), checked with tshark (Wireshark's own
// dissectors, independent of dcbkit's code) against the run's summary: the PFC frames and their
// per-priority pause times on the pfc-storm example, the go-back-N resends of a lossy RoCE incast in
// the BTH PSNs, the CNMs of a two-switch QCN fabric, nanosecond timestamps in order, identical files
// on 1 and 2 threads, and the refusals (budget, port selection) with exit 2 and nothing written.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPcapng } from '../host/capture/pcapng.js';
import { writePcap } from '../host/capture/pcap.js';
import { requireTool, runCli } from './helpers.js';
import { spawnSync } from 'node:child_process';
import { LUA, num, tsharkFields } from './frames/oracle.js';

const root = join(import.meta.dirname, '..');
const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-pcap-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Manifest { generator: string; snaplen: number; ports: { port: string; file: string; frames: number; bytes: number }[] }
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'capture.json'), 'utf8')) as Manifest;

/** Runs the CLI with --json and returns the summary (fails on a non-zero exit). */
function run(args: string[]): Record<string, any> {
  const r = runCli(['run', ...args, '--json']);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** A copy of an example's scenario with its text edited (shorter runs, other flow control). */
function variant(example: string, name: string, edit: (text: string) => string): string {
  const file = join(tmp, `${name}.yaml`);
  const text = readFileSync(join(root, 'examples', example, 'scenario.yaml'), 'utf8');
  const edited = edit(text);
  expect(edited).not.toBe(text);
  writeFileSync(file, edited);
  return file;
}

describe('run --pcap on examples/pfc-storm', () => {
  const dir = join(tmp, 'storm');
  let summary: Record<string, any>;
  let manifest: Manifest;
  let files: string[];
  beforeAll(() => {
    summary = run([join(root, 'examples', 'pfc-storm', 'scenario.yaml'), '--pcap', dir]);
    manifest = manifestOf(dir);
    files = manifest.ports.map((p) => join(dir, p.file));
  });

  it('writes one pcapng per port (six ports: every one by default) and a manifest', () => {
    expect(manifest.generator).toBe('dcbkit run --pcap');
    expect(manifest.ports.map((p) => p.port).sort()).toEqual(['h0>sw0', 'h1>sw0', 'h2>sw0', 'sw0>h0', 'sw0>h1', 'sw0>h2']);
    expect(readdirSync(dir).sort()).toEqual(['capture.json', ...manifest.ports.map((p) => p.file)].sort());
    // Every frame of the run left some port: the files hold as many frames as the run made packet hops.
    expect(manifest.ports.reduce((n, p) => n + p.frames, 0)).toBe(summary.sim.packet_hops);
  });

  it('capturing changes nothing the run reports', () => {
    const plain = run([join(root, 'examples', 'pfc-storm', 'scenario.yaml')]);
    const same = (x: Record<string, any>) => JSON.stringify({ ...x, sim: { ...x.sim, wall_s: 0, packet_hops_per_s: 0 } });
    expect(same(summary)).toBe(same(plain));
  });

  it("tshark's PFC frames, their count and per-priority pause times equal the summary's", () => {
    const prio = [0, 1, 2, 3, 4, 5, 6, 7];
    const rows = files.flatMap((f) => tsharkFields(f, ['macc.opcode', 'macc.cbfc.enbv', ...prio.map((n) => `macc.cbfc.pause_time.c${n}`), 'eth.fcs.status', '_ws.malformed'], ['-Y', 'macc', '-o', 'eth.check_fcs:TRUE']));
    expect(rows.every((r) => num(r['macc.opcode']) === 0x0101 && num(r['macc.cbfc.enbv']) === 1 << 3)).toBe(true);
    expect(rows.every((r) => r['eth.fcs.status'] === '1' && r['_ws.malformed'] === '')).toBe(true); // 1: good
    const xoff = rows.filter((r) => num(r['macc.cbfc.pause_time.c3']) > 0);
    const xon = rows.filter((r) => num(r['macc.cbfc.pause_time.c3']) === 0);
    expect(xoff.length).toBe(summary.pfc.xoff_sent);
    expect(xon.length).toBe(summary.pfc.xon_sent);
    expect(rows.length).toBe(summary.pfc.pause_frames);
    // The scenario's pause_time on the paused priority; every other priority's time is 0.
    expect(xoff.every((r) => num(r['macc.cbfc.pause_time.c3']) === 65535)).toBe(true);
    expect(rows.every((r) => prio.filter((n) => n !== 3).every((n) => num(r[`macc.cbfc.pause_time.c${n}`]) === 0))).toBe(true);
    expect(xoff.length).toBeGreaterThan(3);
  });

  it('timestamps are nanoseconds (if_tsresol 9) and in order in every file', () => {
    let finerThanUs = 0;
    for (const f of files) {
      const times = tsharkFields(f, ['frame.time_epoch']).map((r) => r['frame.time_epoch']);
      const mine = readPcapng(readFileSync(f)).records.map((r) => r.t_ps!);
      expect(times.length).toBe(mine.length);
      times.forEach((t, i) => {
        const [s, frac] = t.split('.');
        expect(frac).toHaveLength(9);
        const ns = BigInt(s) * 1_000_000_000n + BigInt(frac);
        expect(ns * 1000n).toBe(mine[i]);
        if (ns % 1000n !== 0n) finerThanUs++;
        if (i > 0) expect(mine[i] >= mine[i - 1]).toBe(true);
      });
    }
    expect(finerThanUs).toBeGreaterThan(0);
  });

  it('data frames are cut at the snap length with their real length kept; control frames are whole with FCS', () => {
    const rows = tsharkFields(join(dir, manifest.ports.find((p) => p.port === 'h0>sw0')!.file), ['frame.len', 'frame.cap_len', 'vlan.priority', 'ip.proto', 'udp.dstport']);
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.every((r) => r['frame.len'] === '1518' && r['frame.cap_len'] === '128' && r['ip.proto'] === '17' && r['udp.dstport'] === '9')).toBe(true);
    expect(new Set(rows.map((r) => r['vlan.priority']))).toEqual(new Set(['0', '3']));
  });
});

describe('run --pcap on a lossy RoCE incast (examples/lossy-vs-lossless, priority 3 lossy, 1 ms)', () => {
  const dir = join(tmp, 'roce');
  let summary: Record<string, any>;
  beforeAll(() => {
    const scn = variant('lossy-vs-lossless', 'lossy-roce', (t) => t.replace('duration: 20ms', 'duration: 1ms').replace('flow_control: [lossy, lossy, lossy, pfc,', 'flow_control: [lossy, lossy, lossy, lossy,'));
    // A snap length above the frame size keeps whole data frames, so their ICRC and FCS can be checked.
    summary = run([scn, '--pcap', dir, '--pcap-ports', 'h1>sw0,h0>sw0', '--pcap-snaplen', '1600']);
  });
  const fileOf = (port: string) => join(dir, manifestOf(dir).ports.find((p) => p.port === port)!.file);
  const ib = ['-d', 'udp.port==4791,infiniband'];

  it("the PSNs show go-back-N: PSNs sent again after higher ones, as many bytes as the summary's retransmitted_bytes", () => {
    const rows = tsharkFields(fileOf('h1>sw0'), ['udp.dstport', 'infiniband.bth.opcode', 'infiniband.bth.psn', 'frame.len', 'vlan.priority'], ib);
    expect(rows.every((r) => r['udp.dstport'] === '4791' && r['vlan.priority'] === '3')).toBe(true);
    let highest = -1;
    let resentFrames = 0;
    let resentBytes = 0;
    for (const r of rows) {
      const psn = num(r['infiniband.bth.psn']);
      if (psn <= highest) { resentFrames++; resentBytes += num(r['frame.len']); }
      highest = Math.max(highest, psn);
    }
    const flow = summary.flows.find((f: { src: string }) => f.src === 'h1');
    expect(flow.nacks).toBeGreaterThan(0);
    expect(resentFrames).toBeGreaterThan(0);
    expect(resentBytes).toBe(flow.retransmitted_bytes);
    // The message starts with SEND First (opcode 0) at PSN 0.
    expect([num(rows[0]['infiniband.bth.opcode']), num(rows[0]['infiniband.bth.psn'])]).toEqual([0, 0]);
  });

  it('RoCE frames kept whole carry the ICRC scapy computes (RoCEv2 Annex A17; a sample with every NAK) and a good FCS (tshark, all)', () => {
    requireTool('/usr/bin/python3');
    // scapy (Debian python3-scapy) rebuilds each frame without its ICRC and computes it afresh.
    const script = [
      'import sys',
      'from scapy.all import rdpcap, raw, Ether',
      'from scapy.contrib.roce import BTH',
      'n = bad = 0',
      'for p in rdpcap(sys.argv[1]):',
      '    e = Ether(bytes(p)[:-4])',
      '    got = e[BTH].icrc',
      '    e[BTH].icrc = None',
      '    n += 1',
      '    bad += Ether(raw(e))[BTH].icrc != got',
      'print(n, bad)',
    ].join('\n');
    const files = [fileOf('h1>sw0'), fileOf('h0>sw0')];
    // scapy is slow: the first 150 frames of each file (SEND First and Middle, ACKs) and every NAK
    // (AETH syndrome 0x60 at byte 58) and SEND Last (BTH opcode 2 at byte 46), in one classic pcap.
    const picked = files.flatMap((f) => readPcapng(readFileSync(f)).records.filter((x, i) => i < 150 || x.data[58] === 0x60 || x.data[46] === 2));
    expect(picked.some((x) => x.data[58] === 0x60) && picked.some((x) => x.data[46] === 2)).toBe(true);
    const sample = join(tmp, 'roce-sample.pcap');
    writeFileSync(sample, writePcap(picked.map((x) => ({ t_ps: x.t_ps!, data: x.data }))));
    const r = spawnSync('/usr/bin/python3', ['-c', script, sample], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [n, bad] = r.stdout.trim().split(' ').map(Number);
    expect(n).toBe(picked.length);
    expect(bad).toBe(0);
    const fcs = files.flatMap((f) => tsharkFields(f, ['eth.fcs.status'], ['-o', 'eth.check_fcs:TRUE']));
    expect(fcs.every((x) => x['eth.fcs.status'] === '1')).toBe(true);
  });

  it("the receiver's NACKs (AETH NAK, PSN sequence error) number the summary's and name PSNs the sender sends again", () => {
    const rows = tsharkFields(fileOf('h0>sw0'), ['infiniband.bth.opcode', 'infiniband.bth.destqp', 'infiniband.aeth.syndrome', 'infiniband.bth.psn'], ib);
    expect(rows.every((r) => num(r['infiniband.bth.opcode']) === 0x11)).toBe(true);
    const naks = rows.filter((r) => num(r['infiniband.aeth.syndrome']) === 0x60);
    const nacksSent = summary.flows.reduce((n: number, f: { nacks: number }) => n + f.nacks, 0);
    expect(naks.length).toBe(nacksSent);
    expect(rows.filter((r) => num(r['infiniband.aeth.syndrome']) === 0x1f).length).toBe(rows.length - naks.length);
    // Flow 0 (h1 -> h0) is queue pair 1: each PSN its NAKs ask for appears at least twice in h1's trace.
    const sent = tsharkFields(fileOf('h1>sw0'), ['infiniband.bth.psn'], ib).map((r) => num(r['infiniband.bth.psn']));
    const naked = naks.filter((r) => num(r['infiniband.bth.destqp']) === 1).map((r) => num(r['infiniband.bth.psn']));
    expect(naked.length).toBeGreaterThan(0);
    for (const psn of naked) expect(sent.filter((x) => x === psn).length, `PSN ${psn}`).toBeGreaterThanOrEqual(2);
  });
});

describe('run --pcap on two switches (examples/congestion-tree, 3 ms)', () => {
  const one = join(tmp, 'tree1');
  const two = join(tmp, 'tree2');
  let s1: Record<string, any>;
  let s2: Record<string, any>;
  beforeAll(() => {
    const scn = variant('congestion-tree', 'tree', (t) => t.replace('duration: 30ms', 'duration: 3ms'));
    s1 = run([scn, '--pcap', one, '--threads', '1']);
    s2 = run([scn, '--pcap', two, '--threads', '2']);
  });

  it('gives byte-identical files on 1 and 2 threads', () => {
    expect(s1.sim.threads).toBe(1);
    expect(s2.sim.threads).toBe(2);
    const names = readdirSync(one).sort();
    expect(readdirSync(two).sort()).toEqual(names);
    expect(names.length).toBe(17);
    for (const n of names) expect(readFileSync(join(two, n)).equals(readFileSync(join(one, n))), n).toBe(true);
  });

  it("holds every CNM: those reaching the hosts number the summary's", () => {
    const m = manifestOf(one);
    const toHosts = m.ports.filter((p) => /^sw\d>h/.test(p.port));
    const qf = toHosts.flatMap((p) => tsharkFields(join(one, p.file), ['dcbkit_cnm.qf'], ['-X', `lua_script:${LUA}`, '-Y', 'dcbkit_cnm']).map((r) => num(r['dcbkit_cnm.qf'])));
    expect(qf.length).toBe(s1.qcn.cnms);
    expect(qf.every((q) => q >= 1 && q <= 63)).toBe(true);
  });
});

describe('run --pcap: the other frame kinds (2 ms and 1 ms variants of the examples)', () => {
  it("PAUSE frames (examples/pause-vs-pfc/pause.yaml) decode in tshark and number the summary's pause frames", () => {
    const scn = join(tmp, 'pause.yaml');
    writeFileSync(scn, readFileSync(join(root, 'examples', 'pause-vs-pfc', 'pause.yaml'), 'utf8').replace(/^duration: .*$/m, 'duration: 2ms'));
    const dir = join(tmp, 'pause');
    const summary = run([scn, '--pcap', dir]);
    const rows = manifestOf(dir).ports.flatMap((p) => tsharkFields(join(dir, p.file), ['macc.opcode', 'macc.pause_time'], ['-Y', 'macc']));
    expect(rows.length).toBe(summary.pfc.pause_frames);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => num(r['macc.opcode']) === 1)).toBe(true);
    expect(rows.filter((r) => num(r['macc.pause_time']) > 0).length).toBe(summary.pfc.xoff_sent);
  });

  it('credit grants (examples/buffer-sizing with credit on priority 3) decode as grants of priority 3', () => {
    const scn = variant('buffer-sizing', 'credit', (t) => t.replace(/^duration: .*$/m, 'duration: 2ms').replace(/^flow_control: \[lossy, lossy, lossy, pfc,/m, 'flow_control: [lossy, lossy, lossy, credit,'));
    const dir = join(tmp, 'credit');
    const summary = run([scn, '--pcap', dir]);
    const grants = manifestOf(dir).ports.flatMap((p) => tsharkFields(join(dir, p.file), ['dcbkit_ce.opcode', 'dcbkit_ce.enbv'], ['-X', `lua_script:${LUA}`, '-Y', 'dcbkit_ce']));
    // Grants still queued behind a frame when the run ends were generated but never left a port.
    expect(grants.length).toBeGreaterThan(0.99 * summary.credit.grants);
    expect(grants.length).toBeLessThanOrEqual(summary.credit.grants);
    expect(grants.every((g) => num(g['dcbkit_ce.opcode']) === 0x0111 && num(g['dcbkit_ce.enbv']) === 1 << 3)).toBe(true);
  });

  it("DCQCN CNPs (lossy-vs-lossless with qcn on): the receiver h0 sends the summary's count; marked frames reach it with CE", () => {
    const scn = variant('lossy-vs-lossless', 'dcqcn', (t) => t.replace('duration: 20ms', 'duration: 1ms').replace('qcn: {enable: false', 'qcn: {enable: true'));
    const dir = join(tmp, 'dcqcn');
    const summary = run([scn, '--pcap', dir, '--pcap-ports', 'h0>sw0,sw0>h0']);
    const rows = (port: string) => tsharkFields(join(dir, manifestOf(dir).ports.find((p) => p.port === port)!.file), ['infiniband.bth.opcode', 'ip.dsfield.ecn'], ['-d', 'udp.port==4791,infiniband', '-Y', 'infiniband']);
    expect(summary.qcn.cnms).toBeGreaterThan(0);
    expect(rows('h0>sw0').filter((r) => num(r['infiniband.bth.opcode']) === 0x81).length).toBe(summary.qcn.cnms);
    // Data frames marked by the switch carry CE (3), the others ECT(0) (2).
    const data = rows('sw0>h0').filter((r) => num(r['infiniband.bth.opcode']) <= 4);
    expect(data.some((r) => r['ip.dsfield.ecn'] === '3')).toBe(true);
    expect(data.every((r) => r['ip.dsfield.ecn'] === '2' || r['ip.dsfield.ecn'] === '3')).toBe(true);
  });
});

describe('run --pcap refusals: exit 2, nothing written', () => {
  const storm = join(root, 'examples', 'pfc-storm', 'scenario.yaml');

  it('refuses a capture whose bound exceeds the memory budget', () => {
    const dir = join(tmp, 'over');
    const r = runCli(['run', storm, '--pcap', dir, '--max-memory', '140MB']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--pcap: 6 port\(s\) over 14 ms can make up to .* of capture .* --max-memory/);
    expect(existsSync(dir)).toBe(false);
    // One port fits the same budget.
    expect(runCli(['run', storm, '--pcap', dir, '--pcap-ports', 'sw0>h0', '--max-memory', '140MB']).status).toBe(0);
    expect(manifestOf(dir).ports.map((p) => p.port)).toEqual(['sw0>h0']);
  });

  it('refuses every port of a big fabric by default, unknown ports, a bad snap length, and --pcap-ports without --pcap', () => {
    const clos = join(tmp, 'clos.yaml');
    const g = runCli(['gen', 'clos', '--k', '4', '--flows', '4', '--duration', '10us']);
    expect(g.status, g.stderr).toBe(0);
    writeFileSync(clos, g.stdout);
    const dir = join(tmp, 'refused');
    const cases: [string[], RegExp][] = [
      [[clos, '--pcap', dir], /--pcap-ports: the fabric has \d+ ports, more than the 32/],
      [[storm, '--pcap', dir, '--pcap-ports', 'sw0>h9'], /--pcap-ports: unknown port "sw0>h9"/],
      [[storm, '--pcap', dir, '--pcap-snaplen', '20'], /--pcap-snaplen: a whole number of bytes from 64 to 65535/],
      [[storm, '--pcap-ports', 'sw0>h1'], /--pcap-ports: needs --pcap DIR/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(['run', ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(existsSync(dir)).toBe(false);
    }
  });
});

describe('run --pcap inside --out', () => {
  it('writes the traces with the report, and the snap length is the one asked for', () => {
    const out = join(tmp, 'report');
    const r = runCli(['run', join(root, 'examples', 'pfc-storm', 'scenario.yaml'), '--out', out, '--pcap', join(out, 'pcap'), '--pcap-ports', 'h0>sw0', '--pcap-snaplen', '200']);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    const m = manifestOf(join(out, 'pcap'));
    expect(m.snaplen).toBe(200);
    const rows = tsharkFields(join(out, 'pcap', m.ports[0].file), ['frame.cap_len']);
    expect(rows.length).toBe(m.ports[0].frames);
    expect(rows.every((x) => x['frame.cap_len'] === '200')).toBe(true);
  });
});
