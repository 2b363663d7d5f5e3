// The ports' kernel records (host/sim/fabric-params.ts writePortKernels): a port whose config,
// headroom, link speed and credit buffer equal the last port written for its node takes that port's
// kernel block as one copy. Held here to the fields written port by port: every scenario's port
// records must come out byte for byte as when each port is written alone (no earlier port to copy).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Core } from '../host/core/loader.js';
import { checkScenario, loadScenario, type Scenario } from '../host/scenario/scenario.js';
import { closScenario } from '../host/scenario/clos.js';
import { arenaWriter, writePortKernels } from '../host/sim/fabric-params.js';
import type { L } from '../host/sim/fabric-plan.js';
import { dcbEts403020 } from './helpers.js';

/** The port records of `scn` with their kernel fields written port by port (`alone`) or in one call. */
function portRecords(scn: Scenario, alone: boolean): { bytes: Uint8Array; L: L } {
  const core = new Core('release');
  const L = new Proxy({}, { get: (_t, k: string) => core.constant(k) }) as L;
  const at = core.fn<(b: number) => number>('simReserve')(scn.ports.length * L.SP_SIZE);
  const w = arenaWriter(core);
  const polls = [...new Set(scn.nodes.filter((n) => !n.isHost && n.watchdog).map((n) => n.watchdog!.poll_interval))].filter((x) => x > 0);
  if (alone) for (const p of scn.ports) writePortKernels(w, L, scn, at, polls, [p]);
  else writePortKernels(w, L, scn, at, polls, scn.ports);
  return { bytes: core.u8.slice(at, at + scn.ports.length * L.SP_SIZE), L };
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
    const { bytes, L } = portRecords(scn, false);
    const block = (p: number) => Buffer.from(bytes.subarray(p * L.SP_SIZE + L.SP_ETS, p * L.SP_SIZE + L.SP_CP + 8 * L.QCN_CP_SIZE));
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
