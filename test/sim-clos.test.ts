// A 980-switch 3-tier Clos (k = 28 fat tree, 5,488 hosts, 32,928 ports) builds and runs in a fixed
// arena: linear memory is reserved once at build and never grows during the run; the arena stays
// far below the 2 GB budget (docs/sim.md reports the measured peak RSS).
import { describe, expect, it } from 'vitest';
import { closScenario } from '../host/scenario/clos.js';
import { checkScenario } from '../host/scenario/scenario.js';
import { buildFabric } from '../host/sim/run.js';

describe('Clos memory', () => {
  it('k = 28 fat tree: 980 switches; memory does not grow while it runs; no lossless drops', () => {
    const scn = checkScenario(closScenario({ k: 28, flows: 300, duration: '10us' }));
    expect(scn.nodes.filter((n) => !n.isHost)).toHaveLength(5 * 28 * 28 / 4);
    const fab = buildFabric(scn);
    const before = fab.core.memoryBytes;
    expect(before).toBeLessThan(1024 ** 3);
    for (let t = 2e6; t <= 10e6; t += 2e6) fab.runUntil(t);
    expect(fab.core.memoryBytes).toBe(before);
    const c = (f: number) => Number(fab.core.i64[(fab.addr.counters + f) >>> 3]);
    expect(c(fab.L.SC_HOPS)).toBeGreaterThan(10_000);
    expect(c(fab.L.SC_DROP_LOSSLESS)).toBe(0);
  }, 60_000);
});
