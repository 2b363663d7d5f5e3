// Per-node parameters of the fabric simulator (docs/sim.md, "Per-node configuration"): each node's
// own DCB config sets the flow-control mode of its ports, its pause time, its PFC watchdog and its
// QCN reaction/congestion points. Every scenario here differs from node to node, so an engine that
// took one node's values for the whole fabric fails it.
import { describe, expect, it } from 'vitest';
import { checkScenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { buildFabric, runScenario } from '../host/sim/run.js';
import { inputErrorOf } from './helpers.js';

const DCB = {
  port: { mtu: 1518 },
  ets: {
    prio_tc: [0, 1, 2, 3, 4, 5, 6, 7],
    tsa: ['ets', 'ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict'],
    bw: [25, 25, 25, 25, 0, 0, 0, 0],
  },
  pfc: { enable: [3], pause_time: 65535 },
};
const LOSSY = { ...DCB, pfc: { enable: [] } };

/** h0 <- h1..hn incast through one switch at 100G, priority 3. */
function incast(n: number, extra: Partial<ScenarioInput> = {}): ScenarioInput {
  const hosts = Array.from({ length: n + 1 }, (_, i) => ({ name: `h${i}` }));
  return {
    duration: '100us', sample: '5us',
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '1MB', headroom: 'auto' }, dcb: DCB },
    hosts, switches: [{ name: 'sw' }], links: hosts.map((h) => ({ a: h.name, b: 'sw' })),
    traffic: { incast: [{ senders: hosts.slice(1).map((h) => h.name), dst: 'h0', priority: 3, frames: 1518 }] },
    ...extra,
  };
}


describe('flow-control mode per node', () => {
  it('a lossy first host does not make the switch lossy: the switch still sends PFC and drops nothing', () => {
    // 3 x 100G into 100G for 100 us: 200 Gb/s x 100 us = 2.5 MB of excess, more than the 1 MB
    // buffer, so a lossy switch would drop. The receiver h0 (node 0) runs priority 3 lossy; the
    // switch and the senders run PFC on it.
    const scn = checkScenario(incast(3, { hosts: [{ name: 'h0', dcb: LOSSY }, { name: 'h1' }, { name: 'h2' }, { name: 'h3' }] }));
    expect(scn.nodes[0].modes[3]).toBe('lossy');
    expect(scn.nodes.find((n) => n.name === 'sw')!.modes[3]).toBe('pfc');
    expect(scn.modes[3]).toBe('mixed');
    const s = runScenario(scn).summary;
    expect(s.drops.lossless + s.drops.lossy).toBe(0);
    expect(s.pfc.xoff_frames).toBeGreaterThan(0);
    expect(s.pfc.paused_ps_by_priority[3]).toBeGreaterThan(0);
  });

  it('senders that do not run PFC ignore the switch XOFF: the switch overflows its headroom', () => {
    // h0 (node 0) and the switch run PFC on priority 3, the three senders do not: their PFC kernels
    // ignore the XOFF, so the ingress PGs of the switch pass xoff + headroom and drop (lossless).
    const s = runScenario(checkScenario(incast(3, {
      hosts: [{ name: 'h0' }, { name: 'h1', dcb: LOSSY }, { name: 'h2', dcb: LOSSY }, { name: 'h3', dcb: LOSSY }],
    }))).summary;
    expect(s.pfc.xoff_frames).toBeGreaterThan(0);
    expect(s.drops.lossless).toBeGreaterThan(0);
    // No transmitter obeyed: the only port that obeys PFC on priority 3 is sw>h0, and nobody pauses it.
    expect(s.pfc.paused_ps_by_priority[3]).toBe(0);
  });

  it('a node-level flow_control overrides the scenario-wide one', () => {
    const scn = checkScenario(incast(1, {
      flow_control: ['lossy', 'lossy', 'lossy', 'pfc', 'lossy', 'lossy', 'lossy', 'lossy'],
      hosts: [{ name: 'h0', dcb: LOSSY, flow_control: ['lossy', 'lossy', 'lossy', 'lossy', 'lossy', 'lossy', 'lossy', 'lossy'] }, { name: 'h1' }],
    }));
    expect(scn.nodes.map((n) => n.modes[3])).toEqual(['lossy', 'pfc', 'pfc']);
  });

  it('credit flow control at one end of a link only is refused (link path, exit-2 rule)', () => {
    const credit = { ...LOSSY, credit: { priorities: [3], unit: 64 } };
    const e = inputErrorOf(() => checkScenario(incast(1, { defaults: { ...incast(1).defaults, dcb: credit }, hosts: [{ name: 'h0' }, { name: 'h1', dcb: LOSSY }] })));
    expect(e.problems).toContainEqual({ path: 'links[1]', rule: 'priority 3 is lossy at h1 but credit at sw: credit flow control needs both ends of a link' });
  });

  it('a node whose pfc.enable contradicts its own flow_control is refused at that node', () => {
    const e = inputErrorOf(() => checkScenario(incast(1, { hosts: [{ name: 'h0', flow_control: ['lossy', 'lossy', 'lossy', 'lossy', 'lossy', 'lossy', 'lossy', 'lossy'] }, { name: 'h1' }] })));
    expect(e.problems).toContainEqual({ path: 'hosts[0].flow_control', rule: 'priority 3 is in pfc.enable of h0 but its mode is lossy' });
  });
});

describe('pause time per node', () => {
  it('each stuck receiver pauses its switch port for its own pause_time', () => {
    // One XOFF each at t = 0 (the storm stops at 1 us, before its first refresh at pause_time / 2).
    // A quantum at 100G is 512 bit / 100 Gb/s = 5,120 ps: h1 pauses sw>h1 for 1000 x 5,120 =
    // 5,120,000 ps, h2 pauses sw>h2 for 2000 x 5,120 = 10,240,000 ps (h0, node 0, keeps 65535).
    const withPause = (t: number) => ({ ...DCB, pfc: { enable: [3], pause_time: t } });
    const s = runScenario(checkScenario(incast(2, {
      duration: '50us',
      hosts: [{ name: 'h0' }, { name: 'h1', dcb: withPause(1000) }, { name: 'h2', dcb: withPause(2000) }],
      traffic: { pfc_storm: [{ host: 'h1', priority: 3, stop: '1us' }, { host: 'h2', priority: 3, stop: '1us' }] },
    }))).summary;
    const byPort = new Map(s.pfc.paused_ps_by_port!.map((r) => [r.port, r.paused_ps_by_priority[3]]));
    expect(byPort.get('sw>h1')).toBe(5_120_000);
    expect(byPort.get('sw>h2')).toBe(10_240_000);
  });
});

describe('PFC watchdog per switch', () => {
  // Two islands, each a stuck receiver (h1, h3) storming XOFF on priority 3 at its switch from
  // t = 0 to 1 us: sw0 polls every 5 us, detects after 20 us and drops; sw1 polls every 10 us,
  // detects after 60 us and forwards (ignores the pause, frames keep flowing, nothing dropped).
  const doc: ScenarioInput = {
    duration: '200us', sample: '5us',
    defaults: { link: { speed: '10G', cable: '10m' }, buffer: { size: '1MB', headroom: 'auto' }, dcb: DCB },
    hosts: [{ name: 'h0' }, { name: 'h1' }, { name: 'h2' }, { name: 'h3' }],
    switches: [
      { name: 'sw0', watchdog: { detection_time: '20us', restoration_time: '400us', poll_interval: '5us', action: 'drop' } },
      { name: 'sw1', watchdog: { detection_time: '60us', restoration_time: '400us', poll_interval: '10us', action: 'forward' } },
    ],
    links: [{ a: 'h0', b: 'sw0' }, { a: 'sw0', b: 'h1' }, { a: 'h2', b: 'sw1' }, { a: 'sw1', b: 'h3' }],
    traffic: {
      flows: [{ src: 'h0', dst: 'h1', priority: 3, rate: '5G' }, { src: 'h2', dst: 'h3', priority: 3, rate: '5G' }],
      pfc_storm: [{ host: 'h1', priority: 3, stop: '1us' }, { host: 'h3', priority: 3, stop: '1us' }],
    },
  };

  it('each switch detects with its own times and acts with its own action', () => {
    const s = runScenario(checkScenario(doc)).summary;
    const byPort = new Map(s.watchdog.map((w) => [w.port, w]));
    expect(s.watchdog).toHaveLength(2);
    const a = byPort.get('sw0>h1')!;
    const b = byPort.get('sw1>h3')!;
    expect(a).toMatchObject({ event: 'storm_detected', priority: 3, action: 'drop' });
    expect(b).toMatchObject({ event: 'storm_detected', priority: 3, action: 'forward' });
    // The XOFF reaches sw0/sw1 at 6.72 ns + 50 ns; the first poll that sees a paused non-empty queue
    // is at 5 us (sw0) / 10 us (sw1); detection takes 20 us (4 polls) / 60 us (6 polls) more.
    expect(a.t_ps).toBeGreaterThanOrEqual(20e6);
    expect(a.t_ps).toBeLessThanOrEqual(30e6);
    expect(b.t_ps).toBeGreaterThanOrEqual(60e6);
    expect(b.t_ps).toBeLessThanOrEqual(80e6);
    // drop discards the stormed queue at sw0 (lossless drops); forward at sw1 sends it on.
    expect(s.drops.lossless).toBeGreaterThan(0);
    const f0 = s.flows[0];
    const f1 = s.flows[1];
    expect(f1.bytes_delivered).toBeGreaterThan(f0.bytes_delivered);
    // forward keeps every frame: all but those still queued or in flight at the end (a few frames).
    expect(f1.bytes_sent - f1.bytes_delivered).toBeLessThan(20 * 1518);
  });
});

describe('QCN parameters per node', () => {
  it('each flow reaction point takes its own source host qcn.rp; each switch port its own Qeq', () => {
    const qcnDcb = (rp: Record<string, unknown>, qEq = 26000) => ({ ...DCB, qcn: { cp: { priorities: [3], q_eq: qEq }, rp: { profile: 'qau-pc', ...rp } } });
    const scn = checkScenario(incast(2, {
      defaults: { ...incast(2).defaults, dcb: qcnDcb({}) },
      hosts: [{ name: 'h0' }, { name: 'h1', dcb: qcnDcb({ ai_bps: 50_000_000, hai_bps: 500_000_000 }) }, { name: 'h2' }],
      switches: [{ name: 'sw', dcb: qcnDcb({}, 52000) }],
    }));
    const fab = buildFabric(scn);
    const { L } = fab;
    const r64 = (at: number) => Number(fab.core.i64[at >>> 3]);
    const r32 = (at: number) => fab.core.i32[at >>> 2];
    const rp = (f: number) => fab.addr.flows + f * L.SF_SIZE + L.SF_RP;
    // Flow 0 from h1 (R_AI 50 Mb/s, R_HAI 500 Mb/s), flow 1 from h2 (MIB defaults 5 and 50 Mb/s).
    expect([r64(rp(0) + L.QCN_RP_AI_BPS), r64(rp(0) + L.QCN_RP_HAI_BPS)]).toEqual([50e6, 500e6]);
    expect([r64(rp(1) + L.QCN_RP_AI_BPS), r64(rp(1) + L.QCN_RP_HAI_BPS)]).toEqual([5e6, 50e6]);
    // The switch's congestion points use its Qeq (52,000 B). Only switch egress queues sample
    // (802.1Qau CPs; a host's NIC has none): a host port holds no CP table.
    const cpTable = (port: number) => r32(fab.addr.ports + port * L.SP_SIZE + L.SP_CP_AT);
    const swPort = scn.ports.find((p) => p.name === 'sw>h0')!.id;
    const hostPort = scn.ports.find((p) => p.name === 'h1>sw')!.id;
    expect(cpTable(swPort)).toBeGreaterThan(0);
    expect(r32(cpTable(swPort) + 3 * L.QCN_CP_SIZE + L.QCN_CP_Q_EQ)).toBe(52000);
    expect(cpTable(hostPort)).toBe(0);
  });

  it('hosts with different QCN profiles are refused unless the scenario picks one', () => {
    const dcqcn = { ...DCB, qcn: { cp: { priorities: [3] }, rp: { profile: 'dcqcn' } } };
    const doc = incast(1, { hosts: [{ name: 'h0' }, { name: 'h1', dcb: dcqcn }], qcn: { enable: true } });
    const e = inputErrorOf(() => checkScenario(doc));
    expect(e.problems.map((p) => p.path)).toEqual(['hosts[1].dcb']);
    expect(checkScenario({ ...doc, qcn: { enable: true, profile: 'dcqcn' } }).qcn.profile).toBe('dcqcn');
  });

  it('a host whose qcn.rp is the other profile runs the fabric\'s profile with that profile\'s defaults', () => {
    // Defaults (host/config/schema.ts): qau-pc BC 150000 B, timer 15 ms, R_AI 5 Mb/s, R_HAI 50 Mb/s,
    // Gd 1/128 (shift 7), min decrease 64/128; dcqcn BC 10 MB, timer 55 us, R_AI 40 Mb/s,
    // R_HAI 200 Mb/s, g 1/256 (4096 with alpha's 20 fraction bits; cut shift 21 = alpha/2), alpha timer
    // 55 us, CNP spacing 50 us.
    const rpOf = (doc: ScenarioInput, host: string) => {
      const scn = checkScenario(doc);
      const fab = buildFabric(scn);
      const f = scn.flows.find((x) => scn.nodes[x.src].name === host)!;
      const rp = fab.flowAt(f.id) + fab.L.SF_RP;
      const i32 = (name: string) => fab.r32(rp + fab.L[name]);
      const i64 = (name: string) => fab.r64(rp + fab.L[name]);
      return {
        profile: i32('QCN_RP_PROFILE'), bc: i32('QCN_RP_BC_BYTES'), timer: i64('QCN_RP_TIMER_PS'), ai: i64('QCN_RP_AI_BPS'),
        hai: i64('QCN_RP_HAI_BPS'), gd: i32('QCN_RP_GD_SHIFT'), minDec: i32('QCN_RP_MIN_DEC_NUM'), g: i32('QCN_RP_G'),
        alphaPs: i64('QCN_RP_ALPHA_PS'), npSpacing: fab.r64(fab.flowAt(f.id) + fab.L.SF_NP + fab.L.DCQCN_NP_SPACING_PS),
      };
    };
    const qauRp = { ...DCB, qcn: { cp: { priorities: [3] }, rp: { profile: 'qau-pc', ai_bps: 7e6 } } };
    const dcqcnRp = { ...DCB, qcn: { cp: { priorities: [3] }, rp: { profile: 'dcqcn', ai_bps: 9e6 } } };
    const mixed = (profile: 'qau-pc' | 'dcqcn', qcn: Record<string, unknown> = {}) => incast(2, {
      hosts: [{ name: 'h0', dcb: dcqcnRp }, { name: 'h1', dcb: qauRp }, { name: 'h2', dcb: dcqcnRp }],
      qcn: { enable: true, profile, ...qcn },
    });
    // dcqcn fabric: h2 keeps its own dcqcn values, h1 (qau-pc config) gets dcqcn's defaults.
    expect(rpOf(mixed('dcqcn'), 'h2')).toMatchObject({ profile: 1, bc: 10_000_000, ai: 9e6, g: 4096 });
    expect(rpOf(mixed('dcqcn'), 'h1')).toEqual({
      profile: 1, bc: 10_000_000, timer: 55e6, ai: 40e6, hai: 200e6, gd: 21, minDec: 0, g: 4096, alphaPs: 55e6, npSpacing: 50e6,
    });
    // qau-pc fabric: h1 keeps its own, h2 (dcqcn config) gets qau-pc's defaults; no NP spacing.
    expect(rpOf(mixed('qau-pc'), 'h1')).toMatchObject({ profile: 0, bc: 150_000, ai: 7e6, gd: 7 });
    expect(rpOf(mixed('qau-pc'), 'h2')).toEqual({
      profile: 0, bc: 150_000, timer: 15e9, ai: 5e6, hai: 50e6, gd: 7, minDec: 64, g: 0, alphaPs: 0, npSpacing: 0,
    });
    // The scenario's qcn keys still override the defaults a node falls back to.
    expect(rpOf(mixed('dcqcn', { bc_bytes: '300000B', timer: '100us' }), 'h1')).toMatchObject({ bc: 300_000, timer: 100e6, ai: 40e6 });
  });
});
