// Host side of the port pipeline (assembly/port.ts, docs/port.md): runs the seeded pipeline in a
// core instance and reads its counters through zero-copy views (layout globals PORT_*, PFC_*).
import type { Core } from './loader.js';

export interface PortStats {
  now_ps: bigint;
  rx_frames: bigint;
  tx_frames: bigint;
  tx_bytes: bigint;
  queue_drops: bigint;
  pfc_drops: bigint;
  pfc_rx: bigint;
  events_out: bigint;
  xoff_tx: bigint;
  xon_tx: bigint;
  cnms: bigint;
  queued_frames: number[];
  tc_tx_bytes: bigint[];
}

export function portRun(core: Core, seed: number, packets: number): void {
  core.fn<(s: number) => void>('portInit')(seed);
  core.fn<(n: number) => number>('portRun')(packets);
}

export function portChecksum(core: Core): number {
  return core.fn<() => number>('portChecksum')() >>> 0;
}

export function portStats(core: Core): PortStats {
  const base = core.constant('PORT');
  const k = (n: string) => base + core.constant(n);
  const pfc = k('PORT_PFC');
  const sum9 = (field: string) => {
    let s = 0n;
    for (let u = 0; u < 9; u++) s += core.getI64(pfc + core.constant(field) + 8 * u);
    return s;
  };
  let cnms = 0n;
  for (let tc = 0; tc < 8; tc++) cnms += core.getI64(k('PORT_CP') + tc * core.constant('QCN_CP_SIZE') + core.constant('QCN_CP_CNMS'));
  return {
    now_ps: core.getI64(k('PORT_NOW')),
    rx_frames: core.getI64(k('PORT_RX_FRAMES')),
    tx_frames: core.getI64(k('PORT_TX_FRAMES')),
    tx_bytes: core.getI64(k('PORT_TX_BYTES')),
    queue_drops: core.getI64(k('PORT_QUEUE_DROPS')),
    pfc_drops: sum9('PFC_DROPS'),
    pfc_rx: core.getI64(k('PORT_PFC_RX')),
    events_out: core.getI64(k('PORT_EVENTS_OUT')),
    xoff_tx: sum9('PFC_XOFF_TX'),
    xon_tx: sum9('PFC_XON_TX'),
    cnms,
    queued_frames: Array.from({ length: 8 }, (_, tc) => core.getI32(k('PORT_Q_COUNT') + 4 * tc)),
    tc_tx_bytes: Array.from({ length: 8 }, (_, tc) => core.getI64(k('PORT_TC_TX_BYTES') + 8 * tc)),
  };
}
