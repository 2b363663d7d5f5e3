// Reading config-like documents (YAML 1.2 or JSON) from a file or stdin. Parse errors become
// InputError problems that name the line, so nothing about a bad file ever reaches stdout.
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { InputError, fsReason } from '../errors.js';
import { parseConfig, type ParsedConfig } from './schema.js';

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Parses YAML or JSON text (JSON when `format` says so or the text starts with `{`/`[`). */
export function parseDocumentText(text: string, source: string, format?: 'json' | 'yaml'): unknown {
  const asJson = format === 'json' || (format === undefined && /^\s*[{[]/.test(text));
  if (asJson) {
    try {
      return JSON.parse(text);
    } catch (e) {
      // V8's message has no line; the YAML parser (JSON is YAML 1.2 flow syntax) locates it.
      const msg = (e as Error).message.split('\n')[0];
      const pos = /position (\d+)/.exec(msg);
      const yamlErr = parseDocument(text).errors[0];
      const line = pos ? lineOf(text, Number(pos[1])) : yamlErr?.linePos?.[0]?.line;
      throw new InputError({ path: source, rule: `${line !== undefined ? `line ${line}: ` : ''}not valid JSON: ${msg}` });
    }
  }
  // YAML 1.2 core schema: 0x8906 is a number, `on`/`off` are strings, duplicate keys are errors.
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    throw new InputError(
      doc.errors.map((err) => ({
        path: source,
        rule: `line ${err.linePos?.[0]?.line ?? lineOf(text, err.pos[0])}: not valid YAML: ${err.message.split('\n')[0]}`,
      })),
    );
  }
  return doc.toJS({ maxAliasCount: 100 });
}

/** Reads a document from `path` (`-` = stdin); the format follows the extension (.json, else YAML). */
export function readDocument(path: string): unknown {
  let text: string;
  try {
    text = path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError({ path, rule: `cannot read: ${fsReason(e)}` });
  }
  const ext = extname(path).toLowerCase();
  return parseDocumentText(text, path, ext === '.json' ? 'json' : ext === '.yaml' || ext === '.yml' ? 'yaml' : undefined);
}

/** Reads and validates a DCB config file (YAML or JSON). Throws InputError on any problem. */
export function loadConfig(path: string): ParsedConfig {
  return parseConfig(readDocument(path));
}
