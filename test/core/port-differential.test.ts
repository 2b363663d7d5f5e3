// Differential oracle (docs/design.md §3): the Wasm port pipeline (assembly/port.ts) and its C reference
// (bench/native/port.c over the C model's kernels in cmodel/, gcc -O2) process the same seeded arrivals and must end in the same state,
// compared through the same FNV-1a checksum over the port record, FIFO storage and event ring.
import { afterAll, describe, expect, it } from 'vitest';
import { buildNativePort, nativeChecksum } from '../../bench/native.js';
import { Core } from '../../host/core/loader.js';
import { portChecksum, portRun, portStats } from '../../host/core/port.js';
import { requireTool } from '../helpers.js';

requireTool('gcc');
const native = buildNativePort();
afterAll(() => native.dispose());

describe('port pipeline: Wasm vs the C reference', () => {
  it('same checksum after 10^6 seeded packets (seed 1), with every mechanism exercised', () => {
    const core = new Core('release');
    portRun(core, 1, 1_000_000);
    const s = portStats(core);
    // The run is not trivial: frames flow on every TC, PFC pauses, XOFFs, drops and CNMs happen.
    expect(s.rx_frames).toBeGreaterThan(990_000n); // ~1/512 of arrivals are PFC frames instead
    expect(s.pfc_rx).toBeGreaterThan(1000n);
    expect(s.xoff_tx).toBeGreaterThan(0n);
    expect(s.pfc_drops).toBeGreaterThan(0n);
    expect(s.cnms).toBeGreaterThan(0n);
    for (let tc = 0; tc < 4; tc++) expect(s.tc_tx_bytes[tc]).toBeGreaterThan(0n);
    expect(portChecksum(core)).toBe(nativeChecksum(native, 1, 1_000_000));
  });

  it('same checksum for other seeds and lengths, release and debug builds', () => {
    for (const [seed, packets] of [[2, 50_000], [0, 4097], [0xdeadbeef, 123_457]] as const) {
      const c = nativeChecksum(native, seed >>> 0, packets);
      for (const flavour of ['release', 'debug'] as const) {
        const core = new Core(flavour);
        portRun(core, seed | 0, packets);
        expect(portChecksum(core)).toBe(c);
      }
    }
  });
});
