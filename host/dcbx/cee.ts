// CEE DCBX 1.01 TLV ("DCB Capability Exchange Protocol Base Specification Rev 1.01"; lldpad
// tlv_dcbx.h; CEE DCBX 1.01): one organizationally specific TLV, OUI 00-1B-21 subtype 2,
// whose body is a sequence of sub-TLVs with the LLDP header (type 7 bits, length 9 bits):
//   1 Control, length 10: oper_version, max_version, SeqNo u32, AckNo u32
//   2 Priority Groups, 17: feature header, PGID nibbles (priority 0 high nibble), PG % x 8, NumTCs
//   3 PFC, 6: feature header, admin bitmap (bit p = priority p), NumTCs
//   4 Application, 4 + 6n: feature header, n x {protocol u16, OUI upper 6 bits | selector (2 bits:
//     0 Ethertype, 1 TCP/UDP port), OUI lower 16 bits, priority bitmap}
// Feature header: oper_version, max_version, flags (b7 Enable, b6 Willing, b5 Error, b4..0
// reserved 0), subtype. The Control sub-TLV comes first; each sub-TLV type at most once; other
// sub-TLV types are kept as raw bytes in order, so decode -> encode is lossless.
import { InputError } from '../errors/errors.js';
import { DecodeError, Reader, Writer, toHex, parseHex } from '../frames/bytes.js';
import { bitsToList, listToBits } from '../frames/macctrl.js';

export const CEE_OUI = 0x001b21;
export const CEE_SUBTYPE = 2;
export const CEE_CONTROL = 1;
export const CEE_PG = 2;
export const CEE_PFC = 3;
export const CEE_APP = 4;

export interface CeeFeatureHeader {
  oper_version: number;
  max_version: number;
  enable: boolean;
  willing: boolean;
  error: boolean;
  subtype: number;
}

export interface CeeControl {
  oper_version: number;
  max_version: number;
  seq: number;
  ack: number;
}

export interface CeePg extends CeeFeatureHeader {
  /** PGID of priority 0..7 (0..7, 15 = strict; 8..14 reserved). */
  prio_pgid: number[];
  /** % of PG 0..7. */
  pg_bw: number[];
  num_tcs: number;
}

export interface CeePfc extends CeeFeatureHeader {
  enable_prios: number[];
  num_tcs: number;
}

export interface CeeAppEntry {
  protocol: number;
  /** 'ethertype' (0) or 'port' (1, TCP/UDP); 2..3 kept as numbers. */
  selector: 'ethertype' | 'port' | number;
  /** The 22 OUI bits of the entry (upper 6 | lower 16); 0x1b21 from lldpad. */
  oui: number;
  /** Priorities of the bitmap. */
  priorities: number[];
}

export interface CeeApp extends CeeFeatureHeader {
  app: CeeAppEntry[];
}

export interface CeeRawSubTlv {
  sub_type: number;
  hex: string;
}

export interface CeeTlv {
  type: 'cee';
  control: CeeControl;
  pg?: CeePg;
  pfc?: CeePfc;
  app?: CeeApp;
  /** Sub-TLVs of other types, kept raw. */
  other?: CeeRawSubTlv[];
  /** Sub-TLV order as on the wire (types), so re-encoding keeps it. */
  order: number[];
}

function bad(path: string, rule: string): never {
  throw new InputError({ path, rule });
}

function checkByte(v: number, hi: number, path: string): void {
  if (!Number.isInteger(v) || v < 0 || v > hi) bad(path, `${v} is not an integer 0..${hi}`);
}

function writeFeatureHeader(w: Writer, h: CeeFeatureHeader, path: string): void {
  checkByte(h.oper_version, 255, `${path}.oper_version`);
  checkByte(h.max_version, 255, `${path}.max_version`);
  checkByte(h.subtype, 255, `${path}.subtype`);
  w.u8(h.oper_version).u8(h.max_version).u8((h.enable ? 0x80 : 0) | (h.willing ? 0x40 : 0) | (h.error ? 0x20 : 0)).u8(h.subtype);
}

function subTlv(w: Writer, type: number, body: (w: Writer) => void): void {
  const start = w.length;
  w.u16(0);
  body(w);
  w.patchU16(start, (type << 9) | (w.length - start - 2));
}

/** Writes the information string after OUI + subtype. */
export function encodeCeeBody(t: CeeTlv, w: Writer, path: string): void {
  const order = t.order.length ? t.order : [CEE_CONTROL, ...(t.pg ? [CEE_PG] : []), ...(t.pfc ? [CEE_PFC] : []), ...(t.app ? [CEE_APP] : [])];
  if (order[0] !== CEE_CONTROL) bad(`${path}.order`, 'the Control sub-TLV comes first');
  const others = [...(t.other ?? [])];
  for (const type of order) {
    switch (type) {
      case CEE_CONTROL: {
        const c = t.control;
        checkByte(c.oper_version, 255, `${path}.control.oper_version`);
        checkByte(c.max_version, 255, `${path}.control.max_version`);
        for (const k of ['seq', 'ack'] as const) if (!Number.isInteger(c[k]) || c[k] < 0 || c[k] > 0xffffffff) bad(`${path}.control.${k}`, 'must be an integer 0..2^32-1');
        subTlv(w, CEE_CONTROL, (b) => b.u8(c.oper_version).u8(c.max_version).u32(c.seq).u32(c.ack));
        break;
      }
      case CEE_PG: {
        const pg = t.pg ?? bad(`${path}.pg`, 'listed in order but missing');
        pg.prio_pgid.forEach((g, p) => {
          if (!(Number.isInteger(g) && ((g >= 0 && g <= 7) || g === 15))) bad(`${path}.pg.prio_pgid[${p}]`, `PGID ${g} is not 0..7 or 15 (8..14 are reserved)`);
        });
        if (pg.prio_pgid.length !== 8 || pg.pg_bw.length !== 8) bad(`${path}.pg`, 'prio_pgid and pg_bw need 8 values each');
        pg.pg_bw.forEach((v, i) => checkByte(v, 100, `${path}.pg.pg_bw[${i}]`));
        checkByte(pg.num_tcs, 255, `${path}.pg.num_tcs`);
        subTlv(w, CEE_PG, (b) => {
          writeFeatureHeader(b, pg, `${path}.pg`);
          for (let i = 0; i < 8; i += 2) b.u8((pg.prio_pgid[i] << 4) | pg.prio_pgid[i + 1]);
          b.bytes(pg.pg_bw).u8(pg.num_tcs);
        });
        break;
      }
      case CEE_PFC: {
        const pfc = t.pfc ?? bad(`${path}.pfc`, 'listed in order but missing');
        checkByte(pfc.num_tcs, 255, `${path}.pfc.num_tcs`);
        pfc.enable_prios.forEach((p, i) => checkByte(p, 7, `${path}.pfc.enable_prios[${i}]`));
        subTlv(w, CEE_PFC, (b) => {
          writeFeatureHeader(b, pfc, `${path}.pfc`);
          b.u8(listToBits(pfc.enable_prios)).u8(pfc.num_tcs);
        });
        break;
      }
      case CEE_APP: {
        const app = t.app ?? bad(`${path}.app`, 'listed in order but missing');
        if (4 + 6 * app.app.length > 511) bad(`${path}.app.app`, `${app.app.length} entries do not fit one sub-TLV (at most 84)`);
        subTlv(w, CEE_APP, (b) => {
          writeFeatureHeader(b, app, `${path}.app`);
          app.app.forEach((e, i) => {
            const sel = e.selector === 'ethertype' ? 0 : e.selector === 'port' ? 1 : e.selector;
            checkByte(sel, 3, `${path}.app.app[${i}].selector`);
            if (!Number.isInteger(e.oui) || e.oui < 0 || e.oui >= 1 << 22) bad(`${path}.app.app[${i}].oui`, 'must be a 22-bit integer');
            if (!Number.isInteger(e.protocol) || e.protocol < 0 || e.protocol > 0xffff) bad(`${path}.app.app[${i}].protocol`, 'must be 0..65535');
            b.u16(e.protocol).u8(((e.oui >> 16) << 2) | sel).u16(e.oui & 0xffff).u8(listToBits(e.priorities));
          });
        });
        break;
      }
      default: {
        const raw = others.shift() ?? bad(`${path}.other`, `sub-TLV type ${type} is listed in order but missing`);
        if (raw.sub_type !== type) bad(`${path}.other`, 'raw sub-TLVs must appear in the order listed');
        subTlv(w, type, (b) => b.bytes(parseHex(raw.hex, `${path}.other`)));
      }
    }
  }
}

function readFeatureHeader(r: Reader, at: number): CeeFeatureHeader {
  const flags = r.u8(at + 2, 'CEE feature flags');
  if (flags & 0x1f) throw new DecodeError('reserved_nonzero', at + 2, 'CEE feature flags: bits 4..0 are reserved and must be 0');
  return { oper_version: r.u8(at, 'oper version'), max_version: r.u8(at + 1, 'max version'), enable: !!(flags & 0x80), willing: !!(flags & 0x40), error: !!(flags & 0x20), subtype: r.u8(at + 3, 'feature subtype') };
}

/** Decodes the CEE body: sub-TLVs from `from` (absolute) to `to`. */
export function decodeCeeBody(r: Reader, from: number, to: number): CeeTlv {
  const seen = new Set<number>();
  const order: number[] = [];
  const out: Partial<CeeTlv> & { other: CeeRawSubTlv[] } = { other: [] };
  let at = from;
  while (at < to) {
    if (at + 2 > to) throw new DecodeError('truncated', at, 'CEE sub-TLV header runs past the end of the CEE TLV');
    const h = r.u16(at, 'CEE sub-TLV header');
    const type = h >> 9;
    const len = h & 0x1ff;
    const body = at + 2;
    if (body + len > to) throw new DecodeError('truncated', at, `CEE sub-TLV type ${type} length ${len} runs past the end of the CEE TLV`);
    if (order.length === 0 && type !== CEE_CONTROL) throw new DecodeError('tlv_order', at, `the first CEE sub-TLV is type ${type}; the Control sub-TLV (1) comes first`);
    if (seen.has(type)) throw new DecodeError('duplicate_tlv', at, `CEE sub-TLV type ${type} appears twice (lldpad DUP_DCBX_TLV)`);
    seen.add(type);
    order.push(type);
    const need = (n: number, name: string) => {
      if (len !== n) throw new DecodeError('bad_length', at, `CEE ${name} sub-TLV has length ${len}, must be ${n}`);
    };
    switch (type) {
      case CEE_CONTROL:
        need(10, 'Control');
        out.control = { oper_version: r.u8(body, 'oper'), max_version: r.u8(body + 1, 'max'), seq: r.u32(body + 2, 'SeqNo'), ack: r.u32(body + 6, 'AckNo') };
        break;
      case CEE_PG: {
        need(17, 'Priority Groups');
        const prio_pgid: number[] = [];
        for (let i = 0; i < 4; i++) {
          const b = r.u8(body + 4 + i, 'PGID table');
          prio_pgid.push(b >> 4, b & 0xf);
        }
        prio_pgid.forEach((g, p) => {
          if (g > 7 && g !== 15) throw new DecodeError('bad_value', body + 4 + (p >> 1), `priority ${p} has PGID ${g}; 8..14 are reserved`);
        });
        const pg_bw = Array.from(r.slice(body + 8, 8, 'PG %'));
        pg_bw.forEach((v, i) => {
          if (v > 100) throw new DecodeError('bad_value', body + 8 + i, `PG ${i} bandwidth ${v}% exceeds 100`);
        });
        out.pg = { ...readFeatureHeader(r, body), prio_pgid, pg_bw, num_tcs: r.u8(body + 16, 'NumTCs') };
        break;
      }
      case CEE_PFC:
        need(6, 'PFC');
        out.pfc = { ...readFeatureHeader(r, body), enable_prios: bitsToList(r.u8(body + 4, 'PFC bitmap')), num_tcs: r.u8(body + 5, 'NumTCs') };
        break;
      case CEE_APP: {
        if (len < 4 || (len - 4) % 6 !== 0) throw new DecodeError('bad_length', at, `CEE Application sub-TLV length ${len} is not 4 + 6n`);
        const app: CeeAppEntry[] = [];
        for (let e = body + 4; e < body + len; e += 6) {
          const x = r.u8(e + 2, 'APP OUI/selector');
          const sel = x & 3;
          app.push({ protocol: r.u16(e, 'APP protocol'), selector: sel === 0 ? 'ethertype' : sel === 1 ? 'port' : sel, oui: ((x >> 2) << 16) | r.u16(e + 3, 'APP OUI'), priorities: bitsToList(r.u8(e + 5, 'APP priority map')) });
        }
        out.app = { ...readFeatureHeader(r, body), app };
        break;
      }
      default:
        out.other.push({ sub_type: type, hex: toHex(r.slice(body, len, 'CEE sub-TLV')) });
    }
    at = body + len;
  }
  if (!out.control) throw new DecodeError('tlv_order', from, 'the CEE TLV has no Control sub-TLV');
  const t: CeeTlv = { type: 'cee', control: out.control, order };
  if (out.pg) t.pg = out.pg;
  if (out.pfc) t.pfc = out.pfc;
  if (out.app) t.app = out.app;
  if (out.other.length) t.other = out.other;
  return t;
}
