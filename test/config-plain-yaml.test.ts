// The plain-YAML reader (host/config/plain-yaml.ts) against the yaml package's full parse: whatever
// text it reads, the full parser reads without an error to the same value (compared with
// isDeepStrictEqual, so -0, NaN and key order count); what it refuses is left to the full parser.
// Random documents are written in the subset's styles and then damaged a character at a time, so the
// reader also meets text just outside its subset.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseDocument } from 'yaml';
import { readPlainYaml } from '../host/config/plain-yaml.js';
import { parseDocumentText } from '../host/config/index.js';
import { genClos } from '../host/commands/gen.js';
import { InputError } from '../host/errors/errors.js';
import { entriesBound } from '../host/config/document-limits.js';

/** The full parser's value, or undefined when it reports an error or a warning. */
function fullParse(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length || doc.warnings.length) return undefined;
  return doc.toJS({ maxAliasCount: 100 });
}

/** Fails, showing the text, when the reader takes a text the full parser reads differently. */
function agrees(text: string): boolean {
  const plain = readPlainYaml(text);
  if (plain === undefined) return true;
  const full = fullParse(text);
  if (full === undefined || !isDeepStrictEqual(plain, full)) {
    expect({ text, plain, full }).toEqual({ text, plain: full, full });
    return false;
  }
  return true;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

// Scalars where the core schema's resolution has corners: every tag, signs, case, near misses.
const SCALARS = [
  '0', '-0', '+0', '007', '12', '-12', '+12', '0o17', '0o8', '0x1F', '0xg', '0X1F', '1_000', '1.', '.5', '-.5', '+.5', '1.50',
  '1e3', '1E-3', '-1.5e+3', '.e3', '1e', '.inf', '-.Inf', '+.INF', '.nan', '.NaN', '.NAN', 'nan', 'inf', 'null', 'Null', 'NULL',
  'nULL', '~', '~x', 'true', 'True', 'TRUE', 'tRue', 'false', 'False', 'yes', 'no', 'on', 'off', 'y', '100G', '10m', '16MB',
  'auto', '1us', 'edge0_0>h0_0_0', 'a b', 'a  b', 'http://x', '12:30', 'a:b', 'a#b', 'a,b', 'x-y', '-x', '-1x', '=', '$x', '/p',
  '99999999999999999999', '0x7fffffffffffffff', 'h0_0_0', '(a)', 'a;b', 'é',
];
const GOOD_KEYS = ['a', 'b', 'name', 'x_1', 'A.b', 'k>v', 'p/q', 'n-1', '_', 'on', 'c'];
const KEYS = [...GOOD_KEYS, 'true', 'null', '1', '__proto__', 'é', 'a b'];
const key = fc.oneof({ arbitrary: fc.constantFrom(...GOOD_KEYS), weight: 12 }, { arbitrary: fc.constantFrom(...KEYS), weight: 1 });

type Tree = unknown;
const tree: fc.Arbitrary<Tree> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('scalar'), tie('seq'), tie('map')),
  scalar: fc.oneof(fc.constantFrom(...SCALARS), fc.constantFrom('1', 'x', 'h0_1', '2.5', 'true', '100G')),
  seq: fc.array(tie('node'), { maxLength: 4 }),
  map: fc.uniqueArray(fc.tuple(key, tie('node')), { maxLength: 4, selector: (e) => e[0] }),
})).node;

interface Style {
  flow: boolean[];
  quote: boolean[];
  sameColumn: boolean[];
  comment: boolean[];
}

/** Writes a tree as YAML text in the subset's styles, choices drawn in turn from `style`. */
function write(t: Tree, style: Style): string {
  let n = 0;
  const pick = (xs: boolean[]): boolean => xs[n++ % xs.length] ?? false;
  const scalar = (s: string): string => (pick(style.quote) ? (pick(style.quote) ? `"${s}"` : `'${s}'`) : s);
  const flow = (x: Tree): string => {
    if (!Array.isArray(x)) return scalar(String(x));
    if (x.length && Array.isArray(x[0]) && x[0].length === 2 && typeof x[0][0] === 'string' && pick(style.flow)) {
      return `{ ${x.map((e) => (Array.isArray(e) && e.length === 2 ? `${e[0]}: ${flow(e[1])}` : flow(e))).join(', ')} }`;
    }
    return `[${x.map(flow).join(pick(style.comment) ? ',\n    ' : ', ')}]`;
  };
  const isMap = (x: Tree): x is [string, Tree][] =>
    Array.isArray(x) && x.length > 0 && x.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && KEYS.includes(e[0]));
  const block = (x: Tree, indent: number): string => {
    const pad = ' '.repeat(indent);
    if (isMap(x)) {
      return x.map(([k, v]) => {
        const tail = pick(style.comment) ? ' # note' : '';
        if (Array.isArray(v) && v.length && !pick(style.flow)) {
          const inner = pick(style.sameColumn) && !isMap(v) ? indent : indent + 2;
          return `${pad}${k}:${tail}\n${block(v, inner)}`;
        }
        return `${pad}${k}: ${Array.isArray(v) ? flow(v) : scalar(String(v))}${tail}\n`;
      }).join(pick(style.comment) ? '\n# between\n' : '');
    }
    if (Array.isArray(x)) {
      return x.map((v) => {
        if (isMap(v) && pick(style.flow)) {
          // a compact mapping: its first key on the dash's line
          return `${pad}- ${block(v, indent + 2).slice(indent + 2)}`;
        }
        if (Array.isArray(v) && v.length) return `${pad}-\n${block(v, indent + 2)}`;
        return `${pad}- ${Array.isArray(v) ? flow(v) : scalar(String(v))}\n`;
      }).join('');
    }
    return `${pad}${scalar(String(x))}\n`;
  };
  return block(t, 0);
}

const style: fc.Arbitrary<Style> = fc.record({
  flow: fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
  quote: fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
  sameColumn: fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
  comment: fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
});

const DAMAGE = [' ', '  ', '\n', '\n  ', ':', ': ', '-', '- ', '#', ' #', ',', '[', ']', '{', '}', '"', "'", '\t', '\r', '&a', '*a', '!', '|', '>', '?', '%', '---', 'é', '\u2028', '\\'];

describe('the plain YAML subset, read without the full parser', () => {
  it('reads every example and fixture it takes as the full parser does', () => {
    const files = [...yamlFiles('examples'), ...yamlFiles('test/fixtures')];
    expect(files.length).toBeGreaterThan(20);
    let taken = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (readPlainYaml(text) !== undefined) taken++;
      expect(agrees(text), file).toBe(true);
    }
    // the subset is meant to cover what the project writes, not a corner of it
    expect(taken).toBeGreaterThan(files.length * 0.8);
  });

  it('takes the scenarios gen clos writes, with the full parser\'s values', () => {
    for (const [k, pattern] of [[4, 'permutation'], [8, 'permutation'], [8, 'random'], [4, 'incast']] as const) {
      const text = genClos({ k, pattern, flows: pattern === 'random' ? 200 : pattern === 'incast' ? 15 : k ** 3 / 4, seed: 1, duration: '1us', speed: '100G' } as Parameters<typeof genClos>[0]);
      const plain = readPlainYaml(text);
      expect(plain, `k = ${k} ${pattern}`).not.toBeUndefined();
      expect(isDeepStrictEqual(plain, fullParse(text))).toBe(true);
    }
  });

  it('resolves each scalar by the core schema as the full parser does, plain and quoted', () => {
    let plainTaken = 0;
    for (const s of SCALARS) {
      for (const text of [`v: ${s}\n`, `v: [${s}]\n`, `v: { w: ${s} }\n`, `- ${s}\n`, `v: "${s}"\n`, `v: '${s}'\n`]) {
        expect(agrees(text)).toBe(true);
        if (text === `v: ${s}\n` && readPlainYaml(text) !== undefined) plainTaken++;
      }
    }
    expect(plainTaken).toBeGreaterThan(SCALARS.length * 0.8);
    expect(readPlainYaml('v: -0\n')).toEqual({ v: -0 });
    expect(Object.is((readPlainYaml('v: -0\n') as { v: number }).v, -0)).toBe(true);
    expect(readPlainYaml('v: 0o17\nw: 0x1F\nx: .NaN\ny: ~\nz: 1e3\n')).toEqual({ v: 15, w: 31, x: NaN, y: null, z: 1000 });
  });

  it('refuses what is outside the subset, leaving it to the full parser', () => {
    for (const text of [
      'a: 1\na: 2\n', 'a: &x 1\nb: *x\n', 'a: !!str 1\n', '---\na: 1\n', '%YAML 1.2\n---\na: 1\n', 'a: |\n  x\n', 'a: >\n  x\n',
      'a: b\n  c\n', 'a:\n\tb: 1\n', 'a: 1\r\nb: 2\r\n', '? a\n: 1\n', 'a: "x\\ny"\n', "a: 'it''s'\n", '- - a\n', '__proto__: 1\n',
      '1: a\n', 'true: a\n', 'a: [b,]\n', 'a: { b }\n', 'a: [b c]\n', 'a: x # ok\n  b: 1\n', 'a: é\n', 'a:\n  b: 1\n c: 2\n', '',
      '# only a comment\n', 'a: [\nb]\n',
    ]) {
      expect(readPlainYaml(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('refuses nesting deeper than the document limit without a stack overflow, and reads 20,000 keys', () => {
    expect(readPlainYaml(`a: ${'['.repeat(100_000)}`)).toBeUndefined();
    let nested: unknown = [];
    for (let i = 1; i < 60; i++) nested = [nested];
    expect(readPlainYaml(`a: ${'['.repeat(60)}${']'.repeat(60)}\n`)).toEqual({ a: nested });
    const deep = (n: number) => Array.from({ length: n }, (_, i) => `${' '.repeat(2 * i)}k:\n`).join('') + `${' '.repeat(2 * n)}v: 1\n`;
    expect(readPlainYaml(deep(10))).not.toBeUndefined();
    expect(readPlainYaml(deep(100))).toBeUndefined();
    const lines = Array.from({ length: 20_000 }, (_, i) => `k${i}: [1, 2]\n`).join('');
    expect(Object.keys(readPlainYaml(lines) as object)).toHaveLength(20_000);
  });

  it('agrees with the full parser on random documents in its styles', () => {
    let taken = 0;
    fc.assert(fc.property(tree, style, (t, s) => {
      const text = write(t, s);
      if (readPlainYaml(text) !== undefined) taken++;
      return agrees(text);
    }), { numRuns: 600, seed: 31 });
    // most are in the subset (the rest hold a key or a scalar it leaves to the full parser)
    expect(taken).toBeGreaterThan(150);
  });

  it('agrees with the full parser on those documents damaged at random places', () => {
    const damaged = fc.tuple(tree, style, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...DAMAGE), fc.nat(3)), { minLength: 1, maxLength: 3 }))
      .map(([t, s, edits]) => {
        let text = write(t, s);
        for (const [at, what, cut] of edits) {
          const i = text.length ? at % (text.length + 1) : 0;
          text = text.slice(0, i) + what + text.slice(Math.min(text.length, i + cut));
        }
        return text;
      });
    let taken = 0;
    fc.assert(fc.property(damaged, (text) => {
      if (readPlainYaml(text) !== undefined) taken++;
      return agrees(text);
    }), { numRuns: 3000, seed: 31 });
    expect(taken).toBeGreaterThan(150);
  });

  it('gives a document the same errors and values through parseDocumentText, taken or not', () => {
    expect(parseDocumentText('a: 1\nb: [x, 2]\n', 's.yaml', 'yaml')).toEqual({ a: 1, b: ['x', 2] });
    expect(() => parseDocumentText('a: 1\na: 2\n', 's.yaml', 'yaml')).toThrow(InputError);
    expect(() => parseDocumentText('a: 1\na: 2\n', 's.yaml', 'yaml')).toThrow(/line 2: not valid YAML: the key "a" is repeated \(first on line 1\)/);
    expect(() => parseDocumentText('# nothing\n', 's.yaml', 'yaml')).toThrow(/holds no document/);
  });

  it('bounds a document\'s entries by its line feeds and commas, counted before either parser runs', () => {
    expect(entriesBound('')).toBe(0);
    expect(entriesBound(',')).toBe(1);
    expect(entriesBound('a: [1, 2,3]\nb:\n  - x\n')).toBe(5);
    expect(entriesBound('\n\n,,\n')).toBe(5);
    const text = 'k: [1, 2]\n'.repeat(1000);
    expect(entriesBound(text)).toBe(2000);
  });
});
