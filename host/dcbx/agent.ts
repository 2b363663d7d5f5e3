// One DCBX port agent: the five-state machine of the DCBX white paper ("Data Center Bridging Exchange Protocol Technology", §2.1) (collect local configuration, advertise
// local configuration, collect peer configuration, update local configuration, monitor changes)
// over LLDP transmit and receive (IEEE 802.1AB-2016 clause 9, simplified as below), resolving
// with the IEEE (negotiate-ieee.ts) or CEE (negotiate-cee.ts) rules.
//
// State: admin config, the peer's last LLDPDU and its expiry time, the operational result, the CEE
// control machine, the LLDP transmit schedule (txFast fast transmissions left, next transmit time).
// LLDP timing: msgTxInterval between periodic LLDPDUs; on start, on a new neighbour and whenever
// what we advertise changes ("somethingChangedLocal") an LLDPDU goes out at once and the next
// txFastInit - 1 follow every msgFastTx; the peer's information ages out at last receipt + its TTL,
// and a TTL of 0 deletes it at once. (Transmit credit, reinitDelay and the 2016 rx state machine's
// too-many-neighbours handling are not modelled.)
// Invariants: operational = resolve(admin, current peer) after every state-machine run; the agent
// never transmits twice at the same instant.
import { ceeLldpdu, checkAdvertisable, ieeeLldpdu, localOperational, pgView, appEntries, type DcbxMode, type DcbxPortConfig, type Operational } from './advertise.js';
import type { CeeTlv } from './cee.js';
import type { Lldpdu } from './lldpdu.js';
import { CeeControlMachine, resolveCee, type CeeAdmin, type CeeResolution } from './negotiate-cee.js';
import { pfcDiffers, resolveIeee, type FeatureState, type Mismatch } from './negotiate-ieee.js';
import type { AppEntry } from './ieee.js';
import { etsFromPg } from '../config/index.js';

export type AgentState = 'COLLECT_LOCAL' | 'ADVERTISE' | 'COLLECT_PEER' | 'UPDATE_LOCAL' | 'MONITOR';

export interface LldpTimers {
  /** msgTxInterval, ps (802.1AB default 30 s). */
  msg_tx_interval_ps: number;
  /** msgFastTx, ps (default 1 s). */
  msg_fast_tx_ps: number;
  /** txFastInit (default 4). */
  tx_fast_init: number;
  /** TTL advertised, s (lldpad: 30 x msgTxHold 4 = 120). */
  ttl_s: number;
}

export const DEFAULT_TIMERS: LldpTimers = { msg_tx_interval_ps: 30e12, msg_fast_tx_ps: 1e12, tx_fast_init: 4, ttl_s: 120 };

export interface LogEntry {
  t_ps: number;
  agent: string;
  /** transition | peer | detect | mismatch | adopt | update | revert | aged_out */
  event: string;
  from?: AgentState;
  to?: AgentState;
  reason?: string;
  feature?: string;
  local?: unknown;
  peer?: unknown;
  before?: unknown;
  after?: unknown;
}

export interface AgentReport {
  operational: Operational & { pg?: { prio_pgid: number[]; pg_bw: number[] } };
  state: { agent: AgentState; ets?: FeatureState; pfc?: FeatureState | string; pg?: string; app?: string; cee?: { seq: number; ack: number; my_ack: number } };
  peer: { mac: string; ttl: number } | null;
  mismatches: Mismatch[];
  lldpdus_sent: number;
  lldpdus_received: number;
}

const json = (v: unknown) => JSON.stringify(v);

export class DcbxAgent {
  state: AgentState = 'COLLECT_LOCAL';
  peer: Lldpdu | undefined;
  peerExpires = Infinity;
  op: Operational;
  ieeeState: { ets: FeatureState; pfc: FeatureState } = { ets: 'INIT', pfc: 'INIT' };
  cee = new CeeControlMachine();
  ceeResult: CeeResolution | undefined;
  mismatches: Mismatch[] = [];
  txFast = 0;
  nextTx = Infinity;
  lastTx = -1;
  lastAdvert = '';
  sent = 0;
  received = 0;
  private peerSeen = '';
  private lastDetect = json(undefined);

  constructor(
    readonly name: string,
    public cfg: DcbxPortConfig,
    readonly mode: DcbxMode,
    readonly timers: LldpTimers,
    private readonly log: (e: LogEntry) => void,
  ) {
    checkAdvertisable(cfg, mode);
    this.op = localOperational(cfg);
  }

  /** The LLDPDU this agent advertises now. */
  lldpdu(): Lldpdu {
    if (this.mode === 'ieee') return ieeeLldpdu(this.cfg, this.op, { ttl: this.timers.ttl_s });
    const r = this.ceeResult;
    return ceeLldpdu(this.cfg, { seq: this.cee.seq, ack: this.cee.ack, pgError: !!r?.pg.error, pfcError: !!r?.pfc.error, appError: !!r?.app.error }, { ttl: this.timers.ttl_s });
  }

  private go(now: number, to: AgentState, reason: string): void {
    this.log({ t_ps: now, agent: this.name, event: 'transition', from: this.state, to, reason });
    this.state = to;
  }

  private ceeAdmin(): CeeAdmin {
    const pg = pgView(this.cfg);
    // CEE has one port selector: stream/dgram/any all travel as "TCP/UDP port".
    const entries: AppEntry[] = appEntries(this.cfg).map((e) => ({ ...e, selector: e.selector === 'ethertype' ? 'ethertype' : 'any' }));
    return { pg, pfc: { willing: this.cfg.pfc.willing, enable: this.cfg.pfc.enable }, app: { willing: this.cfg.pfc.willing, entries } };
  }

  private anyWilling(): boolean {
    return this.mode === 'ieee' ? this.cfg.ets.willing || this.cfg.pfc.willing : pgView(this.cfg).willing || this.cfg.pfc.willing;
  }

  /** One pass of the five-state machine, from COLLECT_LOCAL back to MONITOR. */
  private run(now: number, reason: string): void {
    this.go(now, 'COLLECT_LOCAL', reason);
    const before = json(this.op);
    let resolvedOp: Operational = localOperational(this.cfg);
    let mismatches: Mismatch[] = [];
    if (this.peer) {
      this.go(now, 'ADVERTISE', 'peer exists');
      if (this.mode === 'ieee') {
        const detected = pfcDiffers(this.cfg, this.peer);
        if (json(detected) !== this.lastDetect && detected) this.log({ t_ps: now, agent: this.name, event: 'detect', feature: 'pfc', ...detected });
        this.lastDetect = json(detected);
        const r = resolveIeee(this.cfg, this.peer);
        this.ieeeState = r.state;
        resolvedOp = r.operational;
        mismatches = r.mismatches;
      } else {
        const peerCee = this.peer.tlvs.find((t): t is CeeTlv => t.type === 'cee');
        // Features are evaluated once the peer has acknowledged our SeqNo (CEE §2.4.3).
        if (this.cee.acknowledged() || !peerCee) {
          const r = resolveCee(this.ceeAdmin(), peerCee);
          // Error bits as advertised: 0 before the first resolution, none for an App feature we do
          // not send; a result that changes nothing the peer sees must not cost a SeqNo
          const advertised = (x: CeeResolution | undefined) => json([!!x?.pg.error, !!x?.pfc.error, this.cfg.app.length > 0 && !!x?.app.error]);
          const errorsBefore = advertised(this.ceeResult);
          this.ceeResult = r;
          if (advertised(r) !== errorsBefore && peerCee) this.cee.localChange();
        }
        if (this.ceeResult) {
          resolvedOp = { ...resolvedOp, pfc: { enable: this.ceeResult.pfc.operational.enable, mbc: false }, app: this.ceeResult.app.operational };
          mismatches = this.ceeResult.mismatches;
        }
      }
      if (this.anyWilling()) {
        this.go(now, 'COLLECT_PEER', 'local willing');
        this.go(now, 'UPDATE_LOCAL', 'negotiate');
      }
    } else {
      this.ieeeState = { ets: 'INIT', pfc: 'INIT' };
      this.ceeResult = undefined;
    }
    // Report a mismatch when it appears (or changes), not at every pass.
    const known = new Set(this.mismatches.map((m) => json(m)));
    this.op = resolvedOp;
    this.mismatches = mismatches;
    for (const m of mismatches) if (!known.has(json(m))) this.log({ t_ps: now, agent: this.name, event: 'mismatch', feature: m.feature, local: m.local, peer: m.peer });
    if (json(this.op) !== before) {
      // adopt: a willing feature took the peer's values; revert: back to the local config (no
      // peer); update: anything else (the peer's APP entries merged, a peer value withdrawn)
      const adopted = this.mode === 'ieee'
        ? this.ieeeState.ets === 'RX_RECOMMEND' || this.ieeeState.pfc === 'RX_RECOMMEND'
        : [this.ceeResult?.pg.result, this.ceeResult?.pfc.result, this.ceeResult?.app.result].includes('adopted');
      const event = !this.peer ? 'revert' : adopted ? 'adopt' : 'update';
      this.log({ t_ps: now, agent: this.name, event, before: JSON.parse(before), after: this.op });
    }
    this.go(now, 'MONITOR', 'done');
  }

  /** Returns true when something we advertise changed (the caller transmits fast). */
  private advertChanged(): boolean {
    const a = json(this.lldpdu().tlvs);
    if (a === this.lastAdvert) return false;
    this.lastAdvert = a;
    return true;
  }

  private fastTx(now: number): void {
    this.txFast = this.timers.tx_fast_init;
    this.nextTx = now > this.lastTx ? now : now + this.timers.msg_fast_tx_ps;
  }

  start(now: number): void {
    if (this.mode === 'cee') this.cee.localChange();
    this.run(now, 'start');
    this.advertChanged();
    this.fastTx(now);
  }

  /** The admin config changed (e.g. relayed from another port of the node). */
  configure(now: number, cfg: DcbxPortConfig): void {
    this.cfg = cfg;
    if (this.mode === 'cee') this.cee.localChange();
    this.run(now, 'local configuration changed');
    if (this.advertChanged()) this.fastTx(now);
  }

  /** Called at nextTx: returns the LLDPDU to send and schedules the next one. */
  transmit(now: number): Lldpdu {
    const pdu = this.lldpdu();
    this.lastAdvert = json(pdu.tlvs);
    this.sent++;
    this.lastTx = now;
    if (this.txFast > 0) this.txFast--;
    this.nextTx = now + (this.txFast > 0 ? this.timers.msg_fast_tx_ps : this.timers.msg_tx_interval_ps);
    return pdu;
  }

  receive(now: number, pdu: Lldpdu): void {
    this.received++;
    if (pdu.ttl === 0) {
      this.expire(now, 'peer shut down (TTL 0)');
      return;
    }
    const isNew = this.peer === undefined;
    this.peer = pdu;
    this.peerExpires = now + pdu.ttl * 1e12;
    const content = json(pdu.tlvs);
    if (content === this.peerSeen && !isNew) return; // a refresh: nothing changed
    this.peerSeen = content;
    if (isNew) this.log({ t_ps: now, agent: this.name, event: 'peer', reason: `new neighbour ${pdu.src}` });
    let ceeTx = false;
    if (this.mode === 'cee') {
      const c = pdu.tlvs.find((t): t is CeeTlv => t.type === 'cee');
      if (c) ceeTx = this.cee.onPeerControl(c.control);
    }
    this.run(now, isNew ? 'new peer' : 'peer configuration changed');
    if (this.advertChanged() || isNew || ceeTx) this.fastTx(now);
  }

  expire(now: number, reason = 'neighbour aged out (TTL)'): void {
    if (!this.peer) return;
    this.log({ t_ps: now, agent: this.name, event: 'aged_out', reason });
    this.peer = undefined;
    this.peerSeen = '';
    this.peerExpires = Infinity;
    if (this.mode === 'cee') {
      this.cee.onPeerExpired();
      this.cee.localChange();
    }
    this.run(now, reason);
    if (this.advertChanged()) this.fastTx(now);
  }

  report(): AgentReport {
    const r = this.ceeResult;
    const op: AgentReport['operational'] = { ...this.op };
    if (this.mode === 'cee') {
      const pg = r ? r.pg.operational : { prio_pgid: pgView(this.cfg).prio_pgid, pg_bw: pgView(this.cfg).pg_bw };
      op.pg = pg;
      // the ETS tables that run the negotiated priority groups (config's etsFromPg)
      op.ets = etsFromPg(pg) ?? op.ets;
    }
    return {
      operational: op,
      state: this.mode === 'ieee'
        ? { agent: this.state, ...this.ieeeState }
        : { agent: this.state, pg: r?.pg.result ?? 'no peer', pfc: r?.pfc.result ?? 'no peer', app: r?.app.result ?? 'no peer', cee: { seq: this.cee.seq, ack: this.cee.ack, my_ack: this.cee.myAck } },
      peer: this.peer ? { mac: this.peer.src, ttl: this.peer.ttl } : null,
      mismatches: this.mismatches,
      lldpdus_sent: this.sent,
      lldpdus_received: this.received,
    };
  }
}
