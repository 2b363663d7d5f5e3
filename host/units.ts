// Units and limits shared by every input path (config schema, headroom, frames, vectors, sim):
// one grammar for rates and lengths, one list of port speeds, one MTU range, one source-MAC rule
// (issue 10). Parsers return undefined for text that does not parse, so that zod transforms and the
// flag parsers word their own `path: rule` messages from the same rules.
import { InputError } from './errors.js';

/** Port speeds with model constants (headroom table, SONiC plugin), bit/s: 10G..800G. */
export const PORT_SPEEDS: readonly number[] = [10e9, 25e9, 40e9, 50e9, 100e9, 200e9, 400e9, 800e9];

export function speedLabel(bps: number): string {
  return `${bps / 1e9}G`;
}

export const PORT_SPEED_NAMES = PORT_SPEEDS.map(speedLabel);

// "100G", "100 g", "100Gbps", "100Gb/s", "100GbE", "2500M", "1.6T" (unit letter case-insensitive).
const RATE_RE = /^(\d+(?:\.\d+)?)\s*([MGT])(?:b(?:ps|\/s|it\/s|E)?)?$/i;
const RATE_UNIT_BPS: Record<string, number> = { M: 1e6, G: 1e9, T: 1e12 };

/** A rate written with a unit ("100G", "25Gbps", "2500M") or a number of bit/s; undefined if neither. */
export function parseRate(v: number | string): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  const m = RATE_RE.exec(v.trim());
  if (!m) return undefined;
  return Math.round(Number(m[1]) * RATE_UNIT_BPS[m[2].toUpperCase()]);
}

/** A port speed of PORT_SPEEDS (any spelling parseRate takes); throws `path: must be one of ...`. */
export function parsePortSpeed(v: number | string, path = 'speed'): number {
  const bps = parseRate(v);
  if (bps === undefined || !PORT_SPEEDS.includes(bps)) {
    throw new InputError({ path, rule: `must be one of ${PORT_SPEED_NAMES.join(', ')} (got ${JSON.stringify(v)})` });
  }
  return bps;
}

export const MAX_CABLE_M = 100_000;
const LENGTH_RE = /^(\d+(?:\.\d+)?)\s*(m|km)$/i;

/** "300m", "1.5km" or a number of metres -> metres rounded to 1 mm; undefined if not a length 0..MAX_CABLE_M. */
export function parseLength(v: number | string): number | undefined {
  let metres: number | undefined;
  if (typeof v === 'number') metres = v;
  else {
    const m = LENGTH_RE.exec(v.trim());
    if (m) metres = Number(m[1]) * (m[2].toLowerCase() === 'km' ? 1000 : 1);
  }
  if (metres === undefined || !Number.isFinite(metres) || metres < 0 || metres > MAX_CABLE_M) return undefined;
  return Math.round(metres * 1000) / 1000;
}

export const CABLE_RULE = `must be a length 0..${MAX_CABLE_M} m like "300m" or "2km"`;

/** A cable length (parseLength); throws `path: must be a length ...`. */
export function parseCable(v: number | string, path = 'cable'): number {
  const metres = parseLength(v);
  if (metres === undefined) throw new InputError({ path, rule: `${CABLE_RULE}, got ${JSON.stringify(v)}` });
  return metres;
}

/**
 * Frame sizes, FCS included: 64 (the minimum frame) .. 16384 (above every jumbo MTU of the targets:
 * SONiC and the Spectrum ports stop at 9216; the bound leaves room without admitting 64 KB frames
 * no DCB port carries).
 */
export const MTU_MIN = 64;
export const MTU_MAX = 16384;
export const MTU_RULE = `must be a whole number of bytes ${MTU_MIN}..${MTU_MAX}`;

/** An MTU given as text or number; throws `path: must be a whole number of bytes 64..16384`. */
export function parseMtu(v: string | number, path = 'mtu'): number {
  const s = String(v).trim();
  const n = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!(n >= MTU_MIN && n <= MTU_MAX)) throw new InputError({ path, rule: `${MTU_RULE} (got "${s}")` });
  return n;
}

/** The rule a lossless MTU breaks against its port MTU, or undefined (a lossless frame is a frame of the port). */
export function losslessMtuRule(losslessMtu: number, mtu: number): string | undefined {
  return losslessMtu > mtu ? `must not exceed the port MTU (${mtu} bytes), got ${losslessMtu}` : undefined;
}

const MAC_RE = /^[0-9a-f]{2}([:-])[0-9a-f]{2}(\1[0-9a-f]{2}){4}$/i;

/**
 * Why `text` is not a usable source MAC (the address of a port: 6 hex octets, unicast, not all
 * zeros), or undefined. Returns the normalised form too, lower case with colons.
 */
export function sourceMacCheck(text: string): { rule?: string; mac?: string } {
  if (!MAC_RE.test(text)) return { rule: `must be a MAC address of 6 hex octets like "02:00:00:00:00:01", got ${JSON.stringify(text)}` };
  const mac = text.toLowerCase().replace(/-/g, ':');
  if (parseInt(mac.slice(0, 2), 16) & 1) return { rule: `must be a unicast address (I/G bit of the first octet 0), got ${JSON.stringify(text)}` };
  if (mac === '00:00:00:00:00:00') return { rule: 'must not be all zeros' };
  return { mac };
}

/** A source MAC (sourceMacCheck); throws `path: rule`. */
export function parseSourceMac(text: string, path = 'src'): string {
  const { rule, mac } = sourceMacCheck(text);
  if (rule) throw new InputError({ path, rule });
  return mac!;
}
