// The simulator port record's own fields (assembly/sim/layout.ts), read back from a run: each TC's
// queue record (SQ_*) and the head-frame sizes against the FIFO of packet records it heads, the
// port's queue series as the sum of its TCs' queues, and the frames sent per priority, which only a
// port with a PFC watchdog (their one reader) counts.
import { describe, expect, it } from 'vitest';
import { checkScenario, type ScenarioInput } from '../host/scenario/scenario.js';
import { buildFabric, runScenario } from '../host/sim/run.js';
import { dcbEts403020 } from './helpers.js';

const FRAME = 1500;
/** Priorities 0,1 -> TC0, 2,3 -> TC1, 4,5 -> TC2 (ETS 40/40/20), 6,7 -> TC3 strict; PFC on 3. */
const DCB = dcbEts403020(FRAME);

/**
 * h1..h4 -> h0 through sw, on priorities 0, 2, 3 and 6 (TCs 0, 1, 1, 3) (h4 at 20G, a strict TC, the others at line rate), so sw>h0
 * holds several TCs backlogged at once; sw has a watchdog, the hosts none.
 */
const doc: ScenarioInput = {
  duration: '60us', sample: '3us',
  defaults: { link: { speed: '100G', cable: '10m' }, buffer: { size: '1MB', headroom: 'auto', lossy_queue: '100KB' }, dcb: DCB },
  hosts: ['h0', 'h1', 'h2', 'h3', 'h4'].map((name) => ({ name })),
  switches: [{ name: 'sw', watchdog: { detection_time: '20us', restoration_time: '40us', poll_interval: '5us', action: 'drop' } }],
  links: ['h0', 'h1', 'h2', 'h3', 'h4'].map((h) => ({ a: h, b: 'sw' })),
  traffic: { flows: [
    { src: 'h1', dst: 'h0', priority: 0, frames: FRAME }, { src: 'h2', dst: 'h0', priority: 2, frames: FRAME },
    { src: 'h3', dst: 'h0', priority: 3, frames: FRAME }, { src: 'h4', dst: 'h0', priority: 6, frames: FRAME, rate: '20G' },
  ] },
};

describe('the port record', () => {
  const scn = checkScenario(doc);
  const bottleneck = scn.ports.findIndex((p) => p.name === 'sw>h0');

  it("each TC's queue record and head-frame size match the FIFO it heads, at every sample", () => {
    const fab = buildFabric(scn);
    const { L, r32, portAt } = fab;
    const pool = r32(fab.base + L.SH_POOL);
    const pkt = (k: number) => pool + k * L.SK_SIZE;
    const series = runScenario(scn).series.find((s) => s.name === 'queue sw>h0')!;
    expect(series.values.length).toBeGreaterThan(10);
    let backlogged = 0;
    series.t_ps.forEach((t, i) => {
      fab.runUntil(t);
      for (let p = 0; p < scn.ports.length; p++) {
        const pa = portAt(p);
        let portBytes = 0;
        for (let tc = 0; tc < 8; tc++) {
          const q = pa + L.SP_TCQ + tc * L.SQ_SIZE;
          let bytes = 0, last = -1;
          for (let k = r32(q + L.SQ_HEAD); k >= 0; k = r32(pkt(k) + L.SK_NEXT)) { bytes += r32(pkt(k) + L.SK_BYTES); last = k; }
          const head = r32(q + L.SQ_HEAD);
          expect(r32(q + L.SQ_TAIL)).toBe(last);
          expect(r32(q + L.SQ_BYTES)).toBe(bytes);
          expect((r32(pa + L.SP_BACKLOG) >> tc) & 1).toBe(head >= 0 ? 1 : 0);
          if (head >= 0) expect(r32(pa + L.SP_HEADWIRE + 4 * tc)).toBe(r32(pkt(head) + L.SK_BYTES) + L.WIRE_OVERHEAD);
          portBytes += bytes;
        }
        if (p === bottleneck) {
          expect(series.values[i]).toBe(portBytes);
          if (((r32(pa + L.SP_BACKLOG) - 1) & r32(pa + L.SP_BACKLOG)) !== 0) backlogged++;
        }
      }
    });
    // The check saw the bottleneck with two or more TCs queued, not only empty or single queues.
    expect(backlogged).toBeGreaterThan(5);
  });

  it('frames sent per priority are counted on watched ports only', () => {
    const fab = buildFabric(scn);
    const { L, r32, r64, portAt } = fab;
    fab.runUntil(scn.duration_ps);
    const wire = FRAME + L.WIRE_OVERHEAD;
    for (const port of scn.ports) {
      const pa = portAt(port.id);
      const watched = !scn.nodes[port.node].isHost;
      expect((r32(pa + L.SP_FLAGS) & L.SP_FLAG_WATCHED) !== 0).toBe(watched);
      const pkts = Array.from({ length: 8 }, (_, pr) => r64(pa + L.SP_TX_PKTS + 8 * pr));
      const txBytes = Array.from({ length: 8 }, (_, tc) => r64(pa + L.SP_TCQ + L.SQ_SIZE * tc + L.SQ_TX_BYTES));
      if (!watched) { expect(pkts).toEqual([0, 0, 0, 0, 0, 0, 0, 0]); continue; }
      if (port.id === bottleneck) expect(pkts.filter((n) => n > 0)).toHaveLength(4); // one per flow's priority
      // Every data frame is FRAME bytes: a TC's wire bytes are its priorities' frames times FRAME's wire size.
      const perTc = [0, 0, 0, 0, 0, 0, 0, 0];
      pkts.forEach((n, pr) => { perTc[fab.core.u8[pa + L.SP_ETS + L.ETS_PRIO_TC + pr]] += n * wire; });
      expect(perTc).toEqual(txBytes);
    }
  });
});
