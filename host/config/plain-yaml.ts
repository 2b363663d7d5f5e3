// A reader for the plain subset of YAML 1.2 (https://yaml.org/spec/1.2.2/) that dcbkit's documents are
// written in, giving the value the yaml package's `parseDocument(text).toJS()` gives, or `undefined`
// for any text outside the subset, which then goes to the full parser. It exists for speed: the full
// parser builds a document of nodes with source ranges, kept so that an error can name its line, and
// that costs a 23 kB fat-tree scenario about as much CPU as simulating it for a microsecond. A text
// this reader takes is valid YAML with no error to word, so nothing it builds needs a position.
//
// The subset, read line by line for the block styles and character by character inside flow ones:
// - printable ASCII and line feeds only (no tab or carriage return), other characters in comments only;
// - block mappings whose keys are plain words ([A-Za-z_][A-Za-z0-9_./>+-]*, not a null or boolean
//   word, not `__proto__`, each once per mapping) followed by `: ` or `:` at the end of the line;
// - block sequences (`- `), an entry holding a scalar, a flow collection, a nested block or a compact
//   mapping (`- key: value` with its further keys aligned under the first);
// - a mapping's sequence indented under its key or at the key's own column (spec 8.2.1, "compact");
// - flow sequences and mappings (`[a, b]`, `{ k: v }`) over one or several lines, each line indented
//   deeper than the block holding them, without empty or trailing entries;
// - plain scalars of one line without flow indicators, quotes, backslashes or `: `; quoted scalars
//   of one line without escapes; comments after white space; empty values (null).
// Everything else (anchors, aliases, tags, directives, document markers, block scalars, multi-line
// scalars, explicit keys, a repeated key, nesting deeper than MAX_DEPTH) gives `undefined`.
//
// Scalars resolve by the YAML 1.2 core schema (spec 10.3.2), in the order the yaml package tries its
// tags: null, boolean, octal, decimal and hexadecimal integers, infinities and NaN, floats.
//
// Invariants: one pass, each character read a bounded number of times, recursion no deeper than
// MAX_DEPTH, so any text is refused or read in time linear in its length; a refusal is the thrown
// OUTSIDE_SUBSET token, caught at the entry point and never seen by a caller.

/** Deeper nesting goes to the full parser (whose result the document's depth check then refuses). */
const MAX_DEPTH = 64;

const OUTSIDE_SUBSET = Symbol('outside the plain YAML subset');

const LF = 10;
const SPACE = 32;
const HASH = 35;

const KEY = /^[A-Za-z_][A-Za-z0-9_./>+-]*$/;
const NOT_A_STRING_KEY = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|__proto__)$/;
// A plain scalar's first character: no indicator (spec 7.3.3) and no quote; `-` only before a digit or dot.
const PLAIN_START = /^(?:[A-Za-z0-9_.~/+=$^();]|-[0-9.])/;
// Characters a plain scalar of this subset never holds: flow indicators, quotes, escapes, comment.
const NOT_PLAIN = /[,[\]{}"'\\`#]/;

/**
 * Characters no text of the subset holds: control characters but the line feed, DEL and C1
 * controls, the line and paragraph separators and the byte order mark (which some readers take for
 * line breaks), U+FFFE and U+FFFF. Other characters outside ASCII may stand in comments (an author's
 * name, a section sign); values and keys stay ASCII (`NOT_ASCII`). A regular expression, since a
 * loop over every character runs in the interpreter on a start-up's only call.
 */
const OUTSIDE_CHARACTERS = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;

const NOT_ASCII = /[^\x20-\x7e]/;

/** The core schema's resolution of a plain scalar's text (the yaml package's core tags, in its order). */
function resolvePlain(s: string): unknown {
  if (/^(?:~|[Nn]ull|NULL)?$/.test(s)) return null;
  if (/^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s)) return s[0] === 't' || s[0] === 'T';
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(s)) return parseInt(s, 10);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.substring(2), 16);
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s)) {
    return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s) || /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)) return parseFloat(s);
  return s;
}

function outside(): never {
  throw OUTSIDE_SUBSET;
}

class PlainYamlReader {
  private pos = 0;

  constructor(private readonly text: string) {}

  /** The whole text as one block mapping at column 0. */
  document(): unknown {
    if (this.contentLineIndent() !== 0) outside();
    const value = this.blockNode(0, 1);
    if (this.contentLineIndent() >= 0) outside();
    return value;
  }

  /**
   * From a line start: skips blank and comment lines, leaves `pos` at the start of the next line with
   * content and returns its indentation, or -1 at the end of the text.
   */
  private contentLineIndent(): number {
    const t = this.text;
    for (;;) {
      if (this.pos >= t.length) return -1;
      let i = this.pos;
      while (i < t.length && t.charCodeAt(i) === SPACE) i++;
      if (i < t.length && t.charCodeAt(i) !== LF && t.charCodeAt(i) !== HASH) return i - this.pos;
      this.skipLine(i);
    }
  }

  /** Moves `pos` past the line feed that ends the line holding offset `i`. */
  private skipLine(i: number): void {
    const end = this.text.indexOf('\n', i);
    this.pos = end < 0 ? this.text.length : end + 1;
  }

  /** At `pos` (mid-line): only spaces and a comment remain on the line; moves to the next line. */
  private endOfLine(): void {
    const t = this.text;
    let i = this.pos;
    while (i < t.length && t.charCodeAt(i) === SPACE) i++;
    if (i < t.length && t.charCodeAt(i) !== LF) {
      if (t.charCodeAt(i) !== HASH || i === this.pos) outside();
    }
    this.skipLine(i);
  }

  /** A block node starting at `pos` + `indent` of a content line: a sequence, a mapping or a flow collection. */
  private blockNode(indent: number, depth: number): unknown {
    if (depth > MAX_DEPTH) outside();
    this.pos += indent;
    const c = this.text[this.pos];
    if (c === '-' && this.isBlank(this.pos + 1)) return this.blockSequence(indent, depth);
    if (c === '[' || c === '{') {
      const value = this.flowNode(indent - 1, depth);
      this.endOfLine();
      return value;
    }
    return this.blockMapping(indent, depth);
  }

  /** Whether offset `i` is a space, a line feed or the end of the text. */
  private isBlank(i: number): boolean {
    return i >= this.text.length || this.text.charCodeAt(i) === SPACE || this.text.charCodeAt(i) === LF;
  }

  /** Entries `- ` at column `indent`, the first at `pos`; returns at the start of the line after them. */
  private blockSequence(indent: number, depth: number): unknown[] {
    const items: unknown[] = [];
    for (;;) {
      this.pos++; // past '-'
      items.push(this.entryValue(indent, depth, true));
      const next = this.contentLineIndent();
      if (next !== indent || this.text[this.pos + indent] !== '-' || !this.isBlank(this.pos + indent + 1)) {
        if (next > indent) outside();
        return items;
      }
      this.pos += indent;
    }
  }

  /** Keys at column `indent`, the first at `pos`; returns at the start of the line after the mapping. */
  private blockMapping(indent: number, depth: number): Record<string, unknown> {
    const map: Record<string, unknown> = {};
    for (;;) {
      const key = this.blockKey();
      if (Object.hasOwn(map, key)) outside();
      map[key] = this.entryValue(indent, depth, false);
      const next = this.contentLineIndent();
      if (next !== indent) {
        if (next > indent) outside();
        return map;
      }
      this.pos += indent;
    }
  }

  /** A key ending in ':' before a space or the line's end; `pos` moves past the ':'. */
  private blockKey(): string {
    const t = this.text;
    let i = this.pos;
    while (i < t.length && t.charCodeAt(i) > SPACE && t[i] !== ':') i++;
    const key = t.slice(this.pos, i);
    if (t[i] !== ':' || !this.isBlank(i + 1) || !KEY.test(key) || NOT_A_STRING_KEY.test(key)) outside();
    this.pos = i + 1;
    return key;
  }

  /**
   * The value after a key's ':' or a sequence's '-' of a block at column `indent`: on the same line
   * (a scalar, a flow collection, or in a sequence a compact mapping), or on the lines below.
   * Returns at the start of the line after it.
   */
  private entryValue(indent: number, depth: number, inSequence: boolean): unknown {
    const t = this.text;
    let i = this.pos;
    while (i < t.length && t.charCodeAt(i) === SPACE) i++;
    if (i >= t.length || t.charCodeAt(i) === LF || (t.charCodeAt(i) === HASH && i > this.pos)) {
      this.skipLine(i);
      const next = this.contentLineIndent();
      if (next > indent) return this.blockNode(next, depth + 1);
      // a mapping's sequence may sit at the key's own column
      if (!inSequence && next === indent && t[this.pos + indent] === '-' && this.isBlank(this.pos + indent + 1)) return this.blockNode(next, depth + 1);
      return null;
    }
    if (i === this.pos) outside(); // "-x" or "key:x" never reach here, but say so
    this.pos = i;
    const c = t[i];
    if (c === '[' || c === '{') {
      const value = this.flowNode(indent, depth + 1);
      this.endOfLine();
      return value;
    }
    if (c === '"' || c === "'") {
      const value = this.quoted();
      this.endOfLine();
      return value;
    }
    if (inSequence && c === '-' && this.isBlank(i + 1)) outside(); // "- - a": a compact nested sequence
    let end = t.indexOf('\n', i);
    if (end < 0) end = t.length;
    let line = t.slice(i, end);
    const comment = line.indexOf(' #');
    if (comment >= 0) line = line.slice(0, comment);
    line = line.trimEnd();
    const colon = line.indexOf(':');
    if (colon >= 0 && (colon === line.length - 1 || line[colon + 1] === ' ')) {
      // a key: only a sequence entry may hold a compact mapping
      if (!inSequence) outside();
      return this.blockMapping(i - t.lastIndexOf('\n', i - 1) - 1, depth + 1);
    }
    if (!PLAIN_START.test(line) || NOT_PLAIN.test(line) || NOT_ASCII.test(line) || line.includes(': ')) outside();
    this.skipLine(i);
    return resolvePlain(line);
  }

  /** A quoted scalar of one line without escapes at `pos`; `pos` moves past its closing quote. */
  private quoted(): string {
    const t = this.text;
    const quote = t[this.pos];
    const end = t.indexOf(quote, this.pos + 1);
    if (end < 0) outside();
    const value = t.slice(this.pos + 1, end);
    if (value.includes('\n') || value.includes('\\') || NOT_ASCII.test(value) || t[end + 1] === quote) outside();
    this.pos = end + 1;
    return value;
  }

  /**
   * Skips white space, line feeds and comments inside a flow collection; each new line must be
   * indented deeper than `blockIndent`, the column of the block holding the collection.
   */
  private flowSpace(blockIndent: number): void {
    const t = this.text;
    let afterSpace = false;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === SPACE) {
        this.pos++;
        afterSpace = true;
      } else if (c === LF) {
        this.pos++;
        const indent = this.contentLineIndent();
        if (indent <= blockIndent) outside();
        this.pos += indent;
        afterSpace = true;
      } else if (c === HASH && afterSpace) {
        this.skipLine(this.pos);
        const indent = this.contentLineIndent();
        if (indent <= blockIndent) outside();
        this.pos += indent;
      } else return;
    }
  }

  /** A flow sequence or mapping at `pos`; `pos` moves past its closing bracket. */
  private flowNode(blockIndent: number, depth: number): unknown {
    if (depth > MAX_DEPTH) outside();
    const t = this.text;
    const isMap = t[this.pos] === '{';
    const close = isMap ? '}' : ']';
    this.pos++;
    const items: unknown[] = [];
    const map: Record<string, unknown> = {};
    this.flowSpace(blockIndent);
    if (t[this.pos] === close) {
      this.pos++;
      return isMap ? map : items;
    }
    for (;;) {
      if (isMap) {
        const key = this.flowPlain();
        if (typeof key !== 'string' || !KEY.test(key) || NOT_A_STRING_KEY.test(key) || Object.hasOwn(map, key)) outside();
        this.flowSpace(blockIndent);
        if (t[this.pos] !== ':' || !this.isFlowSpace(this.pos + 1)) outside();
        this.pos++;
        this.flowSpace(blockIndent);
        map[key] = this.flowValue(blockIndent, depth);
      } else {
        items.push(this.flowValue(blockIndent, depth));
      }
      this.flowSpace(blockIndent);
      const c = t[this.pos];
      this.pos++;
      if (c === close) return isMap ? map : items;
      if (c !== ',') outside();
      this.flowSpace(blockIndent);
    }
  }

  private isFlowSpace(i: number): boolean {
    return i < this.text.length && (this.text.charCodeAt(i) === SPACE || this.text.charCodeAt(i) === LF);
  }

  /** An entry's value inside a flow collection. */
  private flowValue(blockIndent: number, depth: number): unknown {
    const c = this.text[this.pos];
    if (c === '[' || c === '{') return this.flowNode(blockIndent, depth + 1);
    if (c === '"' || c === "'") return this.quoted();
    return this.flowPlain();
  }

  /** A plain scalar of one word inside a flow collection, resolved. */
  private flowPlain(): unknown {
    const t = this.text;
    const start = this.pos;
    let i = start;
    while (i < t.length && t.charCodeAt(i) > SPACE && !',[]{}:#"\'\\`'.includes(t[i])) i++;
    const word = t.slice(start, i);
    if (!PLAIN_START.test(word) || NOT_ASCII.test(word)) outside();
    this.pos = i;
    return resolvePlain(word);
  }
}

/**
 * The value of `text` when it is written in the plain subset of YAML described above (the same value
 * the yaml package's full parse would give), or `undefined` when it is not.
 */
export function readPlainYaml(text: string): unknown {
  if (OUTSIDE_CHARACTERS.test(text)) return undefined;
  try {
    return new PlainYamlReader(text).document();
  } catch (e) {
    if (e === OUTSIDE_SUBSET) return undefined;
    throw e;
  }
}
