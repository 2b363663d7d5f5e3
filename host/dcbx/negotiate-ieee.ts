// IEEE 802.1Qaz DCBX resolution (802.1Q-2018 clause 38; lldpad lldp_8021qaz.c ets_sm, pfc_sm,
// process_ieee8021qaz_app_tlv; intel/openlldp lldp_8021qaz.c). No handshake: each side advertises and
// computes its operational parameters from its admin config and the peer's last LLDPDU.
//
//   ETS (asymmetric): local willing and the peer sent an ETS Recommendation -> RX_RECOMMEND,
//     operational = the recommendation; otherwise INIT, operational = local tables. The peer's
//     willing bit and its ETS Configuration TLV do not decide.
//   PFC (symmetric): RX_RECOMMEND, operational = peer {enable, mbc}, when the peer sent PFC and
//     local willing and (peer not willing, or both willing and NOT local MAC > peer MAC) — the
//     numerically lower MAC adopts; the MAC compared is the LLDPDU source MAC against port.mac.
//   APP: the peer's entries are merged into the table whatever the willing bits (lldpad).
//   No peer, or the peer's TLV missing from its latest LLDPDU: back to INIT / local.
// Mismatches: PFC operational enable differs from what the peer advertises (symmetric feature).
import { localOperational, type DcbxPortConfig, type Operational } from './advertise.js';
import type { AppEntry, AppTlv, EtsRecTlv, PfcTlv } from './ieee.js';
import type { Lldpdu } from './lldpdu.js';

export type FeatureState = 'INIT' | 'RX_RECOMMEND';

export interface IeeeResolution {
  operational: Operational;
  state: { ets: FeatureState; pfc: FeatureState };
  mismatches: Mismatch[];
}

export interface Mismatch {
  feature: 'pfc' | 'ets' | 'app' | 'pg';
  local: unknown;
  peer: unknown;
  rule: string;
}

/** Bytewise comparison of two MACs in text form: negative when a < b. */
export function compareMac(a: string, b: string): number {
  const x = a.toLowerCase().replace(/[:-]/g, '');
  const y = b.toLowerCase().replace(/[:-]/g, '');
  return x < y ? -1 : x > y ? 1 : 0;
}

const sameList = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

function tlvOf<T extends { type: string }>(peer: Lldpdu | undefined, type: T['type']): T | undefined {
  return peer?.tlvs.find((t) => t.type === type) as T | undefined;
}

export function mergeApp(local: AppEntry[], peer: AppEntry[]): AppEntry[] {
  const key = (e: AppEntry) => `${String(e.selector)}/${e.protocol}/${e.priority}`;
  const have = new Set(local.map(key));
  return [...local, ...peer.filter((e) => !have.has(key(e)))];
}

export function resolveIeee(cfg: DcbxPortConfig, peer: Lldpdu | undefined): IeeeResolution {
  const op = localOperational(cfg);
  const state: IeeeResolution['state'] = { ets: 'INIT', pfc: 'INIT' };
  const rec = tlvOf<EtsRecTlv>(peer, 'ets_rec');
  if (cfg.ets.willing && rec) {
    state.ets = 'RX_RECOMMEND';
    op.ets = { prio_tc: [...rec.prio_tc], tsa: [...rec.tsa], bw: [...rec.bw] };
  }
  const pfc = tlvOf<PfcTlv>(peer, 'pfc');
  if (peer && pfc && cfg.pfc.willing && (!pfc.willing || !(compareMac(cfg.port.mac, peer.src) > 0))) {
    state.pfc = 'RX_RECOMMEND';
    op.pfc = { enable: [...pfc.enable], mbc: pfc.mbc };
  }
  const app = tlvOf<AppTlv>(peer, 'app');
  if (app) op.app = mergeApp(op.app, app.app);
  const mismatches: Mismatch[] = [];
  if (pfc && !sameList(op.pfc.enable, pfc.enable)) {
    mismatches.push({
      feature: 'pfc', local: op.pfc.enable, peer: pfc.enable,
      rule: cfg.pfc.willing ? 'PFC is symmetric; the peer does not adopt ours and we may not adopt theirs (higher MAC, both willing)' : 'PFC is symmetric and this port is not willing to adopt the peer\'s priorities',
    });
  }
  return { operational: op, state, mismatches };
}

/** What the first look at a peer shows before any adoption (reported as "detected"). */
export function pfcDiffers(cfg: DcbxPortConfig, peer: Lldpdu | undefined): { local: number[]; peer: number[] } | undefined {
  const pfc = tlvOf<PfcTlv>(peer, 'pfc');
  const local = [...cfg.pfc.enable].sort((a, b) => a - b);
  return pfc && !sameList(local, pfc.enable) ? { local, peer: pfc.enable } : undefined;
}
