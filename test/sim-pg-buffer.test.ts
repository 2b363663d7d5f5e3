// `buffer.pg_buffer` (host/scenario/scenario.ts splitPgBuffer): one buffer figure per lossless
// (port, priority group) that means the same for every mechanism, so one sweep can compare them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../host/errors/errors.js';
import { checkScenario, splitPgBuffer, type FlowControlMode } from '../host/scenario/scenario.js';

const modes = (m: FlowControlMode): FlowControlMode[] => ['lossy', 'lossy', 'lossy', m, 'lossy', 'lossy', 'lossy', 'lossy'];

// h0 -(2 km)- sw -(10 m)- h1 at 10 Gb/s, MTU 1518: `dcbkit headroom` gives 34,496 B for the 2 km
// port (25,000 B of it the cable's round trip at 5 ns/m) and 9,621 B for the 10 m one.
const NEED_2KM = 34_496;
/** Sizes carry their unit in a scenario (docs/units.md): the byte figures below are written with B. */
const withUnits = (b: Record<string, unknown>) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, typeof v === 'number' && ['pg_buffer', 'headroom', 'xoff', 'xon'].includes(k) ? `${v}B` : v]));
function doc(mode: FlowControlMode, buffer: Record<string, unknown>): unknown {
  return {
    name: 'pg', duration: '10us',
    flow_control: modes(mode),
    defaults: {
      link: { speed: '10G', cable: '10m' }, buffer: { size: '4MB', ...withUnits(buffer) },
      dcb: { port: { mtu: 1518 }, ets: { prio_tc: [0, 1, 2, 3, 4, 5, 6, 7], tsa: ['ets', 'ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict'], bw: [25, 25, 25, 25, 0, 0, 0, 0] } },
    },
    hosts: [{ name: 'h0' }, { name: 'h1' }],
    switches: [{ name: 'sw' }],
    links: [{ a: 'h0', b: 'sw', cable: '2km' }, { a: 'sw', b: 'h1' }],
    traffic: { flows: [{ src: 'h0', dst: 'h1', priority: 3 }] },
  };
}
const swBuffer = (d: unknown) => checkScenario(d).nodes.find((n) => n.name === 'sw')!.buffer!;

describe('pg_buffer', () => {
  it('XON/XOFF: the headroom the node needs first, the rest below XOFF; every PG holds pg_buffer', () => {
    // 2.5 BDP of 25,000 B: headroom 34,496 B (the larger of the two ports' needs), xoff the rest,
    // XON 2 MTU below it.
    expect(swBuffer(doc('pfc', { pg_buffer: 62_500 }))).toMatchObject({ headroom: [NEED_2KM, NEED_2KM], xoff: 62_500 - NEED_2KM, xon: 62_500 - NEED_2KM - 2 * 1518 });
    // Below the lossless minimum all of it is headroom and XOFF goes at the first byte.
    expect(swBuffer(doc('pause', { pg_buffer: 12_500 }))).toMatchObject({ headroom: [12_500, 12_500], xoff: 0, xon: 0 });
    // An explicit headroom is what losslessness needs, instead of the calculator's figure.
    expect(swBuffer(doc('pfc', { pg_buffer: 50_000, headroom: 30_000 }))).toMatchObject({ headroom: [30_000, 30_000], xoff: 20_000 });
  });

  it('credit: the receiver grants from the whole buffer (the port headroom record)', () => {
    const b = swBuffer(doc('credit', { pg_buffer: 31_250, headroom: 30_000 }));
    expect(b.headroom).toEqual([31_250, 31_250]);
  });

  it('property: headroom + xoff = pg_buffer, headroom = min(pg_buffer, the largest need)', () => {
    fc.assert(fc.property(fc.nat(1 << 24), fc.array(fc.nat(1 << 20), { minLength: 1, maxLength: 8 }), fc.constantFrom<FlowControlMode>('pfc', 'pause'), (pg, need, m) => {
      const s = splitPgBuffer(pg, need, modes(m));
      if (typeof s === 'string') return false;
      return s.headroom + s.xoff! === pg && s.headroom === Math.min(pg, Math.max(...need)) && s.xoff! >= 0;
    }));
  });

  it('refuses pg_buffer with xoff, and on a switch running credit beside PFC', () => {
    const problems = (d: unknown) => {
      try { checkScenario(d); } catch (e) { if (e instanceof InputError) return e.message; throw e; }
      return '';
    };
    expect(problems(doc('pfc', { pg_buffer: 50_000, xoff: 10_000 }))).toMatch(/^defaults\.buffer\.xoff: give xoff or pg_buffer, not both/m);
    const mixed = doc('pfc', { pg_buffer: 50_000 }) as { flow_control: FlowControlMode[] };
    mixed.flow_control[2] = 'credit';
    expect(problems(mixed)).toMatch(/^defaults\.buffer\.pg_buffer: pg_buffer is split one way per switch/m);
  });
});
