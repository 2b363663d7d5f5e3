// linux/classify.sh on a real kernel: run in a private network namespace against a veth pair (the
// config names the veth, and the name holds shell metacharacters on purpose), then the kernel's own
// view is read back with `tc -j` and compared with the APP table.
//
// A kernel without cls_flower / act_skbedit (CONFIG_NET_CLS_FLOWER, CONFIG_NET_ACT_SKBEDIT; the
// build machine's has neither) cannot hold the filters. Then the test checks what that kernel can:
// the clsact qdisc is installed, and tc's parser accepts every filter line (the kernel refuses only
// the missing classifier or action, as tc.ts does for sch_ets); without 8021q, ip's parser must
// accept the egress-qos-map (the kernel refuses it on a veth). Set DCBKIT_REQUIRE_TC_FLOWER=1 (CI
// does) to make a missing module a failure instead.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildIr } from '../../codegen/ir.js';
import { defaultDevice } from '../../codegen/device.js';
import { linuxTarget } from '../../codegen/linux.js';
import { parseConfig } from '../../host/config/index.js';
import { requireTool } from '../helpers.js';
import { losslessInput, testHeadroom } from './fixtures.js';
import { addNetns, withTempFile } from './tc.js';

const NS = `dcbkit-test-${process.pid}`;
const DEV = "dk;v'$0";
const run = (cmd: string[]) => spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8' });

/** The APP table under test: one entry of every selector, ports that overlap across selectors. */
const APP = [
  { selector: 'stream', protocol: 3260, priority: 4 },
  { selector: 'dgram', protocol: 4791, priority: 3 },
  { selector: 'any', protocol: 3260, priority: 5 },
  { selector: 'ethertype', protocol: 0x8906, priority: 3 },
  { selector: 'dscp', protocol: 26, priority: 3 },
];

/** What the kernel should hold, in match order, derived from APP by 802.1Qaz's selector meanings. */
const EXPECTED = [
  ...['ip', 'ipv6'].flatMap((l3) => ['tcp', 'sctp'].map((l4) => ({ protocol: l3, ip_proto: l4, dst_port: 3260, priority: 4 }))),
  ...['ip', 'ipv6'].map((l3) => ({ protocol: l3, ip_proto: 'udp', dst_port: 4791, priority: 3 })),
  ...['ip', 'ipv6'].flatMap((l3) => ['tcp', 'udp', 'sctp'].map((l4) => ({ protocol: l3, ip_proto: l4, dst_port: 3260, priority: 5 }))),
  ...['ip', 'ipv6'].map((l3) => ({ protocol: l3, ip_tos: 26 << 2, priority: 3 })),
  { protocol: '0x8906', priority: 3 },
];

const KERNEL_LACKS = /^Error: (TC classifier not found|Failed to load TC action module|Unknown filter)\.?$/;

const cfg = parseConfig({ ...losslessInput(), port: { ...losslessInput().port, name: DEV }, app: APP }).config;
const script = linuxTarget.emit(buildIr(cfg, defaultDevice, { headroom: testHeadroom })).files['classify.sh'] as string;

/** skbedit prints its priority as a tc class id (tc_util.c print_tc_classid): "none", ":4", "1:4". */
function classidPriority(s: string): number {
  if (s === 'none') return 0;
  const [maj, min] = s.split(':');
  return (parseInt(maj || '0', 16) << 16) | parseInt(min || '0', 16);
}

function flowerFilters(dev: string) {
  const r = run(['tc', '-n', NS, '-j', 'filter', 'show', 'dev', dev, 'egress']);
  expect(r.status, r.stderr).toBe(0);
  const entries = JSON.parse(r.stdout) as { protocol: string; pref: number; kind: string; options?: { keys?: Record<string, unknown>; actions?: { kind: string; priority?: string }[] } }[];
  return entries
    .filter((e) => e.options)
    .sort((a, b) => a.pref - b.pref)
    .map((e) => {
      const keys = e.options!.keys ?? {};
      const edit = e.options!.actions!.find((a) => a.kind === 'skbedit')!;
      const out: Record<string, unknown> = { protocol: e.protocol, priority: classidPriority(edit.priority!) };
      if (keys.ip_proto !== undefined) out.ip_proto = keys.ip_proto;
      if (keys.dst_port !== undefined) out.dst_port = Number(keys.dst_port);
      if (keys.ip_tos !== undefined) out.ip_tos = Number(String(keys.ip_tos).split('/')[0]);
      return out;
    });
}

describe('linux/classify.sh in a network namespace', () => {
  let hasFlower = false;
  beforeAll(() => {
    requireTool('tc');
    requireTool('ip');
    addNetns(NS);
    expect(run(['ip', '-n', NS, 'link', 'add', DEV, 'type', 'veth', 'peer', 'name', 'peer0']).status).toBe(0);
    // Probe on the peer, so DEV starts clean.
    expect(run(['tc', '-n', NS, 'qdisc', 'add', 'dev', 'peer0', 'clsact']).status).toBe(0);
    const probe = run(['tc', '-n', NS, 'filter', 'add', 'dev', 'peer0', 'egress', 'protocol', 'ip', 'flower', 'action', 'skbedit', 'priority', '1']);
    hasFlower = probe.status === 0;
    if (!hasFlower && process.env.DCBKIT_REQUIRE_TC_FLOWER === '1') throw new Error(`this kernel lacks cls_flower or act_skbedit: ${probe.stderr.trim()}`);
  });
  afterAll(() => {
    run(['ip', 'netns', 'del', NS]);
  });

  test('the script runs in the namespace; the kernel holds clsact and, with flower, exactly the APP table', () => {
    withTempFile('classify.sh', script, (file) => {
      const r = run(['ip', 'netns', 'exec', NS, 'sh', file]);
      const qdiscs = JSON.parse(run(['tc', '-n', NS, '-j', 'qdisc', 'show', 'dev', DEV]).stdout) as { kind: string }[];
      expect(qdiscs.map((q) => q.kind)).toContain('clsact');
      if (hasFlower) {
        expect(r.status, r.stderr).toBe(0);
        expect(flowerFilters(DEV)).toEqual(EXPECTED);
        // A rerun replaces the filters in place instead of adding a second set.
        expect(run(['ip', 'netns', 'exec', NS, 'sh', file]).status).toBe(0);
        expect(flowerFilters(DEV)).toEqual(EXPECTED);
      } else {
        // set -e stops at the first filter, refused by the kernel only.
        expect(r.status).not.toBe(0);
        expect(r.stderr.split('\n')[0]).toMatch(KERNEL_LACKS);
      }
    });
  });

  test('tc parses every filter line, and each carries the APP entry of its pref', () => {
    const lines = script.split('\n').filter((l) => l.trim().startsWith('tc filter replace'));
    expect(lines).toHaveLength(EXPECTED.length);
    lines.forEach((line, i) => {
      const argv = line.trim().replace('"$1"', '\0').split(' ').map((w) => (w === '\0' ? DEV : w));
      const e = EXPECTED[i];
      expect(argv.slice(argv.indexOf('pref'), argv.indexOf('pref') + 2)).toEqual(['pref', String(i + 1)]);
      expect(argv[argv.indexOf('protocol') + 1]).toBe(e.protocol);
      expect(Number(argv[argv.indexOf('priority') + 1])).toBe(e.priority);
      if ('ip_proto' in e) expect([argv[argv.indexOf('ip_proto') + 1], Number(argv[argv.indexOf('dst_port') + 1])]).toEqual([e.ip_proto, e.dst_port]);
      if ('ip_tos' in e) expect(argv[argv.indexOf('ip_tos') + 1]).toBe(`0x${e.ip_tos.toString(16)}/0xfc`);
      const r = run(['tc', '-n', NS, ...argv.slice(1)]);
      if (hasFlower) expect(r.status, r.stderr).toBe(0);
      else expect([r.status, r.stderr.split('\n')[0]], line).toEqual([2, expect.stringMatching(KERNEL_LACKS)]);
    });
    // The parser really checks: a broken line is tc's own exit 1, before the kernel is asked.
    const broken = run(['tc', '-n', NS, 'filter', 'replace', 'dev', DEV, 'egress', 'pref', '1', 'protocol', 'ip', 'flower', 'ip_proto', 'tcp', 'dst_port', '70000', 'action', 'skbedit', 'priority', '4']);
    expect(broken.status).toBe(1);
  });

  test('VLAN sub-interfaces get the identity egress-qos-map (priority p -> PCP p)', () => {
    const line = script.split('\n').find((l) => l.trim().startsWith('ip link set'))!.trim();
    const map = line.slice(line.indexOf('egress-qos-map') + 'egress-qos-map '.length).split(' ');
    expect(map).toEqual(['0:0', '1:1', '2:2', '3:3', '4:4', '5:5', '6:6', '7:7']);
    const setOn = (dev: string, words: string[]) => run(['ip', '-n', NS, 'link', 'set', 'dev', dev, 'type', 'vlan', 'egress-qos-map', ...words]);
    // ip's parser accepts the map (a veth is no VLAN: the kernel alone refuses) and rejects a broken one.
    const onVeth = setOn('peer0', map);
    expect([onVeth.status, onVeth.stderr.trim()]).toEqual([2, 'RTNETLINK answers: Operation not supported']);
    expect(setOn('peer0', ['0:x']).status).toBe(255);
    // With 8021q in the kernel, a real VLAN device reads the map back.
    if (run(['ip', '-n', NS, 'link', 'add', 'link', 'peer0', 'name', 'peer0.10', 'type', 'vlan', 'id', '10']).status === 0) {
      expect(setOn('peer0.10', map).status).toBe(0);
      const [link] = JSON.parse(run(['ip', '-n', NS, '-d', '-j', 'link', 'show', 'dev', 'peer0.10']).stdout);
      const qos = (link.linkinfo.info_data.egress_qos as { from: number; to: number }[]).map((m) => `${m.from}:${m.to}`);
      // the kernel may keep 0 -> 0 implicitly (it is the default), so compare the non-zero entries
      expect(qos.filter((m) => !m.endsWith(':0'))).toEqual(map.filter((m) => m !== '0:0'));
    } else if (process.env.DCBKIT_REQUIRE_TC_FLOWER === '1') throw new Error('this kernel lacks 8021q (VLAN devices)');
  });
});
