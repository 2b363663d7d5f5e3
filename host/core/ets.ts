// Host side of ETS (802.1Qaz, assembly/ets.ts): the `ets` config section's schema and a harness
// that owns per-TC FIFOs of frame sizes in JS and asks the core's ETS record which TC sends next.
// Used by `dcbkit vectors ets` and the tests; the port pipeline (assembly/port.ts) keeps its
// queues in Wasm memory instead.
import type { z } from 'zod';
import { etsTablesSchema } from '../config/schema.js';
import type { Core } from './loader.js';

import { TSA_CODE, TSA_NAMES, WIRE_OVERHEAD, type TsaName } from './codes.js';

export { TSA_CODE, TSA_NAMES, type TsaName };

/** The pinned `ets` keys (docs/design.md §5) with the 802.1Qaz rules on bandwidth: the config's own rule. */
export const etsConfigSchema = etsTablesSchema;
export type EtsConfig = z.output<typeof etsConfigSchema>;

/** Writes the config bytes into the ETS record at `rec` and lets the core derive quanta. */
export function loadEtsConfig(core: Core, rec: number, cfg: EtsConfig, maxFrame: number): void {
  const u8 = core.u8;
  const at = (name: string) => rec + core.constant(name);
  for (let i = 0; i < 8; i++) {
    u8[at('ETS_PRIO_TC') + i] = cfg.prio_tc[i];
    u8[at('ETS_TSA') + i] = TSA_CODE[cfg.tsa[i]];
    u8[at('ETS_BW') + i] = cfg.bw[i];
  }
  core.fn<(r: number, m: number) => void>('etsConfigure')(rec, maxFrame);
}

export interface EtsSnapshot {
  cur: number;
  q_unit: number;
  quantum: number[];
  deficit: number[];
}

/** One ETS record in the scratch region plus host FIFOs (frame bytes per TC). */
export class EtsHarness {
  readonly rec: number;
  readonly head: number;
  readonly queues: number[][] = Array.from({ length: 8 }, () => []);
  blocked = 0;
  private readonly select: (r: number, backlog: number, blocked: number, head: number) => number;
  private readonly emptied: (r: number, tc: number) => void;

  constructor(readonly core: Core, readonly cfg: EtsConfig, readonly maxFrame: number) {
    this.rec = core.constant('SCRATCH');
    this.head = this.rec + core.constant('ETS_BYTES');
    this.select = core.fn('etsSelectOne');
    this.emptied = core.fn('etsEmptiedOne');
    core.u8.fill(0, this.rec, this.head + 32);
    loadEtsConfig(core, this.rec, cfg, maxFrame);
  }

  /** Classifies and enqueues a frame; returns its TC. */
  enqueue(prio: number, bytes: number): number {
    const tc = this.cfg.prio_tc[prio];
    this.queues[tc].push(bytes);
    if (this.queues[tc].length === 1) this.core.setI32(this.head + 4 * tc, bytes + WIRE_OVERHEAD);
    return tc;
  }

  get backlog(): number {
    let m = 0;
    for (let tc = 0; tc < 8; tc++) if (this.queues[tc].length) m |= 1 << tc;
    return m;
  }

  /** Selects and dequeues one frame; null when nothing is eligible. */
  transmit(): { tc: number; bytes: number } | null {
    const tc = this.select(this.rec, this.backlog, this.blocked, this.head);
    if (tc < 0) return null;
    const q = this.queues[tc];
    const bytes = q.shift()!;
    if (q.length) this.core.setI32(this.head + 4 * tc, q[0] + WIRE_OVERHEAD);
    else {
      this.core.setI32(this.head + 4 * tc, 0);
      this.emptied(this.rec, tc);
    }
    return { tc, bytes };
  }

  snapshot(): EtsSnapshot {
    const c = this.core;
    const f = (name: string) => this.rec + c.constant(name);
    return {
      cur: c.getI32(f('ETS_CUR')),
      q_unit: c.getI32(f('ETS_Q_UNIT')),
      quantum: Array.from({ length: 8 }, (_, i) => c.getI32(f('ETS_QUANTUM') + 4 * i)),
      deficit: Array.from({ length: 8 }, (_, i) => c.getI32(f('ETS_DEFICIT') + 4 * i)),
    };
  }
}
