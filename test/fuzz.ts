// Seeded fuzzing of a decoder: random byte strings and mutations of valid encodings (bit flips,
// byte overwrites, truncation, extension, splices). A decoder may only (a) throw its DecodeError,
// or (b) return a value that re-encodes to exactly the input (the codecs are lossless), and it
// must return: the loop is bounded and every call is synchronous.
import { DecodeError } from '../host/frames/bytes.js';

export interface FuzzStats {
  runs: number;
  accepted: number;
  errors: Map<string, number>;
}

/** A seeded 32-bit xorshift generator: the same seed gives the same sequence. */
export function xorshift32(seed: number): () => number {
  let s = seed >>> 0 || 0x6d2b79f5;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

export function fuzzDecoder<T>(
  seeds: Uint8Array[],
  decode: (b: Uint8Array) => T,
  reencode: ((v: T) => Uint8Array) | null,
  opts: { runs?: number; seed?: number; maxLen?: number } = {},
): FuzzStats {
  const runs = opts.runs ?? 100_000;
  const next = xorshift32(opts.seed ?? 1);
  const maxLen = opts.maxLen ?? 160;
  const stats: FuzzStats = { runs, accepted: 0, errors: new Map() };
  // Most inputs end in a DecodeError; V8 spends more time capturing their stack traces than
  // decoding, and the fuzz loop never reads them.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    loop(stats, runs, seeds, decode, reencode, next, maxLen);
  } finally {
    Error.stackTraceLimit = limit;
  }
  return stats;
}

function loop<T>(
  stats: FuzzStats,
  runs: number,
  seeds: Uint8Array[],
  decode: (b: Uint8Array) => T,
  reencode: ((v: T) => Uint8Array) | null,
  next: () => number,
  maxLen: number,
): void {
  for (let i = 0; i < runs; i++) {
    const input = mutate(seeds[next() % seeds.length], seeds, next, maxLen);
    let value: T;
    try {
      value = decode(input);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw new Error(`run ${i}: decoder threw ${String(e)} on ${hex(input)}`);
      if (!(e.offset >= 0 && e.offset <= input.length)) throw new Error(`run ${i}: offset ${e.offset} outside the input (${input.length} bytes)`);
      stats.errors.set(e.code, (stats.errors.get(e.code) ?? 0) + 1);
      continue;
    }
    stats.accepted++;
    if (reencode) {
      const back = reencode(value);
      if (hex(back) !== hex(input)) throw new Error(`run ${i}: accepted ${hex(input)} but re-encoded ${hex(back)}`);
    }
  }
}

function mutate(seed: Uint8Array, seeds: Uint8Array[], next: () => number, maxLen: number): Uint8Array {
  const kind = next() % 8;
  if (kind === 0) {
    const out = new Uint8Array(next() % maxLen);
    for (let i = 0; i < out.length; i++) out[i] = next() & 0xff;
    return out;
  }
  let b = seed.slice();
  const edits = 1 + (next() % 3);
  for (let e = 0; e < edits; e++) {
    const op = next() % 6;
    if (op <= 1 && b.length) b[next() % b.length] ^= 1 << (next() % 8);
    else if (op === 2 && b.length) b[next() % b.length] = next() & 0xff;
    else if (op === 3) b = b.slice(0, next() % (b.length + 1));
    else if (op === 4) {
      const n = 1 + (next() % 8);
      const grown = new Uint8Array(b.length + n);
      grown.set(b);
      for (let i = b.length; i < grown.length; i++) grown[i] = next() % 3 === 0 ? 0 : next() & 0xff;
      b = grown;
    } else {
      const other = seeds[next() % seeds.length];
      const cut = next() % (b.length + 1);
      const tail = other.subarray(next() % (other.length + 1));
      const spliced = new Uint8Array(cut + tail.length);
      spliced.set(b.subarray(0, cut));
      spliced.set(tail, cut);
      b = spliced;
    }
  }
  return b;
}

const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
