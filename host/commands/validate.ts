// `dcbkit validate <file> [--json] [--kind K]`: checks a DCB config (or another registered document
// kind, host/document-kinds.ts) and prints a summary. Invalid input: one `path: rule` line per
// problem on stderr, exit 2, nothing on stdout. Warnings go to stderr as `warning: path: rule`
// and do not change the exit status.
import type { CommandModule } from 'yargs';
import { InputError, formatProblem } from '../errors.js';
import { readDocument } from '../config/load.js';
import { documentKinds, kindOf } from '../document-kinds.js';
import type { ValidatedDocument } from '../documents.js';

/** Library form: reads and validates a document file; throws InputError when it is invalid. */
export function validateFile(path: string, kindName?: string): ValidatedDocument & { kind: string } {
  const doc = readDocument(path);
  const kind = kindOf(doc, kindName);
  if (!kind) {
    throw new InputError({ path: '--kind', rule: `unknown document kind "${kindName}"; one of ${documentKinds.map((k) => k.name).join(', ')}` });
  }
  return { kind: kind.name, ...kind.validate(doc) };
}

export const validateCommand: CommandModule<object, { file: string; json?: boolean; kind?: string }> = {
  command: 'validate <file>',
  describe: 'check a DCB config, a scenario or a device file (YAML or JSON; - for stdin): errors name the path and the rule',
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'config, scenario or device file (.yaml, .yml, .json) or -' })
      .option('json', { type: 'boolean', describe: 'print {ok, kind, warnings, config} as one JSON document' })
      .option('kind', { type: 'string', describe: `document kind instead of detecting it from the top-level keys: ${documentKinds.map((k) => k.name).join(' | ')}` }) as never,
  handler: (args) => {
    // yargs reads a lone `-` positional as `true`; it means stdin.
    const file = typeof args.file === 'string' && args.file !== '' ? args.file : '-';
    const r = validateFile(file, args.kind);
    for (const w of r.warnings) process.stderr.write(`warning: ${formatProblem(w)}\n`);
    if (args.json) {
      const key = r.kind === 'config' ? 'config' : 'document';
      const warnings = r.warnings.map((w) => ({ path: w.path, rule: w.rule }));
      process.stdout.write(JSON.stringify({ ok: true, kind: r.kind, warnings, [key]: r.value }) + '\n');
    } else {
      const tail = r.warnings.length ? ` (${r.warnings.length} warning${r.warnings.length > 1 ? 's' : ''})` : '';
      process.stdout.write(`ok: ${file} is a valid ${r.kind}${tail}\n` + r.summary.map((l) => `  ${l}\n`).join(''));
    }
  },
};
