// What a DCBX port advertises (802.1Q-2018 D.2.9-D.2.12 and lldpad bld_ieee8021qaz_*_tlv; CEE 1.01
// via lldpad bld_dcbx2_*): the LLDPDU built from a port's DCB config and its operational state.
//
// IEEE: Chassis ID = MAC (subtype 4, port.mac), Port ID = interface name (subtype 5, port.name),
// TTL, ETS-CFG (local willing/CBS/max TCs, *operational* tables), ETS-REC (when configured), PFC
// (local willing/MBC/cap, *operational* enable: MBC is this station's MACsec bypass capability,
// never the peer's, as lldpad bld_ieee8021qaz_pfc_tlv), APP (the *operational* table: local entries
// and the peer's merged, as lldpad advertises the table it programs; docs/dcbx.md says why), CET
// (when credit flow control is on for some priority), End. CEE: the same header, one CEE TLV (control + PG + PFC +
// App with the local admin values and the feature flags), CET, End.
// A config that cannot be advertised is an InputError naming the config field.
import { pgFromEts, type EtsTables as ConfigEtsTables } from '../config/index.js';
import { InputError, type Problem } from '../errors/errors.js';
import { CEE_APP, CEE_CONTROL, CEE_PFC, CEE_PG, type CeeTlv } from './cee.js';
import { parseCetOui, ouiText, type CetTlv } from './cet.js';
import { MAX_APP_ENTRIES, selectorName, type AppEntry, type EtsTables, type IeeeTlv, type Tsa } from './ieee.js';
import { LLDP_NEAREST_BRIDGE, encodeLldpdu, type LldpTlv, type Lldpdu } from './lldpdu.js';

/** The parts of a DCB config (host/config, docs/design.md §5) that DCBX advertises and negotiates. */
export interface DcbxPortConfig {
  port: { name: string; mac: string };
  ets: { willing: boolean; cbs?: boolean; max_tcs?: number; prio_tc: number[]; tsa: Tsa[]; bw: number[]; recommendation?: EtsTables };
  pg?: { willing: boolean; prio_pgid: number[]; pg_bw: number[] };
  pfc: { enable: number[]; willing: boolean; mbc: boolean; cap: number };
  /** selector: 1..5 (config) or its name */
  app: { selector: number | string; protocol: number; priority: number }[];
  credit?: { priorities: number[]; unit: number; aging_us: number; counter_bits?: number; oui?: string };
}

export type DcbxMode = 'ieee' | 'cee';

/** lldpad's TTL: msgTxInterval 30 s x msgTxHold 4. */
export const DEFAULT_TTL_S = 120;

/** The operational values of the negotiated features. */
export interface Operational {
  ets: EtsTables;
  pfc: { enable: number[]; mbc: boolean };
  app: AppEntry[];
}

export function appEntries(cfg: DcbxPortConfig): AppEntry[] {
  return cfg.app.map((e) => ({ selector: typeof e.selector === 'number' ? selectorName(e.selector) : (e.selector as AppEntry['selector']), protocol: e.protocol, priority: e.priority }));
}

export function localOperational(cfg: DcbxPortConfig): Operational {
  return {
    ets: { prio_tc: [...cfg.ets.prio_tc], tsa: [...cfg.ets.tsa], bw: [...cfg.ets.bw] },
    pfc: { enable: [...cfg.pfc.enable].sort((a, b) => a - b), mbc: cfg.pfc.mbc },
    app: appEntries(cfg),
  };
}

/** Rules a config must meet to be advertised, beyond the config schema's own. */
export function advertisingProblems(cfg: DcbxPortConfig, mode: DcbxMode): Problem[] {
  const out: Problem[] = [];
  const key = (e: { selector: number | string; protocol: number }) => `${typeof e.selector === 'number' ? selectorName(e.selector) : e.selector}/${e.protocol}`;
  const seen = new Map<string, number>();
  cfg.app.forEach((e, i) => {
    const k = key(e);
    const first = seen.get(k);
    // One priority per application: two rules for the same selector and protocol would leave the
    // peer to pick one (lldpad keeps both; 802.1Q-2018 D.2.12 lets each appear once per priority).
    if (first !== undefined) out.push({ path: `app[${i}]`, rule: `selector ${String(e.selector)} protocol ${e.protocol} is already mapped by app[${first}]; give each application one priority` });
    else seen.set(k, i);
  });
  if (cfg.app.length > MAX_APP_ENTRIES) out.push({ path: 'app', rule: `${cfg.app.length} entries do not fit one APP TLV (at most ${MAX_APP_ENTRIES}: 5 + 3N <= 511 octets)` });
  if (mode === 'cee') {
    if (cfg.app.length > 84) out.push({ path: 'app', rule: `${cfg.app.length} entries do not fit one CEE Application sub-TLV (at most 84: 4 + 6N <= 511)` });
    appEntries(cfg).forEach((e, i) => {
      if (e.selector === 'dscp') out.push({ path: `app[${i}].selector`, rule: 'CEE DCBX has no DSCP selector (Ethertype and TCP/UDP port only); advertise it with IEEE DCBX' });
    });
    const ports = new Map<number, number>();
    appEntries(cfg).forEach((e, i) => {
      if (e.selector === 'stream' || e.selector === 'dgram' || e.selector === 'any') {
        const j = ports.get(e.protocol);
        if (j !== undefined) out.push({ path: `app[${i}]`, rule: `CEE has one selector for TCP and UDP ports; port ${e.protocol} is already in app[${j}]` });
        else ports.set(e.protocol, i);
      }
    });
  }
  if (cfg.credit && cfg.credit.priorities.length > 0 && (cfg.credit.counter_bits ?? 16) > 16) {
    out.push({ path: 'credit.counter_bits', rule: `${cfg.credit.counter_bits}-bit counters do not fit the 16-bit fields of the credit-exchange frames (docs/frames.md); use 16 or fewer` });
  }
  if (cfg.credit?.oui !== undefined) {
    try {
      parseCetOui(cfg.credit.oui, 'credit.oui');
    } catch (e) {
      if (e instanceof InputError) out.push(...e.problems);
      else throw e;
    }
  }
  return out;
}

export function checkAdvertisable(cfg: DcbxPortConfig, mode: DcbxMode): void {
  const p = advertisingProblems(cfg, mode);
  if (p.length) throw new InputError(p);
}

function cetTlv(cfg: DcbxPortConfig): CetTlv[] {
  const c = cfg.credit;
  if (!c || c.priorities.length === 0) return [];
  return [{
    type: 'cet', oui: ouiText(parseCetOui(c.oui ?? '0A-DC-B0', 'credit.oui')), supported: true, channels: false, ce_tag: false,
    priorities: [...c.priorities].sort((a, b) => a - b), unit: c.unit, aging_us: c.aging_us, counter_bits: c.counter_bits ?? 16,
  }];
}

function frame(cfg: DcbxPortConfig, src: string, ttl: number, tlvs: LldpTlv[]): Lldpdu {
  return {
    dst: LLDP_NEAREST_BRIDGE, src,
    chassis: { subtype: 4, id: cfg.port.mac.toLowerCase().replace(/-/g, ':') },
    port: { subtype: 5, id: cfg.port.name },
    ttl, tlvs, end: true,
  };
}

/** The IEEE 802.1Qaz LLDPDU of a port whose operational state is `op` (local config when alone). */
export function ieeeLldpdu(cfg: DcbxPortConfig, op: Operational = localOperational(cfg), opts: { src?: string; ttl?: number } = {}): Lldpdu {
  const tlvs: IeeeTlv[] = [
    { type: 'ets_cfg', willing: cfg.ets.willing, cbs: cfg.ets.cbs ?? false, max_tcs: cfg.ets.max_tcs ?? 8, ...op.ets },
  ];
  if (cfg.ets.recommendation) tlvs.push({ type: 'ets_rec', ...cfg.ets.recommendation });
  tlvs.push({ type: 'pfc', willing: cfg.pfc.willing, mbc: cfg.pfc.mbc, cap: cfg.pfc.cap, enable: op.pfc.enable });
  if (op.app.length) tlvs.push({ type: 'app', app: op.app });
  return frame(cfg, opts.src ?? cfg.port.mac, opts.ttl ?? DEFAULT_TTL_S, [...tlvs, ...cetTlv(cfg)]);
}

/** The CEE PG view of a config: its `pg`, or the ETS tables seen as priority groups (config's pgFromEts). */
export function pgView(cfg: DcbxPortConfig): { willing: boolean; prio_pgid: number[]; pg_bw: number[] } {
  return cfg.pg ?? { willing: cfg.ets.willing, ...pgFromEts(cfg.ets as ConfigEtsTables) };
}

export interface CeeFlags {
  seq: number;
  ack: number;
  pgError: boolean;
  pfcError: boolean;
  appError: boolean;
}

/** The CEE 1.01 LLDPDU: control (SeqNo/AckNo) and the admin PG/PFC/App with their flags. */
export function ceeLldpdu(cfg: DcbxPortConfig, flags: CeeFlags, opts: { src?: string; ttl?: number } = {}): Lldpdu {
  const pg = pgView(cfg);
  const header = (willing: boolean, error: boolean) => ({ oper_version: 0, max_version: 0, enable: true, willing, error, subtype: 0 });
  const cee: CeeTlv = {
    type: 'cee',
    control: { oper_version: 0, max_version: 0, seq: flags.seq, ack: flags.ack },
    pg: { ...header(pg.willing, flags.pgError), prio_pgid: pg.prio_pgid, pg_bw: pg.pg_bw, num_tcs: 8 },
    pfc: { ...header(cfg.pfc.willing, flags.pfcError), enable_prios: [...cfg.pfc.enable].sort((a, b) => a - b), num_tcs: cfg.pfc.cap },
    order: [CEE_CONTROL, CEE_PG, CEE_PFC],
  };
  if (cfg.app.length) {
    cee.app = {
      // CEE App has its own willing bit; the config has none, so the app table follows PFC's.
      ...header(cfg.pfc.willing, flags.appError),
      app: appEntries(cfg).map((e) => ({ protocol: e.protocol, selector: e.selector === 'ethertype' ? 'ethertype' : 'port', oui: 0x1b21, priorities: [e.priority] })),
    };
    cee.order.push(CEE_APP);
  }
  return frame(cfg, opts.src ?? cfg.port.mac, opts.ttl ?? DEFAULT_TTL_S, [cee, ...cetTlv(cfg)]);
}


/**
 * The bytes of the LLDPDU a port with this config advertises before it has heard a peer
 * (`dcbx encode`; also what a code generator writes as lldp/lldpdu.pcap). InputError when the
 * config cannot be advertised.
 */
export function encodeConfigLldpdu(cfg: DcbxPortConfig, mode: DcbxMode = cfg.pg ? 'cee' : 'ieee', src?: string): Uint8Array {
  checkAdvertisable(cfg, mode);
  const pdu = mode === 'ieee' ? ieeeLldpdu(cfg, undefined, { src }) : ceeLldpdu(cfg, { seq: 1, ack: 0, pgError: false, pfcError: false, appError: false }, { src });
  return encodeLldpdu(pdu);
}
