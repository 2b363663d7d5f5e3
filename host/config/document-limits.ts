// Limits of a document (YAML 1.2 or JSON) that hold in time linear in its length.
//
// - Entries: a document may hold at most MAX_DOCUMENT_ENTRIES collection entries. Every entry of a
//   block collection starts a line and every further entry of a flow collection follows a comma, so
//   lines + commas bound the entries from above; this is counted in one pass over the text before
//   the parser builds anything (the YAML parser keeps about 1.4 kB per entry).
// - Values, YAML: the yaml package resolves a double-quoted scalar a character at a time (10 MB took
//   1.5 s of CPU and 400 MB), so a YAML value may have at most MAX_VALUE_CHARS characters, told from
//   the package's lexer (tens of ms for 10 MB) before anything is resolved; only a text longer than
//   that can hold such a value, so short documents skip the pass. JSON strings are read by V8's
//   JSON.parse, which has no such cost.
// - Duplicate keys, YAML: the yaml package's own check (`uniqueKeys`) compares each new key with every
//   earlier key of its map, quadratic in the map's size (50,000 keys took about a minute); the
//   composed document is walked once here instead, each map's scalar keys in a hash set, with the
//   same equality (two scalar keys with the same value; a collection key is never equal to another).
// - Duplicate keys, JSON: JSON.parse keeps the last value of a repeated key silently (ECMA-404 leaves
//   repeats to the reader, RFC 8259 §4 says names SHOULD be unique); the text is scanned once, one
//   key set per open object, and a repeat is refused as YAML's is.
import { isAlias, isMap, isPair, isScalar, isSeq, Lexer, type Document } from 'yaml';
import type { Problem } from '../errors/errors.js';

/** Four times the entries of the largest generated scenario (`gen clos --k 32 --flows 100000`: 460,000). */
export const MAX_DOCUMENT_ENTRIES = 2_000_000;

/** 1 MiB: a thousand times the longest value dcbkit reads (a name, a path, a size). */
export const MAX_VALUE_CHARS = 1024 * 1024;

/** Characters of the longest token (a value, with its quotes) of the YAML `text`; 0 for a short text. */
export function longestYamlValue(text: string): number {
  if (text.length <= MAX_VALUE_CHARS) return 0;
  let longest = 0;
  for (const token of new Lexer().lex(text)) if (token.length > longest) longest = token.length;
  return longest;
}

/** Lines plus commas of `text`: an upper bound of its collection entries. */
export function entriesBound(text: string): number {
  // indexOf jumps between matches in native code; a loop over every character ran in the
  // interpreter on a start-up's only call (a 23 kB scenario: a tenth of reading it)
  return occurrences(text, '\n') + occurrences(text, ',');
}

function occurrences(text: string, c: string): number {
  let n = 0;
  for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) n++;
  return n;
}

/** The 1-based line of each offset, for offsets asked in increasing order. */
function lineCounter(text: string): (offset: number) => number {
  let at = 0;
  let line = 1;
  return (offset) => {
    if (offset < at) { at = 0; line = 1; }
    for (; at < offset && at < text.length; at++) if (text.charCodeAt(at) === 10) line++;
    return line;
  };
}

/** How a key reads in a message: at most 40 characters of it. */
function keyText(key: string): string {
  const s = JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}...` : key);
  return s;
}

/** Each repeated scalar key of every map in `doc` (walked without recursion). */
export function yamlDuplicateKeys(doc: Document, text: string): Problem[] {
  const problems: Problem[] = [];
  const repeats: { key: string; offset: number; first: number }[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (isAlias(node) || !node) continue;
    if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    } else if (isMap(node)) {
      // offsets, turned into lines only for a repeat (counting lines for every key would be quadratic)
      const seen = new Map<unknown, number>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        if (isScalar(pair.key)) {
          const v = pair.key.value;
          const first = seen.get(v);
          const offset = pair.key.range?.[0] ?? 0;
          if (first !== undefined) repeats.push({ key: String(v), offset, first });
          else seen.set(v, offset);
        } else if (pair.key) stack.push(pair.key);
        stack.push(pair.value);
      }
    }
  }
  // every offset named, in increasing order, counted in one pass over the text
  const lineAt = lineCounter(text);
  const lineOf = new Map([...new Set(repeats.flatMap((r) => [r.offset, r.first]))].sort((a, b) => a - b).map((o) => [o, lineAt(o)]));
  for (const r of repeats.sort((a, b) => a.offset - b.offset)) {
    problems.push({ path: '', rule: `line ${lineOf.get(r.offset)}: not valid YAML: the key ${keyText(r.key)} is repeated (first on line ${lineOf.get(r.first)}); map keys must be unique` });
  }
  return problems;
}

/** Each repeated key of every object in the JSON `text` (already valid JSON). */
export function jsonDuplicateKeys(text: string): Problem[] {
  const problems: Problem[] = [];
  const objects: (Set<string> | null)[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) line++;
    else if (c === 123) objects.push(new Set()); // {
    else if (c === 91) objects.push(null); // [
    else if (c === 125 || c === 93) objects.pop(); // } ]
    else if (c === 34) {
      // a string: find its end, then whether a colon follows (a key)
      const start = i;
      let escaped = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) { i++; escaped = true; } else if (d === 34) break;
      }
      let j = i + 1;
      while (j < text.length && (text[j] === ' ' || text[j] === '\t' || text[j] === '\r' || text[j] === '\n')) j++;
      const keys = objects[objects.length - 1];
      if (text[j] !== ':' || !keys) continue;
      const raw = text.slice(start, i + 1);
      const key = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
      if (keys.has(key)) problems.push({ path: '', rule: `line ${line}: not valid JSON: the key ${keyText(key)} is repeated in one object; keys must be unique` });
      else keys.add(key);
    }
  }
  return problems;
}
