// A switch's auto headroom (checkScenario's sizeBuffers) is computed once per distinct (speed,
// cable, MTU) and shared by the ports that repeat it: each port must still get the calculator's
// figure for its own link, and a link the calculator refuses must still be named port by port.
import { describe, expect, it } from 'vitest';
import { computeHeadroom } from '../host/analysis/headroom.js';
import { InputError } from '../host/errors/errors.js';
import { checkScenario } from '../host/scenario/scenario.js';

const PFC3 = ['lossy', 'lossy', 'lossy', 'pfc', 'lossy', 'lossy', 'lossy', 'lossy'];
const dcb = (mtu: number) => ({ port: { mtu }, pfc: { enable: [3] } });

/** Two switches of different MTUs, each with links that differ from one another in speed or cable only, and repeats. */
function doc(links: { a: string; b: string; speed?: string; cable?: string }[]): unknown {
  const hosts = [...new Set(links.flatMap((l) => [l.a, l.b]).filter((n) => n.startsWith('h')))];
  return {
    name: 'auto-headroom', duration: '1us', flow_control: PFC3,
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '16MB' }, dcb: dcb(9216) },
    hosts: hosts.map((name) => ({ name })),
    switches: [{ name: 'sw0' }, { name: 'sw1', dcb: dcb(1518) }],
    links,
  };
}

const LINKS = [
  { a: 'h0', b: 'sw0' }, { a: 'h1', b: 'sw0' }, // the defaults, twice
  { a: 'h2', b: 'sw0', cable: '300m' }, // cable only differs
  { a: 'h3', b: 'sw0', speed: '25G' }, // speed only differs
  { a: 'h4', b: 'sw0', speed: '25G', cable: '300m' },
  { a: 'sw0', b: 'sw1', cable: '2.5m' }, // a fraction of a metre, and the same link seen from sw1's MTU
  { a: 'h5', b: 'sw1' }, { a: 'h6', b: 'sw1', cable: '300m' },
];

describe('auto headroom per port', () => {
  it('each port gets the calculator\'s figure for its own speed, cable and its node\'s MTU', () => {
    const scn = checkScenario(doc(LINKS));
    const seen = new Set<number>();
    for (const name of ['sw0', 'sw1']) {
      const n = scn.nodes.find((x) => x.name === name)!;
      const expected = n.ports.map((pi) => {
        const p = scn.ports[pi];
        return computeHeadroom({ speedBps: p.bps, cableM: p.cable_m, mtu: n.dcb.mtu }).headroom_bytes;
      });
      expect(n.buffer!.headroom).toEqual(expected);
      expected.forEach((h) => seen.add(h));
    }
    // The figures do differ by speed, cable and MTU, so a key that left one of them out would fail above.
    expect(seen.size).toBeGreaterThanOrEqual(6);
  });

  it('a link the calculator refuses is reported at every port that has it, by name', () => {
    // 8 Gb/s is a whole number of ps per byte (the engine runs it) but not in the calculator's table.
    const bad = [{ a: 'h0', b: 'sw0', speed: '8G' }, { a: 'h1', b: 'sw0', speed: '8G' }, { a: 'h2', b: 'sw0' }, { a: 'sw0', b: 'sw1' }];
    let err: unknown;
    try {
      checkScenario(doc(bad));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const rules = (err as InputError).problems.filter((p) => p.path === 'defaults.buffer.headroom').map((p) => p.rule);
    expect(rules).toHaveLength(2);
    expect(rules[0]).toMatch(/^auto headroom for sw0>h0: must be one of .*100G/);
    expect(rules[1]).toMatch(/^auto headroom for sw0>h1: /);
    expect(rules[1].slice(rules[1].indexOf(':'))).toBe(rules[0].slice(rules[0].indexOf(':')));
  });
});
