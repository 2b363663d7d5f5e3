// dcbkit's fabric simulator against ns-3 3.37 (docs/sim.md, "Validation against ns-3").
import { beforeAll, describe, expect, it } from 'vitest';
import { checkScenario, type ScenarioInput } from '../host/sim/scenario.js';
import { runScenario } from '../host/sim/run.js';
import { buildNs3Peer, runNs3, type Ns3Result } from './ns3/ns3-peer.js';

const LOSSY = Array(8).fill('lossy') as 'lossy'[];

let peer = '';
beforeAll(() => { peer = buildNs3Peer(); });

function both(doc: ScenarioInput) {
  const scn = checkScenario(doc);
  const dcb = runScenario(scn).summary;
  const ns3: Ns3Result = runNs3(peer, scn);
  return { scn, dcb, ns3 };
}

/** One switch, hosts h0..h{n-1}, 100G links of 10 m, lossy everywhere. */
function oneSwitch(hosts: number, flows: { src: number; dst: number; rate: string; start?: string }[], duration: string): ScenarioInput {
  const names = Array.from({ length: hosts }, (_, i) => `h${i}`);
  return {
    name: 'ns3-one-switch', seed: 1, duration, flow_control: LOSSY,
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '64MB', lossy_queue: 150_000 }, host_queue: 1_000_000 },
    hosts: names.map((name) => ({ name })), switches: [{ name: 'sw' }],
    links: names.map((a) => ({ a, b: 'sw' })),
    traffic: {
      flows: flows.map((f) => ({
        src: names[f.src], dst: names[f.dst], priority: 0, frames: 1500, rate: f.rate, ...(f.start ? { start: f.start } : {}),
        path: [names[f.src], 'sw', names[f.dst]],
      })),
    },
    series: { ports: [], flows: [] },
  };
}

describe('dcbkit against ns-3', () => {
  it('delivers the same bytes per flow on constant-rate, uncongested paths', () => {
    const { dcb, ns3 } = both(oneSwitch(6, [
      { src: 0, dst: 1, rate: '30G' }, { src: 2, dst: 3, rate: '45G', start: '3us' },
      { src: 4, dst: 5, rate: '20G' }, { src: 4, dst: 1, rate: '35G', start: '1us' },
    ], '1ms'));
    // Same frames at the same instants on every link: the same bytes, to the frame.
    expect(ns3.drops).toBe(0);
    expect(dcb.drops.lossy).toBe(0);
    expect(dcb.flows.map((f) => f.bytes_sent)).toEqual(ns3.flows.map((f) => f.sent_frames * ns3.frame));
    expect(dcb.flows.map((f) => f.bytes_delivered)).toEqual(ns3.flows.map((f) => f.delivered_bytes));
    // ... and not all of them, or the comparison would prove nothing about timing: some frames are
    // still on their way at the end.
    expect(dcb.flows.some((f) => f.bytes_delivered < f.bytes_sent)).toBe(true);
  });
});
