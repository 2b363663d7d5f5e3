// The ports' kernel records (host/sim/fabric-params.ts writePortKernels): a port whose config,
// headroom, link speed and credit buffer equal the last port written for its node takes that port's
// kernel block as one copy. Held here to the fields written port by port: every scenario's port
// records must come out byte for byte as when each port is written alone (no earlier port to copy).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Core } from '../host/core/loader.js';
import { checkScenario, loadScenario, type Scenario } from '../host/scenario/scenario.js';
import { closScenario } from '../host/scenario/clos.js';
import { arenaWriter, portKernelSlots, writePortKernels } from '../host/sim/fabric-params.js';
import { buildFabric } from '../host/sim/run.js';
import type { L } from '../host/sim/fabric-plan.js';
import { dcbEts403020 } from './helpers.js';

/**
 * The port records of `scn` with their kernel fields written port by port (`alone`) or in one call,
 * and each port's kernel bytes: its ETS and PFC block followed by the credit and congestion-point
 * tables its record points to (empty when it has none).
 */
function portRecords(scn: Scenario, alone: boolean): { bytes: Uint8Array; L: L; block: (p: number) => Buffer } {
  const core = new Core('release');
  const L = new Proxy({}, { get: (_t, k: string) => core.constant(k) }) as L;
  const slots = portKernelSlots(scn);
  const portBytes = scn.ports.length * L.SP_SIZE;
  const bytes = portBytes + slots.credits * L.SP_CREDIT_TABLE + slots.cps * L.SP_CP_TABLE;
  const ports = core.fn<(b: number) => number>('simReserve')(bytes);
  const at = { ports, credits: ports + portBytes, cps: ports + portBytes + slots.credits * L.SP_CREDIT_TABLE };
  const w = arenaWriter(core);
  const polls = [...new Set(scn.nodes.filter((n) => !n.isHost && n.watchdog).map((n) => n.watchdog!.poll_interval))].filter((x) => x > 0);
  if (alone) for (const p of scn.ports) writePortKernels(w, L, scn, at, slots, polls, [p]);
  else writePortKernels(w, L, scn, at, slots, polls, scn.ports);
  const u8 = core.u8.slice();
  const word = (x: number) => u8[x] | (u8[x + 1] << 8) | (u8[x + 2] << 16) | (u8[x + 3] << 24);
  const table = (pa: number, field: number, size: number) => { const t = word(pa + field); return t === 0 ? [] : [u8.subarray(t, t + size)]; };
  const block = (p: number) => {
    const pa = ports + p * L.SP_SIZE;
    return Buffer.concat([u8.subarray(pa + L.SP_ETS, pa + L.SP_PFC + L.PFC_SIZE), ...table(pa, L.SP_CREDIT_AT, L.SP_CREDIT_TABLE), ...table(pa, L.SP_CP_AT, L.SP_CP_TABLE)]);
  };
  return { bytes: u8.slice(ports, ports + bytes), L, block };
}

const examples = readdirSync('examples', { withFileTypes: true }).filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(`examples/${d.name}`).filter((f) => f.endsWith('.yaml')).map((f) => `examples/${d.name}/${f}`))
  .filter((f) => /^links:/m.test(readFileSync(f, 'utf8')));

/**
 * One switch whose ports differ one input at a time from the port before: cable (with `auto`
 * headroom, the port's headroom), link speed, a port's own ETS split and QCN set-point; then one
 * like the first again. With a fixed headroom the 25G port differs from the one before by its speed alone.
 */
function mixedPorts(headroom: string): Scenario {
  const node = dcbEts403020(1500);
  const own = (bw0: number, qEq?: number) => ({
    ...node,
    ets: { ...node.ets, tsa: ['ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [bw0, 100 - bw0, 0, 0, 0, 0, 0, 0] },
    ...(qEq ? { qcn: { cp: { q_eq: qEq } } } : {}),
  });
  const hosts = ['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((name) => ({ name }));
  return checkScenario({
    duration: '2us',
    // QCN on: every switch port has congestion points, the set-point port its own.
    qcn: { enable: true, profile: 'qau-pc' },
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '1MB', headroom }, dcb: node },
    hosts, switches: [{ name: 'sw' }],
    links: [
      { a: 'sw', b: 'h0' }, { a: 'sw', b: 'h1', cable: '90m' }, { a: 'sw', b: 'h2', speed: '25G' },
      { a: 'sw', b: 'h3', a_dcb: own(70) }, { a: 'sw', b: 'h4', a_dcb: own(70, 30000) }, { a: 'sw', b: 'h5', a_dcb: own(70) },
      { a: 'sw', b: 'h6' },
    ],
    traffic: { flows: [{ src: 'h2', dst: 'h0', priority: 3 }] },
  });
}

describe('port kernel records written once per repeated config', () => {
  const cases: [string, () => Scenario][] = [
    ...examples.map((f): [string, () => Scenario] => [f, () => loadScenario(f)]),
    ['gen clos k = 4', () => checkScenario(closScenario({ k: 4, flows: 16, duration: '1us', seed: 1, speed: '100G', pattern: 'permutation' }))],
    ['one switch, ports differing one input at a time (auto headroom)', () => mixedPorts('auto')],
    ['one switch, ports differing one input at a time (fixed headroom)', () => mixedPorts('40KB')],
  ];
  it.each(cases)('%s: the same bytes as each port written alone', (_name, make) => {
    const scn = make();
    const one = portRecords(scn, false);
    const alone = portRecords(scn, true);
    expect(one.bytes.some((b) => b !== 0)).toBe(true);
    expect(Buffer.compare(one.bytes, alone.bytes)).toBe(0);
  });

  it.each([['auto', 5], ['40KB', 4]] as const)('headroom %s: a port differing from the last of its node in one input has its own kernel block', (headroom, blocks) => {
    const scn = mixedPorts(headroom);
    const { block } = portRecords(scn, false);
    const sw = scn.nodes.find((n) => n.name === 'sw')!.ports;
    // sw's ports in link order: 100G, 90 m, 25G, own ETS, own ETS and set-point, own ETS again, as
    // the first. With a fixed headroom the 90 m port's block is the first's.
    const distinct = new Set(sw.map((p) => block(p).toString('hex')));
    expect(distinct.size).toBe(blocks);
    expect(block(sw[1]).equals(block(sw[0]))).toBe(headroom === '40KB');
    expect(block(sw[2]).equals(block(sw[1]))).toBe(false);
    expect(block(sw[6]).equals(block(sw[0]))).toBe(true);
    expect(block(sw[5]).equals(block(sw[3]))).toBe(true);
  });
});

/**
 * The credit receivers and congestion points live in tables of their own (SP_CREDIT_AT, SP_CP_AT):
 * records only for the ports that use them, every other port's address 0; simInit configures
 * those it finds, and a credit run's receivers hold the buffer the host wrote.
 */
describe('credit and congestion-point tables: records only for the ports that use them', () => {
  const star = (dcb: object, extra: object = {}) => checkScenario({
    duration: '2us',
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '1MB', headroom: 'auto' }, dcb },
    hosts: [{ name: 'h0' }, { name: 'h1' }, { name: 'h2' }], switches: [{ name: 'sw' }],
    links: [{ a: 'sw', b: 'h0' }, { a: 'sw', b: 'h1' }, { a: 'sw', b: 'h2' }],
    traffic: { flows: [{ src: 'h1', dst: 'h0', priority: 3 }, { src: 'h2', dst: 'h0', priority: 3 }] },
    ...extra,
  });
  /** Each port's two table addresses in a built fabric (after simInit), and the fabric. */
  const tablesOf = (scn: Scenario) => {
    const fab = buildFabric(scn);
    const at = (p: number, field: number) => fab.core.i32[(fab.addr.ports + p * fab.L.SP_SIZE + field) >>> 2];
    return { fab, credit: scn.ports.map((p) => at(p.id, fab.L.SP_CREDIT_AT)), cp: scn.ports.map((p) => at(p.id, fab.L.SP_CP_AT)) };
  };
  const isSwitchPort = (scn: Scenario) => scn.ports.map((p) => !scn.nodes[p.node].isHost);

  it('no credit priority and no QCN: no port has either table, and the arena holds none', () => {
    const scn = star(dcbEts403020(1500));
    expect(scn.qcn.enable).toBe(false);
    const slots = portKernelSlots(scn);
    expect([slots.credits, slots.cps]).toEqual([0, 0]);
    const { credit, cp } = tablesOf(scn);
    expect([...credit, ...cp].every((x) => x === 0)).toBe(true);
  });

  it('QCN on: every switch port has its eight congestion points, configured with its Qeq; no host port has any', () => {
    const dcb = { ...dcbEts403020(1500), qcn: { cp: { priorities: [3], q_eq: 30000 } } };
    const scn = star(dcb);
    expect(scn.qcn.enable).toBe(true);
    const { fab, credit, cp } = tablesOf(scn);
    expect(cp.map((x) => x !== 0)).toEqual(isSwitchPort(scn));
    expect(credit.every((x) => x === 0)).toBe(true);
    const switchCps = cp.filter((x) => x !== 0);
    expect(new Set(switchCps).size).toBe(switchCps.length); // a table each
    for (const t of switchCps) for (let tc = 0; tc < 8; tc++) expect(fab.core.i32[(t + tc * fab.L.QCN_CP_SIZE + fab.L.QCN_CP_Q_EQ) >>> 2]).toBe(30000);
  });

  it('a credit priority: every port of its links has credit records, the receivers sized by the host', () => {
    const dcb = { ...dcbEts403020(1500), pfc: { enable: [] }, credit: { priorities: [3], unit: 64 } };
    const scn = star(dcb, { flow_control: ['lossy', 'lossy', 'lossy', 'credit', 'lossy', 'lossy', 'lossy', 'lossy'] });
    const { fab, credit, cp } = tablesOf(scn);
    expect(credit.every((x) => x !== 0)).toBe(true);
    expect(new Set(credit).size).toBe(credit.length);
    expect(cp.every((x) => x === 0)).toBe(true);
    // Each receiver's capacity: its buffer in credit units (a switch port's headroom; a host's one round trip and two frames).
    for (const t of credit) expect(fab.core.i32[(t + 3 * fab.L.CREDIT_SIZE + fab.L.CREDIT_CAPACITY) >>> 2]).toBeGreaterThan(0);
  });
});
