// Units and limits shared by every input path (config schema, headroom, frames, vectors, sim):
// one grammar for rates and lengths, one list of port speeds, one MTU range, one source-MAC rule
// (issue 10). Parsers return undefined for text that does not parse, so that zod transforms and the
// flag parsers word their own `path: rule` messages from the same rules.
import { InputError } from '../errors/errors.js';
import { didYouMean, quantityCheck } from './grammar.js';
export { quantityCheck, type QuantityKind } from './grammar.js';

/** Port speeds with model constants (headroom table, SONiC plugin), bit/s: 10G..800G. */
export const PORT_SPEEDS: readonly number[] = [10e9, 25e9, 40e9, 50e9, 100e9, 200e9, 400e9, 800e9];

export function speedLabel(bps: number): string {
  return `${bps / 1e9}G`;
}

export const PORT_SPEED_NAMES = PORT_SPEEDS.map(speedLabel);

/**
 * A rate with a unit (the grammar of docs/units.md) -> bit/s; undefined if it does not parse. A bare
 * number is refused here too (0 aside): rateCheck says why and what was probably meant.
 */
export function parseRate(v: number | string): number | undefined {
  return quantityCheck('rate', v).value;
}

/** A port speed of PORT_SPEEDS (any spelling parseRate takes); throws `path: must be one of ...`. */
export function parsePortSpeed(v: number | string, path = 'speed'): number {
  const bps = parseRate(v);
  if (bps === undefined || !PORT_SPEEDS.includes(bps)) {
    throw new InputError({ path, rule: `must be one of ${PORT_SPEED_NAMES.join(', ')} (got ${JSON.stringify(v)})${didYouMean('rate', v)}` });
  }
  return bps;
}

export const MAX_CABLE_M = 100_000;

/** "300m", "1.5km" -> metres rounded to 1 mm; undefined if not a length 0..MAX_CABLE_M with its unit. */
export function parseLength(v: number | string): number | undefined {
  const metres = quantityCheck('length', v).value;
  if (metres === undefined || metres > MAX_CABLE_M) return undefined;
  return Math.round(metres * 1000) / 1000;
}

export const CABLE_RULE = `must be a length 0..${MAX_CABLE_M} m like "300m" or "2km"`;

/** A cable length (parseLength); throws `path: must be a length ...`. */
export function parseCable(v: number | string, path = 'cable'): number {
  const metres = parseLength(v);
  if (metres === undefined) throw new InputError({ path, rule: `${CABLE_RULE}, got ${JSON.stringify(v)}${didYouMean('length', v)}` });
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
