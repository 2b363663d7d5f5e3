// dcbkit against a live lldpad (Debian's open-lldp 1.1): lldpad runs on veth end `a`, made a DCB
// NIC by the netlink stand-in (test/dcbnl-standin/), in its own network namespace with a private
// /dev/shm; dcbkit's DCBX agent runs as a live peer on end `b` (live-peer.ts). lldpad is configured
// by the lldptool.sh / dcbtool.sh that `dcbkit codegen` writes for its config, and every outcome is
// held to what `dcbkit dcbx negotiate` says for the same two configs:
//   - what lldpad programs into the device = negotiate's operational result for lldpad's config;
//   - dcbkit's operational result = negotiate's for dcbkit's config;
//   - lldpad's LLDPDUs, decoded by dcbkit, carry the DCBX TLVs negotiate's model of lldpad sends;
//   - dcbkit's LLDPDUs, read back with `lldptool -n -t`, are what dcbkit encoded.
// CEE runs on lldpad with open-lldp's 03cb011 fix applied (standin.ts ceeCapableLldpad: Debian's
// build wipes its CEE port record on the first CEE transmit); one test pins that stock behaviour.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildIr } from '../../codegen/ir.js';
import { defaultDevice } from '../../codegen/device.js';
import { linuxTarget } from '../../codegen/linux.js';
import type { Operational } from '../../host/dcbx/advertise.js';
import type { CeeTlv } from '../../host/dcbx/cee.js';
import { selectorCode, tsaCode, type AppEntry, type Tsa } from '../../host/dcbx/ieee.js';
import { decodeLldpdu, type LldpTlv, type Lldpdu } from '../../host/dcbx/lldpdu.js';
import { resolveIeee } from '../../host/dcbx/negotiate-ieee.js';
import { parseHex } from '../../host/frames/bytes.js';
import { parseConfig, type DcbConfig } from '../../host/config/index.js';
import { requireTool, runCliAsync } from '../helpers.js';
import { packageRoot } from '../../host/core/loader.js';
import { testHeadroom } from '../codegen/fixtures.js';
import { ceeCapableLldpad, StandinNetns, type Lldpad, type StandinDevice } from '../dcbnl-standin/standin.js';
import { LivePeer } from './live-peer.js';
import { checkCee, checkIeee, sections } from './lldptool-text.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-interop-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const LLDPAD_LOW = '02:00:00:00:00:10';
const LLDPAD_HIGH = '02:00:00:00:00:90';
const DCBKIT_MAC = '02:00:00:00:00:50';

type Raw = Record<string, unknown>;
const FCOE = { selector: 'ethertype', protocol: 0x8906, priority: 3 };
const ISCSI = { selector: 'stream', protocol: 3260, priority: 4 };
const ROCE = { selector: 'dgram', protocol: 4791, priority: 5 };

/** lldpad's side: a DCB config whose port is the veth end `a`. */
function lldpadConfig(o: { mac: string; willing: boolean; pfc: number[]; rec?: boolean; app?: Raw[] }): Raw {
  return {
    port: { name: 'a', speed: '10G', mtu: 2500, cable: '5m', mac: o.mac },
    ets: {
      willing: o.willing,
      prio_tc: [0, 0, 1, 1, 2, 2, 0, 0], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [50, 30, 20, 0, 0, 0, 0, 0],
      ...(o.rec ? { recommendation: { prio_tc: [0, 0, 0, 1, 2, 2, 2, 2], tsa: ['ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [70, 30, 0, 0, 0, 0, 0, 0] } } : {}),
    },
    pfc: { enable: o.pfc, willing: o.willing },
    app: o.app ?? [FCOE],
  };
}

/** dcbkit's side: the peer on `b`. */
function dcbkitConfig(o: { willing: boolean; pfc: number[]; rec?: boolean; mbc?: boolean; app?: Raw[] }): Raw {
  return {
    port: { name: 'p0', speed: '10G', mtu: 2500, cable: '5m', mac: DCBKIT_MAC },
    ets: {
      willing: o.willing,
      prio_tc: [0, 1, 1, 2, 2, 3, 3, 3], tsa: ['ets', 'ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict'], bw: [10, 20, 30, 40, 0, 0, 0, 0],
      ...(o.rec ? { recommendation: { prio_tc: [1, 1, 0, 0, 2, 2, 3, 3], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 40, 20, 0, 0, 0, 0, 0] } } : {}),
    },
    pfc: { enable: o.pfc, willing: o.willing, mbc: o.mbc ?? false },
    app: o.app ?? [ROCE],
  };
}

const parsed = (raw: Raw): DcbConfig => parseConfig(raw).config;
const linuxFiles = (raw: Raw) => linuxTarget.emit(buildIr(parsed(raw), defaultDevice, { headroom: testHeadroom })).files as Record<string, string>;

interface Negotiated {
  a: { operational: Operational & { pg?: { prio_pgid: number[]; pg_bw: number[] } } };
  b: { operational: Operational & { pg?: { prio_pgid: number[]; pg_bw: number[] } } };
  lldpdus: { from: string; hex: string }[];
}
let files = 0;
/** `dcbkit dcbx negotiate A B --json`: A is lldpad's config, B dcbkit's. */
async function negotiate(a: Raw, b: Raw, mode: 'ieee' | 'cee'): Promise<Negotiated> {
  const fa = join(tmp, `a${++files}.yaml`);
  const fb = join(tmp, `b${files}.yaml`);
  writeFileSync(fa, YAML.stringify(a));
  writeFileSync(fb, YAML.stringify(b));
  const r = await runCliAsync(['dcbx', 'negotiate', fa, fb, '--mode', mode, '--json']);
  if (r.status !== 0) throw new Error(`dcbx negotiate: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Runs a script generated by codegen in the namespace (its commands against lldpad / the stand-in). */
function runScript(net: StandinNetns, name: string, text: string, lldpad?: Lldpad): void {
  const file = join(net.dir, name);
  writeFileSync(file, text, { mode: 0o755 });
  // dcbtool and lldptool give up on lldpad's reply after a few seconds ("command timed out"), which
  // a loaded machine can exceed; the scripts are idempotent, so such a run is repeated (three times at most)
  let r = net.run('sh', ['-e', file]);
  for (let i = 0; i < 3 && r.status !== 0 && /timed out/.test(r.stdout + r.stderr); i++) r = net.run('sh', ['-e', file]);
  if (r.status !== 0) throw new Error(`${name} failed (${r.status}):\n${text}\n${r.stdout}${r.stderr}\nlldpad's log ends:\n${lldpad?.log().split('\n').slice(-40).join('\n') ?? ''}`);
}

const bitmap = (prios: number[]) => prios.reduce((m, p) => m | (1 << p), 0);
const appKey = (e: { selector: number | string; protocol: number; priority: number }) =>
  `${typeof e.selector === 'number' ? e.selector : selectorCode(e.selector as AppEntry['selector'])}/${e.protocol}/${e.priority}`;

/** What an IEEE operational result looks like in the device a host-managed driver programs. */
function ieeeDeviceView(op: Operational) {
  return {
    prio_tc: op.ets.prio_tc,
    tc_tx_bw: op.ets.bw,
    tc_tsa: op.ets.tsa.map((t) => tsaCode(t as Tsa)),
    pfc_en: bitmap(op.pfc.enable),
    mbc: op.pfc.mbc ? 1 : 0,
    app: op.app.map(appKey).sort(),
  };
}
function deviceIeee(d: StandinDevice) {
  return {
    prio_tc: d.ets.prio_tc, tc_tx_bw: d.ets.tc_tx_bw, tc_tsa: d.ets.tc_tsa, pfc_en: d.pfc.pfc_en, mbc: d.pfc.mbc,
    app: d.app.filter((e) => e.selector >= 1).map(appKey).sort(),
  };
}
const agentView = (p: LivePeer) => ieeeDeviceView(p.agent.report().operational);

/** The DCBX TLVs of an LLDPDU, APP entries as a sorted set (lldpad lists its table newest first). */
function dcbxTlvs(pdu: Lldpdu): unknown[] {
  return pdu.tlvs.filter((t) => t.type !== 'raw').map((t) => (t.type === 'app' ? { type: 'app', app: t.app.map(appKey).sort() } : t));
}
const lastFrom = (n: Negotiated, who: string) => decodeLldpdu(parseHex(n.lldpdus.filter((p) => p.from === who).at(-1)!.hex, 'negotiate'));

interface Live {
  net: StandinNetns;
  lldpad: Lldpad;
  peer: LivePeer;
}
/** A namespace, lldpad on `a` (MAC from its config) configured by its generated script, dcbkit on `b`. */
async function bringUp(lldpadRaw: Raw, dcbkitRaw: Raw, mode: 'ieee' | 'cee', tag: string): Promise<Live> {
  const net = StandinNetns.open({ tag });
  try {
    return await startBoth(net, lldpadRaw, dcbkitRaw, mode);
  } catch (e) {
    await net.close(); // a failed start leaves no namespace or lldpad behind
    throw e;
  }
}
async function startBoth(net: StandinNetns, lldpadRaw: Raw, dcbkitRaw: Raw, mode: 'ieee' | 'cee'): Promise<Live> {
  const mac = (lldpadRaw.port as { mac: string }).mac;
  const ip = net.run('ip', ['link', 'set', 'dev', 'a', 'address', mac], { standin: false });
  if (ip.status !== 0) throw new Error(ip.stderr);
  const lldpad = await net.startLldpad('a', mode === 'cee' ? { binary: ceeCapableLldpad() } : {});
  // lldpad answers lldptool before its DCB modules have finished bringing `a` up; dcbtool's
  // commands time out until they have
  if (mode === 'cee') await net.waitFor('lldpad to answer dcbtool', () => /Status:\s*Successful/.test(lldpad.dcbtool(['gc', 'a', 'dcb']).stdout), 20_000);
  runScript(net, mode === 'cee' ? 'dcbtool.sh' : 'lldptool.sh', linuxFiles(lldpadRaw)[mode === 'cee' ? 'dcbtool.sh' : 'lldptool.sh'], lldpad);
  const peer = new LivePeer(await net.openPort('b'), parsed(dcbkitRaw), mode);
  peer.start();
  return { net, lldpad, peer };
}
async function tearDown(live: Live | undefined): Promise<void> {
  if (!live) return;
  try {
    live.peer.stop();
  } finally {
    await live.net.close(); // idempotent: a second call finds nothing left to stop
  }
}

/** Waits until f() is true (state settling on both sides), then returns; the caller asserts. */
async function settle(live: Live, what: string, f: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end && !f()) {
    live.peer.check();
    await sleep(100);
  }
  live.peer.check();
  if (!f()) console.warn(`not settled within ${ms} ms: ${what}`);
}

/** Every check of one IEEE exchange against `dcbx negotiate`. */
async function checkIeeeExchange(live: Live, n: Negotiated): Promise<void> {
  const wantLldpad = ieeeDeviceView(n.a.operational);
  const wantDcbkit = ieeeDeviceView(n.b.operational);
  const lldpadTlvs = () => live.peer.heard.at(-1) && dcbxTlvs(live.peer.heard.at(-1)!.pdu);
  const wantTlvs = dcbxTlvs(lastFrom(n, 'a'));
  await settle(live, 'IEEE outcome', () =>
    JSON.stringify(deviceIeee(live.net.device('a'))) === JSON.stringify(wantLldpad) &&
    JSON.stringify(agentView(live.peer)) === JSON.stringify(wantDcbkit) &&
    JSON.stringify(lldpadTlvs()) === JSON.stringify(wantTlvs));
  expect(deviceIeee(live.net.device('a')), 'what lldpad programmed').toEqual(wantLldpad);
  expect(agentView(live.peer), "dcbkit's operational result").toEqual(wantDcbkit);
  expect(lldpadTlvs(), "lldpad's LLDPDU as dcbkit decodes it").toEqual(wantTlvs);
  // dcbkit's last LLDPDU: what negotiate's model of dcbkit sends, and as lldpad received it, printed by lldptool
  const mine = live.peer.said.at(-1)!.pdu;
  expect(dcbxTlvs(mine), "dcbkit's LLDPDU").toEqual(dcbxTlvs(lastFrom(n, 'b')));
  const shown = live.lldpad.lldptool(['-t', '-n', '-i', 'a']);
  expect(shown.status).toBe(0);
  checkIeee(sections(shown.stdout), mine.tlvs as LldpTlv[]);
  expect(live.peer.agent.report().peer?.mac).toBe((live.net.run('cat', ['/sys/class/net/a/address'], { standin: false }).stdout.trim()));
}

describe('IEEE DCBX: dcbkit and the live lldpad end where `dcbx negotiate` says', () => {
  let live: Live | undefined;
  // after every test, also one that failed half-way (its namespace and lldpad must not outlive it)
  afterEach(async () => {
    await tearDown(live);
    live = undefined;
  });

  it('lldpad willing, dcbkit not willing: lldpad runs dcbkit\'s ETS Recommendation and PFC; then dcbkit withdraws ETS-REC, then PFC', async () => {
    const l = lldpadConfig({ mac: LLDPAD_LOW, willing: true, pfc: [3], app: [FCOE] });
    const d = dcbkitConfig({ willing: false, pfc: [3, 5], rec: true, mbc: true, app: [ROCE] });
    const [n] = await Promise.all([negotiate(l, d, 'ieee'), (async () => (live = await bringUp(l, d, 'ieee', 'ieee1')))()]);
    expect(n.a.operational.pfc).toEqual({ enable: [3, 5], mbc: true }); // the model's own claim, for the reader
    await checkIeeeExchange(live!, n);
    // lldpad's PFC TLV keeps its own MBC (0) while it runs the peer's (1): the mended divergence
    const pfcTlv = live!.peer.heard.at(-1)!.pdu.tlvs.find((t) => t.type === 'pfc');
    expect(pfcTlv).toMatchObject({ mbc: false, enable: [3, 5], willing: true });

    // ETS-REC withdrawn: negotiate with dcbkit's config without a recommendation says "back to local"
    const noRec = dcbkitConfig({ willing: false, pfc: [3, 5], mbc: true, app: [ROCE] });
    const [n2] = await Promise.all([negotiate(l, noRec, 'ieee'), live!.peer.withhold(['ets_rec'])]);
    const wantEts = ieeeDeviceView(n2.a.operational);
    await settle(live!, 'ETS back to local', () => JSON.stringify(deviceIeee(live!.net.device('a')).tc_tx_bw) === JSON.stringify(wantEts.tc_tx_bw));
    expect(deviceIeee(live!.net.device('a'))).toMatchObject({ prio_tc: wantEts.prio_tc, tc_tx_bw: wantEts.tc_tx_bw, tc_tsa: wantEts.tc_tsa });

    // PFC withdrawn: dcbkit's rule (resolveIeee, what negotiate runs) goes back to the local PFC
    const peerNow = live!.peer.said.at(-1)!.pdu;
    await live!.peer.withhold(['pfc']);
    const want = resolveIeee(parsed(l), { ...peerNow, src: DCBKIT_MAC, tlvs: peerNow.tlvs.filter((t) => t.type !== 'pfc') }).operational.pfc;
    expect(want).toEqual({ enable: [3], mbc: false });
    await settle(live!, 'PFC back to local', () => live!.net.device('a').pfc.pfc_en === bitmap(want.enable), 6000);
    expect({ pfc_en: live!.net.device('a').pfc.pfc_en, mbc: live!.net.device('a').pfc.mbc }).toEqual({ pfc_en: bitmap(want.enable), mbc: 0 });
    await tearDown(live);
    live = undefined;
  }, 60_000);

  it('lldpad not willing (with ETS-REC), dcbkit willing: dcbkit adopts lldpad\'s Recommendation and PFC', async () => {
    const l = lldpadConfig({ mac: LLDPAD_LOW, willing: false, pfc: [4], rec: true, app: [FCOE, ISCSI] });
    const d = dcbkitConfig({ willing: true, pfc: [3, 5], app: [ROCE] });
    const [n] = await Promise.all([negotiate(l, d, 'ieee'), (async () => (live = await bringUp(l, d, 'ieee', 'ieee2')))()]);
    expect(n.b.operational.pfc.enable).toEqual([4]);
    await checkIeeeExchange(live!, n);
    await tearDown(live);
    live = undefined;
  }, 60_000);

  it("both willing, lldpad adopted dcbkit's PFC (lower MAC), then dcbkit withdraws its PFC TLV: lldpad keeps the stale PFC where dcbkit's rule goes back to local", async () => {
    const l = lldpadConfig({ mac: LLDPAD_LOW, willing: true, pfc: [2] });
    const d = dcbkitConfig({ willing: true, pfc: [6] });
    const [n] = await Promise.all([negotiate(l, d, 'ieee'), (async () => (live = await bringUp(l, d, 'ieee', 'ieee-stale')))()]);
    await checkIeeeExchange(live!, n);
    expect(live!.net.device('a').pfc.pfc_en).toBe(bitmap([6]));
    const peerNow = live!.peer.said.at(-1)!.pdu;
    await live!.peer.withhold(['pfc']);
    // dcbkit's rule: no PFC TLV from the peer, no remote values: the port runs its own [2]
    const want = resolveIeee(parsed(l), { ...peerNow, src: DCBKIT_MAC, tlvs: peerNow.tlvs.filter((t) => t.type !== 'pfc') });
    expect(want).toMatchObject({ state: { pfc: 'INIT' }, operational: { pfc: { enable: [2] } } });
    // lldpad (lldp_8021qaz.c pfc_sm): "local willing && remote willing && local MAC not greater"
    // selects RX_RECOMMEND without looking at remote_param, so the withdrawn TLV's last values stay
    await settle(live!, 'lldpad heard the LLDPDU without PFC', () => live!.peer.heard.at(-1)!.pdu.tlvs.some((t) => t.type === 'pfc') && live!.lldpad.lldptool(['-t', '-n', '-i', 'a', '-V', 'PFC']).stdout.trim() === '', 5000);
    expect(live!.lldpad.lldptool(['-t', '-n', '-i', 'a', '-V', 'PFC']).stdout.trim()).toBe(''); // lldpad has the LLDPDU without PFC
    await sleep(1500);
    expect(live!.net.device('a').pfc.pfc_en, 'lldpad still runs the withdrawn PFC').toBe(bitmap([6]));
    expect(live!.peer.heard.at(-1)!.pdu.tlvs.find((t) => t.type === 'pfc')).toMatchObject({ enable: [6] });
  }, 60_000);

  for (const [mac, adopter] of [[LLDPAD_LOW, 'lldpad'], [LLDPAD_HIGH, 'dcbkit']] as const) {
    it(`both willing, lldpad's MAC ${mac === LLDPAD_LOW ? 'lower' : 'higher'} than dcbkit's: ${adopter} adopts the other's PFC`, async () => {
      const l = lldpadConfig({ mac, willing: true, pfc: [2], rec: true });
      const d = dcbkitConfig({ willing: true, pfc: [6], rec: true });
      const [n] = await Promise.all([negotiate(l, d, 'ieee'), (async () => (live = await bringUp(l, d, 'ieee', `ieee-${adopter}`)))()]);
      const winner = adopter === 'lldpad' ? [6] : [2];
      expect([n.a.operational.pfc.enable, n.b.operational.pfc.enable]).toEqual([winner, winner]);
      await checkIeeeExchange(live!, n);
      await tearDown(live);
      live = undefined;
    }, 60_000);
  }
});

/** A CEE config: the CEE view is given as priority groups (PGID 15 = strict). */
function ceeConfig(side: 'lldpad' | 'dcbkit', o: { mac?: string; willing: boolean; pfc: number[]; fcoe: number }): Raw {
  const pg = side === 'lldpad'
    ? { prio_pgid: [1, 1, 0, 0, 1, 1, 1, 15], pg_bw: [50, 50, 0, 0, 0, 0, 0, 0] }
    : { prio_pgid: [0, 0, 1, 1, 2, 2, 2, 15], pg_bw: [30, 40, 30, 0, 0, 0, 0, 0] };
  return {
    port: side === 'lldpad' ? { name: 'a', speed: '10G', mtu: 2500, cable: '5m', mac: o.mac } : { name: 'p0', speed: '10G', mtu: 2500, cable: '5m', mac: DCBKIT_MAC },
    pg: { willing: o.willing, ...pg },
    pfc: { enable: o.pfc, willing: o.willing },
    app: [{ ...FCOE, priority: o.fcoe }],
  };
}

const ceeOf = (pdu: Lldpdu | undefined) => pdu?.tlvs.find((t): t is CeeTlv => t.type === 'cee');
/** A CEE TLV's features as negotiated (the control sub-TLV's numbers depend on timing). */
const ceeFeatures = (t: CeeTlv | undefined) => t && { pg: t.pg, pfc: t.pfc, app: t.app };

/** The CEE device view: per PGID group its priorities and bandwidth, PGID 15 ones strict; PFC; FCoE. */
function ceeDeviceView(op: Negotiated['a']['operational']) {
  const pg = op.pg!;
  const groups = [0, 1, 2, 3, 4, 5, 6, 7].map((g) => ({ prios: bitmap(pg.prio_pgid.flatMap((x, p) => (x === g ? [p] : []))), bw: pg.pg_bw[g] })).filter((g) => g.prios);
  return {
    groups,
    strict: bitmap(pg.prio_pgid.flatMap((x, p) => (x === 15 ? [p] : []))),
    pfc: bitmap(op.pfc.enable),
    fcoe: bitmap(op.app.filter((e) => e.selector === 'ethertype' && e.protocol === 0x8906).map((e) => e.priority)),
  };
}
function deviceCee(d: StandinDevice) {
  const tcs = [0, 1, 2, 3, 4, 5, 6, 7];
  return {
    // lldpad's set_hw_pg: TC n holds the priorities of PGID n, its group bandwidth in bwg[n];
    // link-strict priorities (prio_type 2) are given TCs of their own
    groups: tcs.filter((t) => d.cee.pgtx.up_map[t] && d.cee.pgtx.prio_type[t] !== 2).map((t) => ({ prios: d.cee.pgtx.up_map[t], bw: d.cee.pgtx.bwg[d.cee.pgtx.pgid[t]] })),
    strict: tcs.filter((t) => d.cee.pgtx.prio_type[t] === 2).reduce((m, t) => m | d.cee.pgtx.up_map[t], 0),
    pfc: bitmap(tcs.filter((p) => d.cee.pfc[p])),
    fcoe: d.app.find((e) => e.selector === 0 && e.protocol === 0x8906)?.priority ?? 0,
  };
}

/** `dcbtool go a FEATURE`: lldpad's operational view of one CEE feature. */
function dcbtoolOper(l: Lldpad, feature: string): Record<string, string> {
  const r = l.dcbtool(['go', 'a', feature]);
  return Object.fromEntries(r.stdout.split('\n').map((line) => /^([^:]+):\s*(.*)$/.exec(line)).filter((m): m is RegExpExecArray => !!m).map((m) => [m[1].trim(), m[2].trim()]));
}

describe('CEE DCBX 1.01 against the live lldpad (with open-lldp 03cb011)', () => {
  let live: Live | undefined;
  // after every test, also one that failed half-way (its namespace and lldpad must not outlive it)
  afterEach(async () => {
    await tearDown(live);
    live = undefined;
  });

  for (const lldpadWilling of [true, false]) {
    it(`lldpad ${lldpadWilling ? 'willing' : 'not willing'}, dcbkit ${lldpadWilling ? 'not willing' : 'willing'}: SeqNo/AckNo advance, every feature operational on both sides, as negotiate says`, async () => {
      const l = ceeConfig('lldpad', { mac: LLDPAD_LOW, willing: lldpadWilling, pfc: [3], fcoe: 3 });
      const d = ceeConfig('dcbkit', { willing: !lldpadWilling, pfc: [2, 3], fcoe: 4 });
      const [n] = await Promise.all([negotiate(l, d, 'cee'), (async () => (live = await bringUp(l, d, 'cee', `cee-${lldpadWilling}`)))()]);
      const wantLldpad = ceeDeviceView(n.a.operational);
      const wantTlv = ceeFeatures(ceeOf(lastFrom(n, 'a')));
      const lldpadCee = () => ceeOf(live!.peer.heard.at(-1)?.pdu);
      const synced = () => {
        const c = lldpadCee()?.control;
        const me = live!.peer.agent.cee;
        return !!c && c.seq > 0 && me.seq > 0 && c.ack === me.seq && me.ack === c.seq;
      };
      await settle(live!, 'CEE exchange', () => synced() && JSON.stringify(deviceCee(live!.net.device('a'))) === JSON.stringify(wantLldpad) &&
        JSON.stringify(ceeFeatures(lldpadCee())) === JSON.stringify(wantTlv) && live!.net.device('a').cee.setall > 0);
      // the control exchange: each side acknowledges the other's last SeqNo
      const c = lldpadCee()!.control;
      expect({ lldpadAck: c.ack, dcbkitAck: live!.peer.agent.cee.ack }).toEqual({ lldpadAck: live!.peer.agent.cee.seq, dcbkitAck: c.seq });
      expect(c.seq).toBeGreaterThan(0);
      // every feature operational: dcbkit adopted or kept its own without error; lldpad's oper mode on
      const state = live!.peer.agent.report().state;
      const want = lldpadWilling ? 'local' : 'adopted';
      expect([state.pg, state.pfc, state.app]).toEqual([want, want, want]);
      expect(live!.peer.agent.report().mismatches).toEqual([]);
      for (const f of ['pg', 'pfc', 'app:fcoe']) {
        const o = dcbtoolOper(live!.lldpad, f);
        expect(o.Status, `dcbtool go a ${f}`).toBe('Successful');
        expect(o['Oper Mode'] ?? o['OperMode'], `dcbtool go a ${f}: ${JSON.stringify(o)}`).toMatch(/true|1/i);
      }
      // lldpad put the link in DORMANT mode when it took up CEE (set_hw_state -> set_linkmode) and
      // set it UP once PFC and App were operational (dcbx_check_operstate): the "DORMANT" seen before
      await settle(live!, 'operstate UP', () => JSON.parse(live!.net.run('ip', ['-j', 'link', 'show', 'dev', 'a'], { standin: false }).stdout)[0].operstate === 'UP', 5000);
      expect(JSON.parse(live!.net.run('ip', ['-j', 'link', 'show', 'dev', 'a'], { standin: false }).stdout)[0]).toMatchObject({ linkmode: 'DORMANT', operstate: 'UP' });
      // what lldpad programmed (PG/PFC/App through the CEE dcbnl commands, then SET_ALL)
      expect(deviceCee(live!.net.device('a')), 'what lldpad programmed').toEqual(wantLldpad);
      expect(ceeFeatures(lldpadCee()), "lldpad's CEE TLV as dcbkit decodes it").toEqual(wantTlv);
      // dcbkit's operational result
      expect(ceeDeviceView(live!.peer.agent.report().operational), "dcbkit's operational result").toEqual(ceeDeviceView(n.b.operational));
      // dcbkit's CEE TLV as lldpad received it, printed by lldptool
      const shown = live!.lldpad.lldptool(['-t', '-n', '-i', 'a']);
      checkCee(sections(shown.stdout), ceeOf(live!.peer.said.at(-1)!.pdu)!);
      await tearDown(live);
      live = undefined;
    }, 60_000);
  }

  it("Debian's own lldpad build goes silent in CEE (the record wiped in dcbx_gettlv): no CEE TLV, CEE TLVs dropped", async () => {
    const net = StandinNetns.open({ tag: 'cee-stock' });
    try {
      const lldpad = await net.startLldpad('a');
      const d = ceeConfig('dcbkit', { willing: false, pfc: [2, 3], fcoe: 4 });
      const peer = new LivePeer(await net.openPort('b'), parsed(d), 'cee');
      live = { net, lldpad, peer };
      peer.start();
      await net.waitFor('lldpad to take up CEE', () => /CEE DCBX a going ACTIVE/.test(lldpad.log()));
      await sleep(2500);
      expect(peer.heard.length).toBeGreaterThan(1);
      expect(peer.heard.filter((h) => ceeOf(h.pdu))).toEqual([]);
      expect(lldpad.log()).toMatch(/allocated TLV 127 was not stored/);
      expect(lldpad.dcbtool(['go', 'a', 'pfc']).stdout).toMatch(/not applicable/);
    } finally {
      await tearDown(live);
      live = undefined;
    }
  }, 60_000);
});

describe('the generated dcb.sh runs under the live iproute2 dcb', () => {
  it('dcb accepts every line and the device then holds the config: ETS, PFC, APP, buffers, max rate', async () => {
    const raw = { ...lldpadConfig({ mac: LLDPAD_LOW, willing: false, pfc: [3, 4], rec: true, app: [FCOE, ISCSI, ROCE, { selector: 'dscp', protocol: 26, priority: 3 }] }) };
    const net = StandinNetns.open({ tag: 'dcbsh' });
    try {
      const files = linuxFiles(raw);
      runScript(net, 'dcb.sh', files['dcb.sh']);
      const cfg = parsed(raw);
      const d = net.device('a');
      expect(d.ets).toMatchObject({
        willing: 0, prio_tc: cfg.ets.prio_tc, tc_tx_bw: cfg.ets.bw, tc_tsa: cfg.ets.tsa.map((t) => tsaCode(t as Tsa)),
        // the recommendation fields are left to lldpad (it fills them from ETS-CFG): untouched
        reco_prio_tc: [0, 0, 0, 0, 0, 0, 0, 0], tc_reco_bw: [0, 0, 0, 0, 0, 0, 0, 0], tc_reco_tsa: [0, 0, 0, 0, 0, 0, 0, 0],
      });
      expect(d.pfc.pfc_en).toBe(bitmap(cfg.pfc.enable));
      expect(d.app.map(appKey).sort()).toEqual(cfg.app.map(appKey).sort());
      // receive buffers: priority -> PG as codegen's IR says; the lossless PG gets its size
      const ir = buildIr(cfg, defaultDevice, { headroom: testHeadroom });
      expect(d.buffer.prio2buffer).toEqual(ir.prioTc.map((t) => ir.tcPg[t]));
      for (const g of ir.ports[0].pgs.filter((x) => x.lossless)) expect(d.buffer.buffer_size[g.pg]).toBe(g.sizeBytes);
      expect(d.maxrate).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
      // and `dcb -j` reads the same back (what `dcbkit audit` will read)
      expect(JSON.parse(net.dcb(['-j', 'ets', 'show', 'dev', 'a']).stdout).tc_bw).toEqual(cfg.ets.bw);
    } finally {
      await net.close();
    }
  }, 30_000);
});

describe('dcbx decode - on a live capture', () => {
  it("dumpcap -w - | dcbkit dcbx decode -: lldpad's LLDPDUs print as they arrive, other frames are counted as skipped", async () => {
    requireTool('dumpcap');
    requireTool('tshark');
    const net = StandinNetns.open({ tag: 'capture' });
    try {
      const lldpad = await net.startLldpad('a');
      const cap = join(net.dir, 'b.pcapng');
      const cli = join(packageRoot(), 'dist', 'host', 'cli', 'main.js');
      // the capture runs in the namespace; its pcapng stream is kept (tee) and decoded as it comes
      const pipeline = `dumpcap -q -i b -w - -a duration:5 2>/dev/null | tee "$0" | "$1" "$2" dcbx decode - --json`;
      const child = spawn('ip', ['netns', 'exec', net.ns, 'sh', '-c', pipeline, cap, process.execPath, cli], { stdio: ['ignore', 'pipe', 'pipe'] });
      const lines: { ms: number; obj: Record<string, unknown> }[] = [];
      let partial = '';
      let err = '';
      const t0 = Date.now();
      child.stdout.on('data', (b) => {
        const parts = (partial + b).split('\n');
        partial = parts.pop() ?? '';
        for (const p of parts) if (p) lines.push({ ms: Date.now() - t0, obj: JSON.parse(p) });
      });
      child.stderr.on('data', (b) => (err += b));
      const exited = new Promise<number>((done) => child.on('exit', (code) => done(code ?? -1)));
      await sleep(1500); // dumpcap is listening
      // lldpad sends at once when told to transmit; an IPv6 neighbour solicitation from `a` is the noise
      expect(lldpad.lldptool(['set-lldp', '-i', 'a', 'adminStatus=rxtx']).status).toBe(0);
      const noise = await net.openPort('a');
      await noise.send('333300000016' + '020000000077' + '86dd' + '600000000024000100000000000000000000000000000000ff0200000000000000000000000000163a000502000001008f0087140000000104000000ff0200000000000000000001ffd6e79f');
      await net.waitFor('a decoded LLDPDU', () => lines.some((l) => l.obj.kind === 'lldp'), 3000);
      const firstLldpAt = lines.find((l) => l.obj.kind === 'lldp')!.ms;
      expect(await exited, err).toBe(0);
      expect(firstLldpAt).toBeLessThan(Date.now() - t0 - 1000); // printed well before dumpcap stopped
      // the same capture read by tshark: every LLDP frame decoded, every other one counted
      const types = spawnSync('tshark', ['-r', cap, '-T', 'fields', '-e', 'eth.type'], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
      const decoded = lines.filter((l) => 'kind' in l.obj);
      expect(decoded.length).toBe(types.filter((t) => t === '0x88cc').length);
      expect(lines.at(-1)!.obj).toEqual({ skipped: types.filter((t) => t !== '0x88cc').length });
      expect(types.some((t) => t === '0x86dd')).toBe(true);
      const mac = net.run('cat', ['/sys/class/net/a/address'], { standin: false }).stdout.trim();
      expect(decoded.every((l) => l.obj.kind === 'lldp' && l.obj.src === mac)).toBe(true);
    } finally {
      await net.close();
    }
  }, 60_000);
});
