// Host view of one PFC port record in the core (assembly/pfc.ts): set-up, single events and a
// snapshot of the whole record read zero-copy through the layout constants. Used by the golden
// vectors, the tests and the simulator's set-up code; the per-packet path stays inside the core.
import { Core } from './loader.js';
import { PORT_UNIT, writePfcParams, type PfcParams } from './kernels/pfc.js';

export type { PfcMode } from './codes.js';
export { PORT_UNIT };
/** A port's PFC parameters (host/core/kernels/pfc.ts). */
export type PfcPortConfig = PfcParams;

/** Every field of the record, as plain numbers (i64 fields are exact below 2^53). */
export interface PfcSnapshot {
  occ: number[];
  xoff_state: number;
  pending: number;
  tx_times: number[];
  next_refresh_ps: number[];
  paused_until_ps: number[];
  paused_ps: number[];
  blocked: number;
  xoff_tx: number[];
  xon_tx: number[];
  xoff_rx: number[];
  xon_rx: number[];
  drops: number[];
  drop_bytes: number[];
  rx_ignored: number;
}

const NEVER = (1n << 63n) - 1n;

export class PfcPort {
  readonly core: Core;
  readonly rec: number;
  private readonly timesPtr: number;
  private readonly c: (name: string) => number;

  /** Places the record at `rec` (default: the start of the core's scratch region). */
  constructor(core: Core, cfg: PfcPortConfig, rec?: number) {
    this.core = core;
    this.c = (name) => core.constant(name);
    this.rec = rec ?? core.constant('SCRATCH');
    this.timesPtr = this.rec + this.c('PFC_SIZE');
    writePfcParams(core, this.rec, cfg);
    core.fn<(r: number) => void>('pfcConfigure')(this.rec);
  }

  get quantumPs(): bigint { return this.core.getI64(this.rec + this.c('PFC_QUANTUM_PS')); }
  get refreshPs(): bigint { return this.core.getI64(this.rec + this.c('PFC_REFRESH_PS')); }

  arrive(prio: number, bytes: number, nowPs: bigint): boolean {
    return this.core.fn<(r: number, p: number, b: number, t: bigint) => number>('pfcArriveOne')(this.rec, prio, bytes, nowPs) === 1;
  }

  depart(prio: number, bytes: number): void {
    this.core.fn<(r: number, p: number, b: number) => void>('pfcDepartOne')(this.rec, prio, bytes);
  }

  /** Takes the pending frame: mask (bits 0..7 PFC priorities, bit 8 PAUSE) and the 9 time fields. */
  takePending(): { mask: number; times: number[] } {
    const times = this.unitI32('PFC_TX_TIME');
    const mask = this.core.fn<(r: number) => number>('pfcTakePendingOne')(this.rec);
    return { mask, times: times.map((t, u) => ((mask >> u) & 1 ? t : 0)) };
  }

  /** Earliest refresh deadline, or null when no unit is in XOFF state. */
  nextRefresh(): bigint | null {
    const t = this.core.fn<(r: number) => bigint>('pfcNextRefresh')(this.rec);
    return t === NEVER ? null : t;
  }

  refreshDue(nowPs: bigint): number {
    return this.core.fn<(r: number, t: bigint) => number>('pfcRefreshDue')(this.rec, nowPs);
  }

  /** Receives a PFC frame: enable vector (bits 0..7) and eight time fields. */
  receivePfc(enable: number, times: number[], nowPs: bigint): void {
    const u8 = this.core.u8;
    for (let n = 0; n < 8; n++) {
      u8[this.timesPtr + 2 * n] = times[n] & 0xff; // little-endian u16, the core's byte order
      u8[this.timesPtr + 2 * n + 1] = (times[n] >> 8) & 0xff;
    }
    this.core.fn<(r: number, e: number, p: number, t: bigint) => void>('pfcReceivePfc')(this.rec, enable, this.timesPtr, nowPs);
  }

  receivePause(quanta: number, nowPs: bigint): void {
    this.core.fn<(r: number, q: number, t: bigint) => void>('pfcReceivePause')(this.rec, quanta, nowPs);
  }

  blocked(nowPs: bigint): number {
    return this.core.fn<(r: number, t: bigint) => number>('pfcBlockedMaskOne')(this.rec, nowPs);
  }

  pausedPs(unit: number, nowPs: bigint): bigint {
    return this.core.fn<(r: number, u: number, t: bigint) => bigint>('pfcPausedPs')(this.rec, unit, nowPs);
  }

  /** Pending mask (not taken): bits 0..7 PFC priorities, bit 8 PAUSE. */
  pendingMask(): number {
    return this.core.getI32(this.rec + this.c('PFC_PENDING'));
  }

  /** Egress: the time unit u's pause ends, ps. */
  pausedUntil(unit: number): bigint {
    return this.core.getI64(this.rec + this.c('PFC_PAUSED_UNTIL') + 8 * unit);
  }

  occupancy(unit: number): number {
    return this.core.getI32(this.rec + this.c('PFC_OCC') + 4 * unit);
  }

  private unitI32(field: string): number[] {
    const base = this.rec + this.c(field);
    return Array.from({ length: 9 }, (_, u) => this.core.getI32(base + 4 * u));
  }

  private unitI64(field: string): number[] {
    const base = this.rec + this.c(field);
    return Array.from({ length: 9 }, (_, u) => Number(this.core.getI64(base + 8 * u)));
  }

  /** The whole record at `nowPs` (paused_ps includes the running interval; next refresh -1 when none). */
  snapshot(nowPs: bigint): PfcSnapshot {
    const nextBase = this.rec + this.c('PFC_NEXT_REFRESH');
    return {
      occ: this.unitI32('PFC_OCC'),
      xoff_state: this.core.getI32(this.rec + this.c('PFC_XOFF_STATE')),
      pending: this.core.getI32(this.rec + this.c('PFC_PENDING')),
      tx_times: this.unitI32('PFC_TX_TIME'),
      next_refresh_ps: Array.from({ length: 9 }, (_, u) => {
        const t = this.core.getI64(nextBase + 8 * u);
        return t === NEVER ? -1 : Number(t);
      }),
      paused_until_ps: this.unitI64('PFC_PAUSED_UNTIL'),
      paused_ps: Array.from({ length: 9 }, (_, u) => Number(this.pausedPs(u, nowPs))),
      blocked: this.blocked(nowPs),
      xoff_tx: this.unitI64('PFC_XOFF_TX'),
      xon_tx: this.unitI64('PFC_XON_TX'),
      xoff_rx: this.unitI64('PFC_XOFF_RX'),
      xon_rx: this.unitI64('PFC_XON_RX'),
      drops: this.unitI64('PFC_DROPS'),
      drop_bytes: this.unitI64('PFC_DROP_BYTES'),
      rx_ignored: Number(this.core.getI64(this.rec + this.c('PFC_RX_IGNORED'))),
    };
  }
}
