// Host view of one credit record in the core (assembly/credit.ts): one (link direction, priority,
// channel) flow with its sender and receiver halves, single events and a snapshot of every field.
import { Core } from './loader.js';
import { writeCreditParams, type CreditParams } from './kernels/credit.js';

/** One flow's credit parameters (host/core/kernels/credit.ts; defaults k 16, unit 64 B = 512 bits). */
export type CreditConfig = CreditParams;

export interface CreditSnapshot {
  tbs: number;
  fccl: number;
  abr: number;
  used_units: number;
  free_units: number;
  last_cl: number;
  available_units: number;
  grant_at_ps: number;
  sent_units: number;
  blocked: number;
  expired_units: number;
  grants_rx: number;
  recv_units: number;
  overrun_units: number;
  syncs_rx: number;
}

export class CreditFlow {
  readonly core: Core;
  readonly rec: number;
  private readonly off: (name: string) => number;

  constructor(core: Core, cfg: CreditConfig, rec?: number) {
    this.core = core;
    this.off = (name) => core.constant(`CREDIT_${name}`);
    this.rec = rec ?? core.constant('SCRATCH');
    writeCreditParams(core, this.rec, cfg);
    core.fn<(r: number) => void>('creditConfigure')(this.rec);
  }

  /** Sender: try to start a frame; returns the units consumed, 0 when blocked. */
  trySend(bytes: number, nowPs: bigint): number {
    return this.core.fn<(r: number, b: number, t: bigint) => number>('creditTrySendOne')(this.rec, bytes, nowPs);
  }

  /** Sender: a grant arrives. */
  onGrant(cl: number, nowPs: bigint): void {
    this.core.fn<(r: number, cl: number, t: bigint) => void>('creditOnGrant')(this.rec, cl, nowPs);
  }

  /** Sender: the TBS a sync carries. */
  syncValue(): number {
    return this.core.fn<(r: number) => number>('creditSyncValue')(this.rec);
  }

  /** Sender: apply aging at `nowPs`; returns the units dropped. */
  age(nowPs: bigint): number {
    return this.core.fn<(r: number, t: bigint) => number>('creditAgeOne')(this.rec, nowPs);
  }

  available(nowPs: bigint): number {
    return this.core.fn<(r: number, t: bigint) => number>('creditAvailable')(this.rec, nowPs);
  }

  /** Receiver: a data frame arrives; false when it found no room (overrun). */
  receive(bytes: number): boolean {
    return this.core.fn<(r: number, b: number) => number>('creditReceiveOne')(this.rec, bytes) === 1;
  }

  /** Receiver: a stored frame leaves the buffer. */
  drain(bytes: number): void {
    this.core.fn<(r: number, b: number) => void>('creditDrainOne')(this.rec, bytes);
  }

  /** Receiver: the CL of a grant sent now. */
  grantValue(): number {
    return this.core.fn<(r: number) => number>('creditGrantValue')(this.rec);
  }

  /** Receiver: a sync arrives. */
  onSync(tbs: number): void {
    this.core.fn<(r: number, tbs: number) => void>('creditOnSync')(this.rec, tbs);
  }

  private i32(name: string): number { return this.core.getI32(this.rec + this.off(name)); }
  private i64(name: string): number { return Number(this.core.getI64(this.rec + this.off(name))); }

  snapshot(nowPs: bigint): CreditSnapshot {
    const used = this.i32('USED');
    return {
      tbs: this.i32('TBS'),
      fccl: this.i32('FCCL'),
      abr: this.i32('ABR'),
      used_units: used,
      free_units: this.i32('CAPACITY') - used,
      last_cl: this.i32('LAST_CL'),
      available_units: this.available(nowPs),
      grant_at_ps: this.i64('GRANT_AT'),
      sent_units: this.i64('SENT_UNITS'),
      blocked: this.i64('BLOCKED'),
      expired_units: this.i64('EXPIRED_UNITS'),
      grants_rx: this.i64('GRANTS_RX'),
      recv_units: this.i64('RECV_UNITS'),
      overrun_units: this.i64('OVERRUN_UNITS'),
      syncs_rx: this.i64('SYNCS_RX'),
    };
  }
}
