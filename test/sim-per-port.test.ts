// Per-port DCB configs of the fabric simulator (docs/sim.md, "Per-port configuration"): a link end's
// `a_dcb` / `b_dcb` replaces its node's config for that port's transmission selection and congestion
// points; flow control, MTU and reaction points stay per node and a port that differs is refused.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkScenario, ENGINE_CREDIT_BITS, scenarioJsonSchema, type Scenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { buildFabric, runScenario } from '../host/sim/run.js';
import { dcbEts403020, inputErrorOf, runCli } from './helpers.js';

/** Priorities 0,1 -> TC0, 2,3 -> TC1, 4,5 -> TC2 (ETS 40/40/20), 6,7 -> TC3 strict; PFC on 3. */
const NODE = dcbEts403020(1500);
/** The node's config with another ETS split over TC0 and TC1 (TC2 strict): what a port may change. */
const split = (tc0: number, tc1: number) => ({
  ...NODE,
  ets: { ...NODE.ets, tsa: ['ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [tc0, tc1, 0, 0, 0, 0, 0, 0] },
});

/**
 * Two receivers behind one switch: h1, h2 -> hA and h3, h4 -> hB, each pair on priorities 0 (TC0)
 * and 2 (TC1), every sender at 100G line rate, so both egress ports sw>hA and sw>hB carry 200 Gb/s
 * offered into 100 Gb/s with both TCs backlogged. Lossy, each TC queue limited to 150 KB so neither
 * TC takes the shared pool from the other (docs/sim.md, Validation).
 */
/** Address of port n's congestion-point table (SP_CP_AT: a switch port's, QCN on). */
function cpTable(fab: ReturnType<typeof buildFabric>, scn: Scenario, n: string): number {
  const at = fab.core.i32[(fab.addr.ports + scn.ports.find((p) => p.name === n)!.id * fab.L.SP_SIZE + fab.L.SP_CP_AT) >>> 2];
  expect(at).toBeGreaterThan(0);
  return at;
}

function twoEgress(links: ScenarioInput['links'], extra: Partial<ScenarioInput> = {}): ScenarioInput {
  const hosts = ['hA', 'hB', 'h1', 'h2', 'h3', 'h4'].map((name) => ({ name }));
  return {
    duration: '150us', sample: '10us',
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '1MB', headroom: 'auto', lossy_queue: '150KB' }, dcb: NODE },
    hosts, switches: [{ name: 'sw' }], links,
    traffic: { flows: [
      { src: 'h1', dst: 'hA', priority: 0 }, { src: 'h2', dst: 'hA', priority: 2 },
      { src: 'h3', dst: 'hB', priority: 0 }, { src: 'h4', dst: 'hB', priority: 2 },
    ] },
    ...extra,
  };
}
const senderLinks = ['h1', 'h2', 'h3', 'h4'].map((h) => ({ a: h, b: 'sw' }));


describe('ETS per port', () => {
  it('two egress ports of one switch with 70/30 and 20/80 each meet their own split within 1 pp', () => {
    // sw>hA has its own config inline (b_dcb: the switch is end b), sw>hB takes a profile by name
    // (a_dcb: the switch is end a). Under saturation DWRR serves each port's TCs in proportion to
    // its own bw: 70/30 at sw>hA, 20/80 at sw>hB. With one config per node both would show 40/40.
    const doc = twoEgress([
      { a: 'hA', b: 'sw', b_dcb: split(70, 30) },
      { a: 'sw', b: 'hB', a_dcb: 'twenty_eighty' },
      ...senderLinks,
    ], { dcb_profiles: { twenty_eighty: split(20, 80) } });
    const s = runScenario(checkScenario(doc)).summary;
    const shares = (port: string) => s.ets.per_tc.filter((r) => r.port === port);
    const a = shares('sw>hA');
    const b = shares('sw>hB');
    expect(a.map((r) => [r.tc, r.configured_pct])).toEqual([[0, 70], [1, 30]]);
    expect(b.map((r) => [r.tc, r.configured_pct])).toEqual([[0, 20], [1, 80]]);
    for (const r of [...a, ...b]) expect(Math.abs(r.measured_pct - r.configured_pct)).toBeLessThanOrEqual(1);
    // Each receiver gets the whole 100G link between its two senders: flows 0, 1 to hA split 70/30.
    const [f0, f1, f2, f3] = s.flows.map((f) => f.bytes_delivered);
    expect(f0 / (f0 + f1)).toBeCloseTo(0.7, 1);
    expect(f2 / (f2 + f3)).toBeCloseTo(0.2, 1);
  });

  it('a profile name as a port override: that port reads the profile, the node\'s other ports its own config', () => {
    const scn = checkScenario(twoEgress([{ a: 'hA', b: 'sw', b_dcb: 'p' }, { a: 'hB', b: 'sw' }, ...senderLinks], { dcb_profiles: { p: split(10, 90) } }));
    const port = (n: string) => scn.ports.find((p) => p.name === n)!;
    expect(port('sw>hA').dcb.bw).toEqual([10, 90, 0, 0, 0, 0, 0, 0]);
    expect(port('sw>hB').dcb.bw).toEqual([40, 40, 20, 0, 0, 0, 0, 0]);
    expect(port('hA>sw').dcb.bw).toEqual([40, 40, 20, 0, 0, 0, 0, 0]);
    // The engine's ETS record of each port holds that port's bw.
    const fab = buildFabric(scn);
    const bwAt = (n: string, tc: number) => fab.core.u8[fab.addr.ports + port(n).id * fab.L.SP_SIZE + fab.L.SP_ETS + fab.L.ETS_BW + tc];
    expect([bwAt('sw>hA', 0), bwAt('sw>hA', 1), bwAt('sw>hB', 0), bwAt('sw>hB', 1)]).toEqual([10, 90, 40, 40]);
  });

  it('a flow takes its TC from its host port\'s prio_tc, not the host node\'s', () => {
    // h1's node config maps priority 0 to TC0; its port's own config maps it to TC2.
    const moved = { ...NODE, ets: { ...NODE.ets, prio_tc: [2, 0, 1, 1, 2, 2, 3, 3] } };
    const scn = checkScenario(twoEgress([{ a: 'hA', b: 'sw' }, { a: 'hB', b: 'sw' }, { a: 'h1', b: 'sw', a_dcb: moved }, ...senderLinks.slice(1)]));
    const fab = buildFabric(scn);
    const tcOf = (f: number) => fab.core.i32[(fab.addr.flows + f * fab.L.SF_SIZE + fab.L.SF_TC) >>> 2];
    expect([tcOf(0), tcOf(1), tcOf(2)]).toEqual([2, 1, 0]);
  });
});

describe('QCN congestion points per port', () => {
  it('each switch port\'s CP takes Qeq from its own config', () => {
    const qcn = (qEq: number) => ({ ...NODE, qcn: { cp: { priorities: [2], q_eq: qEq } } });
    const scn = checkScenario(twoEgress([{ a: 'hA', b: 'sw', b_dcb: qcn(52000) }, { a: 'hB', b: 'sw' }, ...senderLinks], {
      defaults: { ...twoEgress([]).defaults, dcb: qcn(26000) },
    }));
    const fab = buildFabric(scn);
    const qEq = (n: string) => fab.core.i32[(cpTable(fab, scn, n) + 1 * fab.L.QCN_CP_SIZE + fab.L.QCN_CP_Q_EQ) >>> 2];
    expect(qEq('sw>hA')).toBe(52000);
    expect(qEq('sw>hB')).toBe(26000);
  });

  it('each CP takes the quantiser of its own config (was: linear whatever qcn.cp.quantiser said), and it changes the feedback', () => {
    // Qeq 43691 B, w 1: Fbmax = 3 Qeq = 131073 = 2^17 + 1, so the msb form shifts by
    // bitlen(Fbmax) - 6 = 12 (Qfb = |Fb| / 4096) where the linear one scales by 63 / 131073
    // (about |Fb| / 2081): the same congestion gives about half the Qfb (802.1Qau clause 32.8.3).
    const qcn = (quantiser: string) => ({ ...NODE, qcn: { cp: { priorities: [2], q_eq: 43691, w: 1, quantiser } } });
    const doc = (portQuantiser: string) => twoEgress([{ a: 'hA', b: 'sw', b_dcb: qcn(portQuantiser) }, { a: 'hB', b: 'sw' }, ...senderLinks], {
      defaults: { ...twoEgress([]).defaults, dcb: qcn('linear') },
      qcn: { enable: true, profile: 'qau-pc' }, duration: '1ms',
    });
    const scn = checkScenario(doc('msb'));
    const fab = buildFabric(scn);
    const quant = (n: string) => fab.core.i32[(cpTable(fab, scn, n) + 1 * fab.L.QCN_CP_SIZE + fab.L.QCN_CP_QUANT) >>> 2];
    expect([quant('sw>hA'), quant('sw>hB')]).toEqual([1, 0]); // 0 linear, 1 msb (host/core/kernels/qcn-cp.ts)
    const msb = runScenario(checkScenario(doc('msb'))).summary;
    const linear = runScenario(checkScenario(doc('linear'))).summary;
    expect(linear.qcn.cnms).toBeGreaterThan(0);
    // hA's CP changes quantiser between the runs, hB's does not: hA's CNM'd sender (flow 1, priority
    // 2) sends otherwise, hB's (flow 3) the same. Which way it moves is the closed loop's doing, not
    // read off the smaller Qfb: over 1 ms msb sent 2.2-9.1 % less than linear for each of seeds 1-8
    // (at 150 us, 0 to +1.2 %), so only the difference is asserted.
    const sent = (s: typeof msb, f: number) => s.flows[f].bytes_sent;
    expect(sent(msb, 1)).not.toBe(sent(linear, 1));
    expect(sent(msb, 3)).toBe(sent(linear, 3));
  });
});

describe('flow control stays per node', () => {
  it('a credit config whose counter width the engine does not have is refused, not run at 16 bits', () => {
    const credit = (counter_bits: number) => ({ ...NODE, credit: { priorities: [4, 5], counter_bits } });
    const doc = (bits: number) => twoEgress([{ a: 'hA', b: 'sw' }, { a: 'hB', b: 'sw' }, ...senderLinks], {
      defaults: { ...twoEgress([]).defaults, buffer: { size: '4MB', headroom: 'auto', lossy_queue: '150KB' }, dcb: credit(bits) },
    });
    const e = inputErrorOf(() => checkScenario(doc(12)));
    expect(e.problems[0]).toEqual({
      path: 'hosts[0].dcb.credit.counter_bits',
      rule: 'the simulator\'s credit counters are 16 bits wide, got 12 (codegen and vectors take 2..30; for a run set 16 or leave it out)',
    });
    // the width the check holds is the engine's
    expect(buildFabric(checkScenario(doc(ENGINE_CREDIT_BITS))).L.SIM_CREDIT_BITS).toBe(ENGINE_CREDIT_BITS);
  });

  it('a port whose pfc.enable differs from its node\'s is refused at the port\'s path', () => {
    const e = inputErrorOf(() => checkScenario(twoEgress([{ a: 'hA', b: 'sw', b_dcb: { ...split(70, 30), pfc: { enable: [3, 4] } } }, { a: 'hB', b: 'sw' }, ...senderLinks])));
    expect(e.problems).toEqual([{
      path: 'links[0].b_dcb.pfc.enable',
      rule: '[3,4] differs from [3] of sw: flow control is set per node (a switch accounts its shared buffer, runs its flow-control modes and its watchdog per node): set it in the node\'s dcb and repeat it in the port\'s',
    }]);
  });

  it('a profile used as a port override with another pause time is refused once per port, naming the profile', () => {
    const slow = { ...NODE, pfc: { enable: [3], pause_time: 1000 } };
    const e = inputErrorOf(() => checkScenario(twoEgress([{ a: 'hA', b: 'sw', b_dcb: 'slow' }, { a: 'sw', b: 'hB', a_dcb: 'slow' }, ...senderLinks], { dcb_profiles: { slow } })));
    expect(e.problems.map((p) => p.path)).toEqual(['links[0].b_dcb.pfc.pause_time', 'links[1].a_dcb.pfc.pause_time']);
    expect(e.problems[0].rule).toMatch(/^1000 \(profile "slow"\) differs from 65535 of sw: flow control is set per node/);
  });

  it('a problem inside a port config is reported once at its own path, without flow-control noise', () => {
    const e = inputErrorOf(() => checkScenario(twoEgress([{ a: 'hA', b: 'sw', b_dcb: { ...NODE, ets: { ...NODE.ets, prio_tc: [0] } } }, { a: 'hB', b: 'sw' }, ...senderLinks])));
    expect(e.problems.length).toBeGreaterThan(0);
    expect(e.problems.every((p) => p.path.startsWith('links[0].b_dcb.ets.prio_tc'))).toBe(true);
  });

  it('the CLI exits 2 with path: rule and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-perport-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(twoEgress([{ a: 'hA', b: 'sw', b_dcb: { ...NODE, pfc: { enable: [] } } }, { a: 'hB', b: 'sw' }, ...senderLinks])));
    const out = join(dir, 'out');
    const r = runCli(['run', file, '--json', '--out', out]);
    expect(r.status).toBe(2);
    // --json: the problems on stdout too
    expect((JSON.parse(r.stdout) as { problems: { path: string }[] }).problems.map((p) => p.path)).toContain('links[0].b_dcb.pfc.enable');
    expect(r.stderr).toContain('links[0].b_dcb.pfc.enable: [] differs from [3] of sw: flow control is set per node');
    expect(readdirSync(dir)).toEqual(['bad.json']);
  });
});

describe('validate', () => {
  it('checks a port config with the full config rules: its warnings carry the port\'s path', () => {
    // NODE maps priorities 2 and 3 to TC1 with PFC on 3 only: the config rules warn that a pause of
    // 3 also stops 2, at every place such a config is written out, the port's included.
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-perport-'));
    const file = join(dir, 'ok.json');
    writeFileSync(file, JSON.stringify(twoEgress([{ a: 'hA', b: 'sw', b_dcb: split(70, 30) }, { a: 'hB', b: 'sw' }, ...senderLinks])));
    const r = runCli(['validate', file]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('warning: links[0].b_dcb.ets.prio_tc: TC 1 mixes PFC priorities (3) with non-PFC priorities (2)');
  });
});

describe('JSON Schema', () => {
  it('links[].a_dcb and b_dcb are a profile name or a config checked against $defs.dcbConfig', () => {
    const s = scenarioJsonSchema() as { properties: { links: { items: { properties: Record<string, { anyOf: { $ref?: string; type?: string }[] }> } } }; $defs: Record<string, unknown> };
    const props = s.properties.links.items.properties;
    for (const key of ['a_dcb', 'b_dcb']) {
      expect(props[key].anyOf).toContainEqual({ $ref: '#/$defs/dcbConfig' });
      expect(props[key].anyOf.some((x) => x.type === 'string')).toBe(true);
    }
    expect(s.$defs.dcbConfig).toBeDefined();
  });
});
