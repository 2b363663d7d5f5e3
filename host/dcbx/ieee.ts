// IEEE 802.1Qaz DCBX TLVs (802.1Q-2018 Annex D.2.9-D.2.12; intel/openlldp include/lldp_8021qaz.h): the bodies
// of the organizationally specific TLVs with OUI 00-80-C2, subtypes 9 ETS Configuration,
// 10 ETS Recommendation, 11 PFC Configuration, 12 Application Priority.
//
// Bodies (offsets in the TLV information string, after OUI(3) and subtype(1)):
//   ETS-CFG  4: willing(b7) cbs(b6) reserved(b5..3) max_tcs(b2..0); 5..8 priority->TC nibbles
//            (priority 0 in the high nibble of octet 5); 9..16 TC bandwidth %; 17..24 TSA per TC
//   ETS-REC  4: reserved octet; 5..24 as ETS-CFG
//   PFC      4: willing(b7) mbc(b6) reserved(b5,4) cap(b3..0); 5: enable bitmap, bit p = priority p
//   APP      4: reserved; then 3 octets per entry: priority(b7..5) reserved(b4,3) selector(b2..0),
//            protocol u16
// The decoders take the information string after the subtype and its absolute offset in the
// frame, so that errors point at frame bytes. They reject what would not re-encode identically.
import { TSA_CODE, tsaNameOf, type TsaName } from '../core/codes.js';
import { InputError } from '../errors/errors.js';
import { DecodeError, Reader, Writer } from '../frames/bytes.js';
import { bitsToList, listToBits } from '../frames/macctrl.js';

export const IEEE_8021_OUI = 0x0080c2;
export const SUBTYPE_ETS_CFG = 9;
export const SUBTYPE_ETS_REC = 10;
export const SUBTYPE_PFC = 11;
export const SUBTYPE_APP = 12;
/** The 9-bit TLV length allows 5 + 3N <= 511, so at most 168 APP entries. */
export const MAX_APP_ENTRIES = 168;

/** TSA codes (802.1Q Table 8-6 / D-3): 0 strict, 1 credit-based shaper, 2 ETS, 255 vendor. */
export type { TsaName };
export type Tsa = TsaName | number;
export const tsaCode = (t: Tsa): number => (typeof t === 'number' ? t : TSA_CODE[t]);
export function tsaName(code: number): Tsa {
  return tsaNameOf(code) ?? code;
}

/** APP selectors (dcbnl.h IEEE_8021QAZ_APP_SEL_*: ETHERTYPE, STREAM, DGRAM, ANY; 5 = DSCP from 802.1Qcd). */
export type SelectorName = 'ethertype' | 'stream' | 'dgram' | 'any' | 'dscp';
export type Selector = SelectorName | number;
const SEL_CODES: Record<SelectorName, number> = { ethertype: 1, stream: 2, dgram: 3, any: 4, dscp: 5 };
export const selectorCode = (s: Selector): number => (typeof s === 'number' ? s : SEL_CODES[s]);
export function selectorName(code: number): Selector {
  const n = (Object.keys(SEL_CODES) as SelectorName[]).find((k) => SEL_CODES[k] === code);
  return n ?? code;
}

export interface EtsTables {
  /** TC of priority 0..7. */
  prio_tc: number[];
  /** Bandwidth % of TC 0..7. */
  bw: number[];
  /** TSA of TC 0..7. */
  tsa: Tsa[];
}

export interface EtsCfgTlv extends EtsTables {
  type: 'ets_cfg';
  willing: boolean;
  cbs: boolean;
  /** TCs supported, 1..8; the 3-bit wire field carries 8 as 0 (lldpad reads 0 as 8). */
  max_tcs: number;
}

export interface EtsRecTlv extends EtsTables {
  type: 'ets_rec';
}

export interface PfcTlv {
  type: 'pfc';
  willing: boolean;
  mbc: boolean;
  /** PFC capability: TCs that may have PFC enabled at once, 0..8 (4 bits on the wire, 9..15 rejected). */
  cap: number;
  /** Priorities with PFC enabled. */
  enable: number[];
}

export interface AppEntry {
  selector: Selector;
  protocol: number;
  priority: number;
}

export interface AppTlv {
  type: 'app';
  app: AppEntry[];
}

export type IeeeTlv = EtsCfgTlv | EtsRecTlv | PfcTlv | AppTlv;

function checkInts(v: readonly number[], len: number, lo: number, hi: number, path: string): void {
  if (v.length !== len) throw new InputError({ path, rule: `needs ${len} values` });
  v.forEach((x, i) => {
    if (!Number.isInteger(x) || x < lo || x > hi) throw new InputError({ path: `${path}[${i}]`, rule: `${x} is not an integer ${lo}..${hi}` });
  });
}

function writeEtsTables(w: Writer, t: EtsTables, path: string): void {
  checkInts(t.prio_tc, 8, 0, 7, `${path}.prio_tc`);
  checkInts(t.bw, 8, 0, 100, `${path}.bw`);
  const tsa = t.tsa.map(tsaCode);
  checkInts(tsa, 8, 0, 255, `${path}.tsa`);
  for (let i = 0; i < 8; i += 2) w.u8((t.prio_tc[i] << 4) | t.prio_tc[i + 1]);
  w.bytes(t.bw).bytes(tsa);
}

/** Writes the information string after OUI+subtype. */
export function encodeIeeeBody(t: IeeeTlv, w: Writer, path: string): void {
  switch (t.type) {
    case 'ets_cfg':
      checkInts([t.max_tcs], 1, 1, 8, `${path}.max_tcs`);
      w.u8((t.willing ? 0x80 : 0) | (t.cbs ? 0x40 : 0) | (t.max_tcs & 7));
      writeEtsTables(w, t, path);
      return;
    case 'ets_rec':
      w.u8(0);
      writeEtsTables(w, t, path);
      return;
    case 'pfc':
      checkInts([t.cap], 1, 0, 8, `${path}.cap`);
      checkInts(t.enable, t.enable.length, 0, 7, `${path}.enable`);
      w.u8((t.willing ? 0x80 : 0) | (t.mbc ? 0x40 : 0) | t.cap).u8(listToBits(t.enable));
      return;
    case 'app':
      if (t.app.length > MAX_APP_ENTRIES) throw new InputError({ path: `${path}.app`, rule: `${t.app.length} entries do not fit one APP TLV (at most ${MAX_APP_ENTRIES}: 5 + 3N <= 511)` });
      w.u8(0);
      t.app.forEach((e, i) => {
        const sel = selectorCode(e.selector);
        checkInts([sel], 1, 0, 7, `${path}.app[${i}].selector`);
        checkInts([e.priority], 1, 0, 7, `${path}.app[${i}].priority`);
        checkInts([e.protocol], 1, 0, 0xffff, `${path}.app[${i}].protocol`);
        w.u8((e.priority << 5) | sel).u16(e.protocol);
      });
      return;
  }
}

export function ieeeSubtype(t: IeeeTlv): number {
  return { ets_cfg: SUBTYPE_ETS_CFG, ets_rec: SUBTYPE_ETS_REC, pfc: SUBTYPE_PFC, app: SUBTYPE_APP }[t.type];
}

function readEtsTables(r: Reader, at: number): EtsTables {
  const prio_tc: number[] = [];
  for (let i = 0; i < 4; i++) {
    const b = r.u8(at + i, 'priority assignment table');
    prio_tc.push(b >> 4, b & 0xf);
  }
  prio_tc.forEach((tc, p) => {
    if (tc > 7) throw new DecodeError('bad_value', at + (p >> 1), `priority ${p} maps to TC ${tc}; TCs are 0..7 (8..15 reserved)`);
  });
  const bw = Array.from(r.slice(at + 4, 8, 'TC bandwidth table'));
  bw.forEach((v, tc) => {
    if (v > 100) throw new DecodeError('bad_value', at + 4 + tc, `TC ${tc} bandwidth ${v}% exceeds 100`);
  });
  const tsa = Array.from(r.slice(at + 12, 8, 'TSA assignment table'), tsaName);
  return { prio_tc, bw, tsa };
}

const FIXED_LEN: Record<number, number> = { [SUBTYPE_ETS_CFG]: 25, [SUBTYPE_ETS_REC]: 25, [SUBTYPE_PFC]: 6 };

/**
 * Decodes an 802.1 DCBX TLV. `r` reads the whole frame; `info` is the absolute offset of the
 * TLV information string (the OUI) and `len` the TLV length; `header` the TLV header offset.
 */
export function decodeIeeeTlv(r: Reader, header: number, info: number, len: number, subtype: number): IeeeTlv {
  const fixed = FIXED_LEN[subtype];
  if (fixed !== undefined && len !== fixed) throw new DecodeError('bad_length', header, `802.1 subtype ${subtype} TLV has length ${len}, must be ${fixed}`);
  const b = info + 4; // first octet after OUI + subtype
  switch (subtype) {
    case SUBTYPE_ETS_CFG: {
      const f = r.u8(b, 'ETS willing/CBS/max TCs');
      if (f & 0x38) throw new DecodeError('reserved_nonzero', b, 'ETS Configuration: reserved bits 5..3 must be 0');
      return { type: 'ets_cfg', willing: !!(f & 0x80), cbs: !!(f & 0x40), max_tcs: f & 7 || 8, ...readEtsTables(r, b + 1) };
    }
    case SUBTYPE_ETS_REC: {
      if (r.u8(b, 'ETS Recommendation reserved octet')) throw new DecodeError('reserved_nonzero', b, 'ETS Recommendation: octet 4 is reserved and must be 0');
      return { type: 'ets_rec', ...readEtsTables(r, b + 1) };
    }
    case SUBTYPE_PFC: {
      const f = r.u8(b, 'PFC willing/MBC/cap');
      if (f & 0x30) throw new DecodeError('reserved_nonzero', b, 'PFC: reserved bits 5..4 must be 0');
      if ((f & 0xf) > 8) throw new DecodeError('bad_value', b, `PFC capability ${f & 0xf} exceeds 8`);
      return { type: 'pfc', willing: !!(f & 0x80), mbc: !!(f & 0x40), cap: f & 0xf, enable: bitsToList(r.u8(b + 1, 'PFC enable')) };
    }
    default: {
      if (len < 5 || (len - 5) % 3 !== 0) throw new DecodeError('bad_length', header, `APP TLV length ${len} is not 5 + 3N`);
      if (r.u8(b, 'APP reserved octet')) throw new DecodeError('reserved_nonzero', b, 'APP: octet 4 is reserved and must be 0');
      const app: AppEntry[] = [];
      for (let at = b + 1; at < info + len; at += 3) {
        const x = r.u8(at, 'APP entry');
        if (x & 0x18) throw new DecodeError('reserved_nonzero', at, 'APP entry: reserved bits 4..3 must be 0');
        app.push({ selector: selectorName(x & 7), protocol: r.u16(at + 1, 'APP protocol'), priority: x >> 5 });
      }
      return { type: 'app', app };
    }
  }
}
