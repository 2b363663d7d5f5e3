// The packet pool of a short run (host/sim/fabric-plan.ts arrivalsWithin): a switch holds at most
// the frames its links can deliver during the run, so a run of a few microseconds gets far fewer
// records than its buffers could hold. Held here to the pool sized by the buffers alone: the same
// scenario planned for a long run and stopped at the short run's end must have simulated exactly
// the same (every counter of the run, every flow's sent and delivered bytes), and no frame may
// have gone without a record. A bound that was too small shows as pool exhaustion and a difference.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkScenario, loadScenario, type Scenario } from '../host/scenario/scenario.js';
import { closScenario } from '../host/scenario/clos.js';
import { buildFabric, planFabric } from '../host/sim/fabric.js';

const LONG_PS = 10_000_000_000; // 10 ms: every switch's arrivals exceed its buffer, the old sizing

/** What the engine did up to tPs: the counters block and each flow's sent and delivered bytes. */
function stateAt(scn: Scenario, tPs: number): { counters: number[]; flows: number[]; exhausted: number } {
  const fab = buildFabric(scn);
  fab.runUntil(tPs);
  const { L } = fab;
  const counters = Array.from({ length: L.SC_SIZE / 8 }, (_, i) => fab.r64(fab.addr.counters + 8 * i));
  const flows = scn.flows.flatMap((f) => [fab.r64(fab.flowAt(f.id) + L.SF_SENT), fab.r64(fab.flowAt(f.id) + L.SF_DELIV)]);
  const exhausted = fab.r64(fab.addr.counters + L.SC_POOL_EXHAUSTED);
  fab.close();
  return { counters, flows, exhausted };
}

const examples = readdirSync('examples', { withFileTypes: true }).filter((d) => d.isDirectory())
  .flatMap((d) => readdirSync(`examples/${d.name}`).filter((f) => f.endsWith('.yaml')).map((f) => `examples/${d.name}/${f}`))
  .filter((f) => /^links:/m.test(readFileSync(f, 'utf8')));

/**
 * 16:1 incast of 64-byte frames, lossy, into a 16 MB buffer: the switch queues nearly every frame
 * its 16 ingress links deliver, so its records, not the pool's per-port allowances, fill the pool.
 */
function smallFrameIncast(): Scenario {
  const senders = Array.from({ length: 16 }, (_, i) => `h${i + 1}`);
  return checkScenario({
    name: 'incast-64B', seed: 1, duration: '1ms', sample: '1us',
    defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '16MB', headroom: 'auto' } },
    hosts: [{ name: 'h0' }, ...senders.map((name) => ({ name }))], switches: [{ name: 'sw0' }],
    links: ['h0', ...senders].map((h) => ({ a: h, b: 'sw0' })),
    traffic: { incast: [{ senders, dst: 'h0', priority: 0, frames: 64 }] },
  });
}

describe('the packet pool of a short run', () => {
  const cases: [string, () => Scenario][] = [
    ['16:1 incast of 64-byte frames', smallFrameIncast],
    ...examples.map((f): [string, () => Scenario] => [f, () => loadScenario(f)]),
    ...(['random', 'permutation', 'incast'] as const).map((pattern): [string, () => Scenario] =>
      [`gen clos k = 4 ${pattern}`, () => checkScenario(closScenario({ k: 4, flows: pattern === 'incast' ? 15 : 16, duration: '1ms', pattern, seed: 1 }))]),
  ];
  for (const [name, make] of cases) {
    it(`simulates what the buffer-sized pool does: ${name}`, () => {
      const base = make();
      for (const shortPs of [1_000_000, 7_000_000, 20_000_000]) {
        const short = { ...base, duration_ps: shortPs };
        const long = { ...base, duration_ps: LONG_PS };
        expect(planFabric(short).poolRecords).toBeLessThanOrEqual(planFabric(long).poolRecords);
        const got = stateAt(short, shortPs);
        expect(got.exhausted).toBe(0);
        expect(got).toEqual(stateAt(long, shortPs));
      }
    });
  }

  it('is smaller than the buffers could hold on a 1-us fat tree, and the same on a long one', () => {
    const tree = checkScenario(closScenario({ k: 8, flows: 128, duration: '1us', pattern: 'permutation', seed: 1 }));
    const short = planFabric(tree);
    const long = planFabric({ ...tree, duration_ps: LONG_PS });
    expect(short.poolRecords * 5).toBeLessThan(long.poolRecords);
    expect(short.arenaBytes).toBeLessThan(16 * 2 ** 20);
  });
});
