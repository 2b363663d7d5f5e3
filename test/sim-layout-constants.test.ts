// The simulator's layout constants come from a module the build generates from the core
// (host/sim/layout-constants.ts, written by scripts/layout-h.mjs), not from the core's globals at
// run time. Held here to the core itself: every flavour's exported constants, name for name and
// value for value, and the driver's object (buildFabric's `L`) falling back to the core it runs
// for the static regions' addresses, which differ between flavours, and for a name no core exports.
import { describe, expect, it } from 'vitest';
import { Core, type CoreFlavour } from '../host/core/loader.js';
import { closScenario } from '../host/scenario/clos.js';
import { checkScenario } from '../host/scenario/scenario.js';
import { layoutConstants, STATIC_REGIONS } from '../host/sim/layout-constants.js';
import { buildFabric } from '../host/sim/run.js';

/** Every constant `core` exports (immutable globals named in capitals), as the host once read them all. */
function exportedConstants(core: Core): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, g] of Object.entries(core.exports)) if (g instanceof WebAssembly.Global && /^[A-Z]/.test(name)) out.set(name, Number(g.value));
  return out;
}

const flavours: CoreFlavour[] = ['release', 'shared', 'debug'];

describe('generated layout constants', () => {
  const generated = new Map(Object.entries(layoutConstants({})));

  it.each(flavours)('equal the %s core\'s exports, but for the static regions', (flavour) => {
    const exported = exportedConstants(new Core(flavour));
    expect(exported.size).toBeGreaterThan(400);
    for (const name of STATIC_REGIONS) {
      expect(exported.has(name), name).toBe(true);
      exported.delete(name);
    }
    expect([...generated.keys()].sort()).toEqual([...exported.keys()].sort());
    for (const [name, value] of exported) expect(generated.get(name), name).toBe(value);
  });

  it('hold no static region, and each call gives a fresh object', () => {
    for (const name of STATIC_REGIONS) expect(generated.has(name), name).toBe(false);
    const a = layoutConstants({});
    a.SP_SIZE = -1;
    expect(layoutConstants({}).SP_SIZE).toBe(generated.get('SP_SIZE'));
  });

  it.each(['release', 'debug'] as const)('a %s fabric reads the static regions from its own core and names a missing constant', (flavour) => {
    const fab = buildFabric(checkScenario(closScenario({ k: 4, flows: 4, duration: '1us' })), flavour);
    const core = exportedConstants(fab.core);
    for (const name of STATIC_REGIONS) expect(fab.L[name], name).toBe(core.get(name));
    expect(fab.L.SP_SIZE).toBe(core.get('SP_SIZE'));
    expect(Object.prototype.hasOwnProperty.call(fab.L, 'SP_SIZE')).toBe(true);
    expect(() => fab.L.NO_SUCH_CONSTANT).toThrow(/core has no exported constant NO_SUCH_CONSTANT/);
    fab.close();
  });
});
