// Field-level building blocks of the DCB config schema: integers with a range, 8-entry tables,
// priority lists, speeds, cable lengths, MAC addresses and OUIs. Every message names the rule and the
// value it got, so a `path: rule` line is enough to fix the input (docs/design.md §5).
import { z } from 'zod';
import { CABLE_RULE, parseLength, sourceMacCheck } from '../units/units.js';
import { didYouMean, quantityCheck } from '../units/grammar.js';

/** Shows a rejected value the way the user wrote it (strings quoted, the rest as JSON). */
export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === undefined) return 'nothing';
  if (typeof v === 'number' && !Number.isFinite(v)) return v > 0 ? 'a number too large to represent (infinity)' : String(v); // JSON would say null
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s.length > 40 ? s.slice(0, 37) + '...' : s;
  } catch {
    // too deeply nested for JSON.stringify (String() of it would overflow the stack too)
    return Array.isArray(v) ? 'a deeply nested list' : typeof v === 'object' ? 'a deeply nested mapping' : typeof v;
  }
}

type IssueLike = { input?: unknown };

/** The message for a value of the wrong kind: `is required` when absent, else what it must be. */
export function mustBe(what: string) {
  return (iss: IssueLike) => (iss.input === undefined ? 'is required' : `must be ${what}, got ${show(iss.input)}`);
}

/** An integer in [min, max]; one message for every way of missing it. */
export function intIn(min: number, max: number, what = 'an integer') {
  const error = mustBe(`${what} ${min}..${max}`);
  // One schema with its checks, not four: each chained .int()/.min()/.max() builds a new schema,
  // which is most of what reading a config costs a short `dcbkit run` (the issues are the same).
  return z.int({ error }).check(z.gte(min, { error }), z.lte(max, { error }));
}

export const bool = () => z.boolean({ error: mustBe('true or false') });

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: mustBe(`one of ${values.join(', ')}`) });
}

export function strictObject<S extends z.core.$ZodLooseShape>(shape: S) {
  // Only the type error is worded here; unknown keys are worded by parseConfig (one line per key).
  return z.strictObject(shape, {
    error: (iss: IssueLike & { code?: string }) =>
      iss.code === 'invalid_type' ? `must be a mapping of keys to values, got ${show(iss.input)}` : undefined,
  });
}

/** A table of exactly 8 entries, indexed by priority or by TC (`per` says which). */
export function table8<T extends z.ZodType>(entry: T, per: 'priority' | 'TC' | 'PGID') {
  return z
    .array(entry, { error: mustBe(`a list of 8 entries (one per ${per} 0..7)`) })
    .length(8, {
      error: (iss: IssueLike) =>
        `must have 8 entries (one per ${per} 0..7), got ${Array.isArray(iss.input) ? iss.input.length : show(iss.input)}`,
    });
}

export const priority = () => intIn(0, 7, 'a priority');

/** A set of priorities written as a list; duplicates are rejected, the output is sorted. */
export function prioritySet() {
  return z
    .array(priority(), { error: mustBe('a list of priorities 0..7') })
    .superRefine((list, ctx) => {
      const seen = new Set<number>();
      list.forEach((p, i) => {
        if (seen.has(p)) ctx.addIssue({ code: 'custom', path: [i], message: `priority ${p} is listed twice` });
        seen.add(p);
      });
    })
    .transform((list) => [...list].sort((a, b) => a - b));
}

/** 8 bits take 8e12/speed ps; the core counts whole picoseconds, so that must be an integer. */
const PS_PER_BYTE_NUMERATOR = 8e12;

/** Port speed with its unit: "100G", "2.5G", "100000M", "100Gbit" (docs/units.md); normalised to bit/s. */
export const speed = () =>
  z
    .union([z.number(), z.string()], {
      error: mustBe('a speed like "100G"'),
    })
    .transform((v, ctx) => {
      const { value: bps, rule } = quantityCheck('rate', v);
      if (bps === undefined || !Number.isSafeInteger(bps)) {
        ctx.addIssue({ code: 'custom', message: rule ?? `must be a whole number of bit/s, got ${show(v)}` });
        return z.NEVER;
      }
      if (bps < 1e6 || bps > 1.6e12) {
        ctx.addIssue({ code: 'custom', message: `must be between 1 Mb/s and 1.6 Tb/s, got ${bps} bit/s` });
        return z.NEVER;
      }
      if (PS_PER_BYTE_NUMERATOR % bps !== 0) {
        ctx.addIssue({ code: 'custom', message: `must give a whole number of picoseconds per byte (8e12 / speed), got ${bps} bit/s` });
        return z.NEVER;
      }
      return bps;
    });

/** Cable length with its unit: "300m", "2km" (docs/units.md); normalised to metres (1 mm resolution). */
export const cable = () =>
  z
    .union([z.number(), z.string()], { error: mustBe('a length like "300m"') })
    .transform((v, ctx) => {
      const metres = parseLength(v);
      if (metres === undefined) {
        ctx.addIssue({ code: 'custom', message: `${CABLE_RULE}, got ${show(v)}${didYouMean('length', v)}` });
        return z.NEVER;
      }
      return metres;
    });

/** A unicast MAC address, "02:00:00:00:00:01" or with hyphens; normalised to lower case with colons. */
export const mac = () =>
  z
    .string({ error: mustBe('a MAC address like "02:00:00:00:00:01"') })
    .transform((v, ctx) => {
      const { rule, mac } = sourceMacCheck(v);
      if (rule) {
        ctx.addIssue({ code: 'custom', message: rule });
        return z.NEVER;
      }
      return mac!;
    });

const OUI_RE = /^[0-9a-f]{2}([:-])[0-9a-f]{2}\1[0-9a-f]{2}$/i;

/** An OUI or CID, "0A-DC-B0"; normalised to upper case with hyphens (IEEE style). */
export const oui = () =>
  z
    .string({ error: mustBe('an OUI like "0A-DC-B0"') })
    .transform((v, ctx) => {
      if (!OUI_RE.test(v)) {
        ctx.addIssue({ code: 'custom', message: `must be an OUI of 3 hex octets like "0A-DC-B0", got ${show(v)}` });
        return z.NEVER;
      }
      return v.toUpperCase().replace(/:/g, '-');
    });

/** A 16-bit protocol number: an integer or a hex string "0x8906" (JSON has no hex literals). */
export const protocolId = () =>
  z
    .union([z.number(), z.string()], { error: mustBe('an integer 0..65535 or a hex string like "0x8906"') })
    .transform((v, ctx) => {
      const n = typeof v === 'number' ? v : /^0x[0-9a-f]{1,4}$/i.test(v.trim()) ? parseInt(v.trim(), 16) : /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
      if (!Number.isInteger(n) || n < 0 || n > 0xffff) {
        ctx.addIssue({ code: 'custom', message: `must be an integer 0..65535 or a hex string like "0x8906", got ${show(v)}` });
        return z.NEVER;
      }
      return n;
    });

/** IFNAMSIZ (include/uapi/linux/if.h) counts the terminating NUL, so a name holds 15 bytes. */
export const IFNAME_MAX_BYTES = 15;

/**
 * The Linux kernel's rule for a network interface name: dev_valid_name() in net/core/dev.c
 * (torvalds/linux e869e6223d29115d2d8351e5e3f514ddc1099f29). 1..15 bytes of UTF-8, not "." or
 * "..", no '/', ':', NUL or byte the kernel's isspace() accepts (lib/ctype.c: \t \n \v \f \r,
 * space and 0xA0, which also occurs inside UTF-8 sequences such as "à"). Returns the message
 * (`must ...`) for a broken rule, or undefined for a valid name. Shell metacharacters are valid names: scripts quote them.
 */
export function interfaceNameRule(name: string): string | undefined {
  const bytes = Buffer.from(name, 'utf8');
  const rule = `must be an interface name: 1..${IFNAME_MAX_BYTES} bytes, not "." or "..", without '/', ':', whitespace or control characters`;
  if (bytes.length === 0) return 'must not be empty';
  if (bytes.length > IFNAME_MAX_BYTES) return `${rule}; got ${bytes.length} bytes in ${show(name)}`;
  if (name === '.' || name === '..') return `${rule}; got ${show(name)}`;
  // Control characters (ESC, BEL, DEL, ...) would reach terminals and generated scripts raw; the
  // kernel's dev_valid_name allows them, but no real interface is named with one.
  const bad = bytes.findIndex((b) => b < 0x20 || b === 0x7f || b === 0x2f || b === 0x3a || b === 0x20 || b === 0xa0);
  if (bad >= 0) return `${rule}; got byte 0x${bytes[bad].toString(16).padStart(2, '0')} at ${bad} in ${show(name)}`;
  return undefined;
}

/** A string that is a valid Linux interface name (interfaceNameRule). */
export const interfaceName = () =>
  z.string({ error: mustBe('an interface name') }).superRefine((s, ctx) => {
    const broken = interfaceNameRule(s);
    if (broken) ctx.addIssue({ code: 'custom', message: broken });
  });
