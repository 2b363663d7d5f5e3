// The load the DPDK tests drive through both schedulers, and dcbkit's ETS model under it.
//
// A load is one flow per 802.1Qaz TC in use: either saturated (always backlogged) or byte-clocked
// at an offered share in parts per million of the wire bytes sent (after each sent frame of W
// wire bytes the flow earns ppm x W credit and queues a frame per (frame + 20) x 10^6 of credit).
// test/c/dpdk_sched_harness.c runs the same rule against rte_sched; here dcbkit's ETS kernel
// (assembly/ets.ts through host/core/ets.ts EtsHarness) picks the next frame. Frames are counted after
// `warmup` sent frames, for `packets` frames, in wire bytes (frame + 20).
import { Core } from '../../host/core/loader.js';
import { EtsHarness, type EtsConfig } from '../../host/core/ets.js';
import { WIRE_OVERHEAD } from '../../host/core/codes.js';

export interface LoadFlow {
  /** 802.1Qaz TC of the flow, and a priority that maps to it. */
  tc: number;
  priority: number;
  /** Frame bytes, FCS included (the config's unit). */
  frame: number;
  /** 'sat' or offered ppm of the wire bytes sent. */
  load: 'sat' | number;
}

export interface LoadResult {
  /** Wire bytes per flow (same order), and in all. */
  wireBytes: number[];
  total: number;
}

export const PPM = 1_000_000;

let core: Core | undefined;

/** dcbkit's ETS model under `flows` (see the header). */
export function runModel(ets: EtsConfig, mtu: number, flows: LoadFlow[], warmup: number, packets: number): LoadResult {
  core ??= new Core('release');
  const h = new EtsHarness(core, ets, mtu);
  const credit = flows.map(() => 0);
  const wireBytes = flows.map(() => 0);
  const byTc = new Map(flows.map((f, i) => [f.tc, i]));
  const topUp = () => {
    flows.forEach((f, i) => {
      if (f.load === 'sat') while (h.queues[f.tc].length < 2) h.enqueue(f.priority, f.frame);
      else {
        const need = (f.frame + WIRE_OVERHEAD) * PPM;
        while (credit[i] >= need) {
          credit[i] -= need;
          h.enqueue(f.priority, f.frame);
        }
      }
    });
  };
  let total = 0;
  topUp();
  for (let sent = 0; sent < warmup + packets; sent++) {
    const tx = h.transmit();
    if (!tx) throw new Error('the ETS model sent nothing although a flow is saturated');
    const wire = tx.bytes + WIRE_OVERHEAD;
    if (sent >= warmup) {
      wireBytes[byTc.get(tx.tc)!] += wire;
      total += wire;
    }
    flows.forEach((f, i) => {
      if (f.load !== 'sat') credit[i] += f.load * wire;
    });
    topUp();
  }
  return { wireBytes, total };
}

/** Shares in percent of each flow. */
export const sharesOf = (r: LoadResult): number[] => r.wireBytes.map((b) => (100 * b) / r.total);
