// Reading config-like documents (YAML 1.2 or JSON) from a file or stdin. Parse errors become
// InputError problems that name the line, so nothing about a bad file ever reaches stdout.
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { InputError } from '../errors/errors.js';
import { readInputText } from '../io/input.js';
import { entriesBound, jsonDuplicateKeys, longestYamlValue, MAX_DOCUMENT_ENTRIES, MAX_VALUE_CHARS, yamlDuplicateKeys } from './document-limits.js';
import { readPlainYaml } from './plain-yaml.js';
import { parseConfig, type ParsedConfig } from './schema.js';

/** A parser's message, with the engine's stack overflow said in the user's terms. */
function parserMessage(message: string): string {
  const first = message.split('\n')[0];
  return /call stack/i.test(first) ? 'nested too deeply' : first;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * How deep a document may nest. The deepest real document (a scenario's link-end DCB config, its
 * qcn.rp parameters) is under 10 levels; far deeper input only serves to overflow the stack of
 * whatever walks it later (structuredClone in sweep, error formatting), so it is refused here.
 */
export const MAX_DOCUMENT_DEPTH = 64;

/** Throws InputError when `value` nests deeper than MAX_DOCUMENT_DEPTH (checked without recursion). */
function checkDepth(value: unknown, source: string): unknown {
  // Only collections go on the stack, as two flat arrays: a pair and a values array per entry made
  // a 23 kB scenario's check allocate about 0.7 MB.
  const stack: object[] = [];
  const depths: number[] = [];
  const push = (c: unknown, depth: number) => {
    if (c !== null && typeof c === 'object') { stack.push(c); depths.push(depth); }
  };
  push(value, 0);
  while (stack.length) {
    const v = stack.pop()!;
    const depth = depths.pop()!;
    if (depth >= MAX_DOCUMENT_DEPTH) throw new InputError({ path: source, rule: `nested more than ${MAX_DOCUMENT_DEPTH} levels deep` });
    if (Array.isArray(v)) for (const c of v) push(c, depth + 1);
    else for (const k of Object.keys(v)) push((v as Record<string, unknown>)[k], depth + 1);
  }
  return value;
}

/** Parses YAML or JSON text (JSON when `format` says so or the text starts with `{`/`[`). */
export function parseDocumentText(text: string, source: string, format?: 'json' | 'yaml'): unknown {
  const doc = parseText(text, source, format);
  // An empty file (or one of comments only) parses to null: say that, at the file, rather than a
  // type mismatch at "document".
  if (doc === null || doc === undefined) throw new InputError({ path: source, rule: 'holds no document (empty, or only comments): write a mapping of keys' });
  return checkDepth(doc, source);
}

function parseText(text: string, source: string, format?: 'json' | 'yaml'): unknown {
  // A byte order mark is allowed at the start of a JSON text too (RFC 8259 §8.1 lets a parser ignore it).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const entries = entriesBound(text);
  if (entries > MAX_DOCUMENT_ENTRIES) {
    throw new InputError({ path: source, rule: `has ${entries} lines and commas, more than the ${MAX_DOCUMENT_ENTRIES} entries a document may hold` });
  }
  const asJson = format === 'json' || (format === undefined && /^\s*[{[]/.test(text));
  if (asJson) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      // V8's message has no line; the YAML parser (JSON is YAML 1.2 flow syntax) locates it.
      const msg = parserMessage((e as Error).message);
      const pos = /position (\d+)/.exec(msg);
      const yamlErr = parseDocument(text, { uniqueKeys: false }).errors[0];
      const line = pos ? lineOf(text, Number(pos[1])) : yamlErr?.linePos?.[0]?.line;
      throw new InputError({ path: source, rule: `${line !== undefined ? `line ${line}: ` : ''}not valid JSON: ${msg}` });
    }
    const repeated = jsonDuplicateKeys(text);
    if (repeated.length) throw new InputError(repeated.map((p) => ({ ...p, path: source })));
    return value;
  }
  const longest = longestYamlValue(text);
  if (longest > MAX_VALUE_CHARS) throw new InputError({ path: source, rule: `holds a value of ${longest} characters, more than the ${MAX_VALUE_CHARS} a value may have` });
  // Most documents are in a plain subset read without the full parser's nodes and positions
  // (plain-yaml.ts); the rest, and every error's wording, come from the yaml package.
  const plain = readPlainYaml(text);
  if (plain !== undefined) return plain;
  // YAML 1.2 core schema: 0x8906 is a number, `on`/`off` are strings, duplicate keys are errors
  // (checked by yamlDuplicateKeys in linear time, not by the parser's quadratic uniqueKeys).
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  if (!doc.errors.length) {
    const repeated = yamlDuplicateKeys(doc, text);
    if (repeated.length) throw new InputError(repeated.map((p) => ({ ...p, path: source })));
  }
  if (doc.errors.length) {
    throw new InputError(
      doc.errors.map((err) => ({
        path: source,
        rule: `line ${err.linePos?.[0]?.line ?? lineOf(text, err.pos[0])}: not valid YAML: ${parserMessage(err.message)}`,
      })),
    );
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    // the yaml library refuses alias bombs ("billion laughs") while building the value
    throw new InputError({ path: source, rule: `not valid YAML: ${/alias/i.test((e as Error).message) ? 'its aliases expand too much (more than 100 copies)' : parserMessage((e as Error).message)}` });
  }
}

/** Reads a document from `path` (`-` = stdin); the format follows the extension (.json, else YAML). */
export function readDocument(path: string): unknown {
  const text = readInputText(path, path);
  const ext = extname(path).toLowerCase();
  return parseDocumentText(text, path, ext === '.json' ? 'json' : ext === '.yaml' || ext === '.yml' ? 'yaml' : undefined);
}

/** Reads and validates a DCB config file (YAML or JSON). Throws InputError on any problem. */
export function loadConfig(path: string): ParsedConfig {
  return parseConfig(readDocument(path));
}
