// CEE DCBX 1.01 state machines ("DCB Capability Exchange Protocol Base Specification Rev 1.01"
// §2.4.2 control, §2.4.3 feature, §3.x.3 comparison; lldpad dcb_protocol.c run_control_protocol,
// run_feature_protocol, LocalPeerCompatible; intel/openlldp dcb_protocol.c).
//
// Control state, one per port: oper/max version (0), SeqNo, AckNo, MyAckNo (the peer's last AckNo).
//   local change: only when SeqNo == MyAckNo (our last change was acknowledged), then SeqNo++ and
//     transmit; otherwise the change waits (pendingChange) until the acknowledgement arrives.
//   peer control TLV: (1) Oper != min(Max, peer Max): set it, transmit; (2) Oper != peer Oper: wait;
//     (3) MyAckNo := peer AckNo; if AckNo != peer SeqNo: AckNo := peer SeqNo, transmit.
//   peer expired: SeqNo = AckNo = MyAckNo = 0, Oper = Max.
// Feature state, per PG / PFC / App (Enable, Willing, Error; OperMode = "running the peer-agreed
// parameters"), evaluated only once the peer has acknowledged our SeqNo:
//   peer TLV absent -> local, Error = 1; either Enable = 0 -> local;
//   local willing, peer not -> peer's parameters if peer Error = 0;
//   local not willing, peer willing -> local;
//   same willing -> local, and if incompatible Error = 1 (mismatch; CEE has no MAC tie-break).
//   Compatible: PG always (asymmetric); PFC admin bitmaps equal; App entries equal.
import type { CeeApp, CeeControl, CeeFeatureHeader, CeePfc, CeePg, CeeTlv } from './cee.js';
import type { AppEntry } from './ieee.js';
import type { Mismatch } from './negotiate-ieee.js';

export class CeeControlMachine {
  operVersion = 0;
  readonly maxVersion = 0;
  seq = 0;
  ack = 0;
  myAck = 0;
  pendingChange = false;

  /** A local configuration change (including the first one); true = transmit now. */
  localChange(): boolean {
    if (this.seq === this.myAck) {
      this.seq = (this.seq + 1) >>> 0 || 1; // SeqNo 0 means "no configuration yet"
      this.pendingChange = false;
      return true;
    }
    this.pendingChange = true;
    return false;
  }

  onPeerControl(peer: CeeControl): boolean {
    const oper = Math.min(this.maxVersion, peer.max_version);
    if (this.operVersion !== oper) {
      this.operVersion = oper;
      return true;
    }
    if (this.operVersion !== peer.oper_version) return false;
    this.myAck = peer.ack;
    let tx = false;
    if (this.ack !== peer.seq) {
      this.ack = peer.seq;
      tx = true;
    }
    if (this.pendingChange && this.seq === this.myAck) tx = this.localChange() || tx;
    return tx;
  }

  onPeerExpired(): void {
    this.seq = 0;
    this.ack = 0;
    this.myAck = 0;
    this.operVersion = this.maxVersion;
    this.pendingChange = false;
  }

  /** Our last change has been acknowledged by the peer. */
  acknowledged(): boolean {
    return this.seq !== 0 && this.myAck === this.seq;
  }

  control(): CeeControl {
    return { oper_version: this.operVersion, max_version: this.maxVersion, seq: this.seq, ack: this.ack };
  }
}

export interface CeeAdmin {
  pg: { willing: boolean; prio_pgid: number[]; pg_bw: number[] };
  pfc: { willing: boolean; enable: number[] };
  app: { willing: boolean; entries: AppEntry[] };
}

export interface CeeFeatureResult<T> {
  operational: T;
  oper_mode: boolean;
  error: boolean;
  /** Why: absent | disabled | adopted | local | mismatch | waiting */
  result: string;
}

export interface CeeResolution {
  pg: CeeFeatureResult<{ prio_pgid: number[]; pg_bw: number[] }>;
  pfc: CeeFeatureResult<{ enable: number[] }>;
  app: CeeFeatureResult<AppEntry[]>;
  mismatches: Mismatch[];
}

/** App entries of a CEE App sub-TLV in the config's form (one entry per priority bit). */
export function ceeAppEntries(app: CeeApp): AppEntry[] {
  return app.app.flatMap((e) => e.priorities.map((priority) => ({ selector: e.selector === 'ethertype' ? ('ethertype' as const) : e.selector === 'port' ? ('any' as const) : e.selector, protocol: e.protocol, priority })));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function feature<T>(
  local: { willing: boolean; value: T },
  peer: (CeeFeatureHeader & { value: T }) | undefined,
  compatible: (a: T, b: T) => boolean,
  name: Mismatch['feature'],
  mismatches: Mismatch[],
): CeeFeatureResult<T> {
  if (!peer) return { operational: local.value, oper_mode: false, error: true, result: 'absent' };
  if (!peer.enable) return { operational: local.value, oper_mode: false, error: false, result: 'disabled' };
  if (local.willing && !peer.willing) {
    return peer.error
      ? { operational: local.value, oper_mode: false, error: false, result: 'local' }
      : { operational: peer.value, oper_mode: true, error: false, result: 'adopted' };
  }
  if (!local.willing && peer.willing) return { operational: local.value, oper_mode: !peer.error, error: false, result: 'local' };
  if (compatible(local.value, peer.value)) return { operational: local.value, oper_mode: !peer.error, error: false, result: 'local' };
  mismatches.push({ feature: name, local: local.value, peer: peer.value, rule: `CEE ${name.toUpperCase()} must match when both sides are ${local.willing ? '' : 'not '}willing` });
  return { operational: local.value, oper_mode: false, error: true, result: 'mismatch' };
}

/** Resolves the three features against the peer's CEE TLV (undefined = the peer sent none). */
export function resolveCee(admin: CeeAdmin, peer: CeeTlv | undefined): CeeResolution {
  const mismatches: Mismatch[] = [];
  const pgPeer = peer?.pg as CeePg | undefined;
  const pfcPeer = peer?.pfc as CeePfc | undefined;
  const appPeer = peer?.app;
  const pg = feature(
    { willing: admin.pg.willing, value: { prio_pgid: admin.pg.prio_pgid, pg_bw: admin.pg.pg_bw } },
    pgPeer && { ...pgPeer, value: { prio_pgid: pgPeer.prio_pgid, pg_bw: pgPeer.pg_bw } },
    () => true,
    'pg',
    mismatches,
  );
  const pfc = feature(
    { willing: admin.pfc.willing, value: { enable: [...admin.pfc.enable].sort((a, b) => a - b) } },
    pfcPeer && { ...pfcPeer, value: { enable: pfcPeer.enable_prios } },
    (a, b) => same(a.enable, b.enable),
    'pfc',
    mismatches,
  );
  const app = feature(
    { willing: admin.app.willing, value: admin.app.entries },
    appPeer && { ...appPeer, value: ceeAppEntries(appPeer) },
    (a, b) => same(a, b),
    'app',
    mismatches,
  );
  return { pg, pfc, app, mismatches };
}
