// The grammar of quantities in every input: scenario and config files, CLI flags, sweep parameters
// (docs/units.md is the table of what it accepts and refuses). A quantity is a decimal number and a
// unit: times -> picoseconds, sizes -> bytes, rates -> bit/s, lengths -> metres (the integer units of
// docs/design.md §2). A bare number is refused, 0 alone excepted, because its unit differs by tool
// (ns-3 writes seconds, SONiC Mb/s for a port speed, the core picoseconds): read silently, 0.02
// meant as seconds became 0.02 ps. Spellings of tc, iproute2 `dcb`, SONiC and ns-3 that mean
// something else, or nothing here, are refused with the spelling that says what they mean.
//
// quantityCheck never throws: it returns the value, or the rule broken with a did-you-mean, so that
// each caller (zod transforms, flag parsers) words its own `path: rule` from the same text.

export type QuantityKind = 'time' | 'size' | 'rate' | 'length';

const TIME_PS: Record<string, number> = { ps: 1, ns: 1e3, us: 1e6, 'µs': 1e6, 'μs': 1e6, ms: 1e9, s: 1e12 };
const SIZE_B: Record<string, number> = {
  B: 1, kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3,
};
const LENGTH_M: Record<string, number> = { m: 1, km: 1000 };
/** Decimal prefixes of a rate; the letter's case does not matter (tc writes `gbit`, ns-3 `Gbps`). */
const RATE_PREFIX: Record<string, number> = { '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12 };
/** What follows the prefix of a bit rate: ns-3 `bps`, `b/s`; tc and dcb `bit`; `100GbE`; or nothing after a prefix (`100G`). */
const RATE_BITS = /^([kKmMgGtT]?)(bps|b\/s|bit\/s|bits\/s|b|bE)?$/;
/** tc reads its units in any case; `bit` cannot be mistaken for bytes, so `100GBIT` is tc's 100 Gbit/s. */
const RATE_TC_BITS = /^([kmgt]?)bit$/i;
/** A B is a byte: ns-3 `MBps`, tc's `mbps` (tc's `bps` is bytes per second too, but ns-3 and datasheets mean bits). */
const RATE_BYTES = /^([kKmMgGtT]?)(B|Bps|B\/s|byte\/s|bytes\/s)$/;

export const QUANTITY_RULES: Record<QuantityKind, string> = {
  time: 'a time needs a unit: ps, ns, us, ms or s, e.g. 10us',
  size: 'a size needs a unit: B, kB (= KB), MB, GB, KiB, MiB or GiB, e.g. 12MB',
  rate: 'a rate needs a unit: bit/s with a prefix k, M, G or T, written G, Gbps, Gb/s or Gbit, e.g. 100G',
  length: 'a length needs a unit: m or km, e.g. 300m',
};

/** Spellings of other tools for a time: what they mean here. */
const TIME_ALIASES: Record<string, (n: number) => string> = {
  psec: (n) => `${n}ps`, nsec: (n) => `${n}ns`, usec: (n) => `${n}us`, msec: (n) => `${n}ms`,
  sec: (n) => `${n}s`, secs: (n) => `${n}s`, S: (n) => `${n}s`, min: (n) => `${n * 60}s`, h: (n) => `${n * 3600}s`,
};
/** tc's size letters are binary (k = 1024 bytes); `b` and `bytes` are bytes. */
const SIZE_ALIASES: Record<string, (n: number) => string> = {
  b: (n) => `${n}B`, byte: (n) => `${n}B`, bytes: (n) => `${n}B`,
  k: (n) => `${n}KiB`, kb: (n) => `${n}KiB`, K: (n) => `${n}KiB`, Kb: (n) => `${n}KiB`, kiB: (n) => `${n}KiB`,
  m: (n) => `${n}MiB`, mb: (n) => `${n}MiB`, M: (n) => `${n}MiB`, Mb: (n) => `${n}MiB`, miB: (n) => `${n}MiB`,
  g: (n) => `${n}GiB`, gb: (n) => `${n}GiB`, G: (n) => `${n}GiB`, Gb: (n) => `${n}GiB`, giB: (n) => `${n}GiB`,
};
const LENGTH_ALIASES: Record<string, (n: number) => string> = {
  M: (n) => `${n}m`, meter: (n) => `${n}m`, meters: (n) => `${n}m`, metre: (n) => `${n}m`, metres: (n) => `${n}m`,
  KM: (n) => `${n}km`, Km: (n) => `${n}km`, cm: (n) => `${n / 100}m`, mm: (n) => `${n / 1000}m`,
};

const QUANTITY_RE = /^([0-9]+(?:\.[0-9]+)?)\s*([A-Za-zµμ/]*)$/;

/** The port speeds in Gb/s, to recognise SONiC's Mb/s (`100000`) and a bare `100` meant as 100G. */
const PORT_GBPS = [10, 25, 40, 50, 100, 200, 400, 800];

function bareGuess(kind: QuantityKind, n: number, unit?: string): string {
  if (unit) return `${n}${unit}`;
  switch (kind) {
    case 'time': return `${n}s`;
    case 'size': return `${n}B`;
    case 'length': return `${n}m`;
    case 'rate':
      if (PORT_GBPS.includes(n)) return `${n}G`;
      if (PORT_GBPS.includes(n / 1000)) return `${n / 1000}G`; // SONiC's PORT speed, Mb/s
      if (PORT_GBPS.includes(n / 1e9)) return `${n / 1e9}G`;
      return `${n}bit`;
  }
}

function rateValue(n: number, unit: string): { value?: number; guess?: string } {
  const bits = RATE_BITS.exec(unit) ?? RATE_TC_BITS.exec(unit);
  if (bits && (bits[1] !== '' || (bits[2] !== undefined && bits[2] !== 'bE'))) {
    return { value: n * RATE_PREFIX[bits[1].toLowerCase()] };
  }
  const bytes = RATE_BYTES.exec(unit);
  if (bytes) return { guess: `${n * 8}${bytes[1].toUpperCase()}bit` };
  const binary = /^([kmgt])i(b|bit|bps|b\/s|bit\/s)$/i.exec(unit);
  if (binary) return { guess: `${n * 1024 ** ('kmgt'.indexOf(binary[1].toLowerCase()) + 1)}bit` };
  return {};
}

/**
 * The value of `v` as a quantity of `kind` in its base unit (rounded to whole ps, bytes and bit/s;
 * metres unrounded), or the rule it breaks with what was probably meant; `bareUnit` is the unit a
 * bare number was meant in where the place says (a flag documented in ns).
 */
export function quantityCheck(kind: QuantityKind, v: number | string, bareUnit?: string): { value?: number; rule?: string } {
  const text = typeof v === 'number' ? String(v) : v.trim();
  const refuse = (guess?: string, bare = false) => ({
    rule: `${QUANTITY_RULES[kind]}${bare ? ' (a bare number is refused, 0 alone excepted)' : ''}; got ${JSON.stringify(v)}` +
      (guess ? `; did you mean ${guess}?` : ''),
  });
  if (typeof v === 'number' && !Number.isFinite(v)) return refuse();
  const m = QUANTITY_RE.exec(text);
  if (!m) return refuse();
  const n = Number(m[1]);
  const unit = m[2];
  if (unit === '') return n === 0 ? { value: 0 } : refuse(bareGuess(kind, n, bareUnit), true);
  let scale: number | undefined;
  let guess: string | undefined;
  if (kind === 'rate') {
    const r = rateValue(n, unit);
    if (r.value !== undefined) return { value: Math.round(r.value) };
    guess = r.guess;
  } else {
    const table = kind === 'time' ? TIME_PS : kind === 'size' ? SIZE_B : LENGTH_M;
    const aliases = kind === 'time' ? TIME_ALIASES : kind === 'size' ? SIZE_ALIASES : LENGTH_ALIASES;
    scale = table[unit];
    if (scale !== undefined) return { value: kind === 'length' ? n * scale : Math.round(n * scale) };
    guess = aliases[unit]?.(n);
  }
  return refuse(guess);
}

/** `; did you mean X?` for a value quantityCheck refuses with a guess, else ''. */
export function didYouMean(kind: QuantityKind, v: number | string): string {
  const rule = quantityCheck(kind, v).rule;
  const at = rule?.indexOf('; did you mean') ?? -1;
  return rule && at >= 0 ? rule.slice(at) : '';
}

/**
 * The base-unit value of a quantity whose kind is not known (a swept parameter's value, "12500B"),
 * if exactly one kind reads it; the unit sets are disjoint, so at most one does for a unit-bearing text.
 */
export function quantityOfAnyKind(v: number | string): number | undefined {
  if (typeof v === 'number') return v;
  const kinds: QuantityKind[] = ['time', 'size', 'rate', 'length'];
  const values = kinds.map((k) => quantityCheck(k, v).value).filter((x) => x !== undefined);
  return values.length === 1 ? values[0] : undefined;
}
