// The driver's paused-time reader (host/sim/fabric.ts pausedPs), which the sampler, the deadlock
// watch and the summary ask per (port, priority): a unit that has obeyed no XOFF is read as zero
// without a call into the core. Held here to the PFC kernel's own pfcPausedPs (assembly/pfc.ts) for
// every port and priority at every sampling instant of runs that pause, in PFC and in PAUSE mode,
// so that a shortcut taken for a unit whose paused time is not zero fails.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../host/scenario/scenario.js';
import { buildFabric } from '../host/sim/run.js';

const STEP_PS = 20_000_000;
/** Each example to a time by which its links have paused (the storm's XOFF from 1 ms on). */
const RUNS: [string, number][] = [
  ['examples/pause-vs-pfc/scenario.yaml', 600_000_000],
  ['examples/pause-vs-pfc/pause.yaml', 600_000_000],
  ['examples/pfc-storm/scenario.yaml', 2_000_000_000],
];

describe('paused time read by the driver', () => {
  for (const [file, runPs] of RUNS) {
    it(`equals the kernel's pfcPausedPs on every port and priority: ${file}`, () => {
      const scn = loadScenario(file);
      const fab = buildFabric(scn);
      const { L, core } = fab;
      const kernel = core.fn<(rec: number, unit: number, now: bigint) => bigint>('pfcPausedPs');
      const pauseMode = scn.ports.map((p) => scn.nodes[p.node].modes.includes('pause'));
      let compared = 0, paused = 0, neverObeyed = 0;
      for (let t = STEP_PS; t <= runPs; t += STEP_PS) {
        fab.runUntil(t);
        for (const p of scn.ports) {
          for (let pr = 0; pr < 8; pr++) {
            const unit = pauseMode[p.id] ? L.PFC_PORT_UNIT : pr;
            const want = Number(kernel(fab.portAt(p.id) + L.SP_PFC, unit, BigInt(t)));
            const got = fab.pausedPs(p.id, t, pr);
            if (got !== want) expect({ port: p.name, pr, t, got }).toEqual({ port: p.name, pr, t, got: want });
            compared++;
            if (want > 0) paused++;
            if (fab.r64(fab.portAt(p.id) + L.SP_PFC + L.PFC_XOFF_RX + 8 * unit) === 0) neverObeyed++;
          }
        }
      }
      fab.close();
      // Both branches were taken: units that paused (the call into the core) and units that never did.
      expect(compared).toBe((runPs / STEP_PS) * scn.ports.length * 8);
      expect(paused).toBeGreaterThan(0);
      expect(neverObeyed).toBeGreaterThan(0);
    });
  }
});
