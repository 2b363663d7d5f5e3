// `dcbkit validate <file> [--json] [--kind K]`: checks a DCB config (or another registered document
// kind, host/documents/kinds.ts) and prints a summary. Invalid input: one `path: rule` line per
// problem on stderr, exit 2, nothing on stdout. Warnings go to stderr as `warning: path: rule`
// and do not change the exit status.
// A DCB config is also checked against every codegen target: plain validate warns which targets
// `dcbkit codegen` would refuse it for and why; `--target T[,T]` makes those refusals errors (exit 2),
// the same `target: path: rule` lines codegen prints, so validate and codegen agree.
import type { CommandModule } from 'yargs';
import { InputError, formatProblem, type Problem } from '../errors/errors.js';
import type { DcbConfig } from '../config/index.js';
import { defaultDevice, loadDevice } from '../../codegen/device.js';
import { refusals, splitTargetNames, TARGET_NAMES } from '../../codegen/index.js';
import { readDocument } from '../config/load.js';
import { documentKinds, kindOf } from '../documents/kinds.js';
import type { ValidatedDocument } from '../documents/documents.js';

/** Library form: reads and validates a document file; throws InputError when it is invalid. */
export function validateFile(path: string, kindName?: string): ValidatedDocument & { kind: string } {
  const doc = readDocument(path);
  const kind = kindOf(doc, kindName);
  if (!kind) {
    throw new InputError({ path: '--kind', rule: `unknown document kind "${kindName}"; one of ${documentKinds.map((k) => k.name).join(', ')}` });
  }
  return { kind: kind.name, ...kind.validate(doc) };
}

/**
 * What `dcbkit codegen` would refuse a validated config for. With `targets`, the refusals of those
 * targets are thrown (InputError, exit 2); without, every target is checked and each refusal comes
 * back as one warning naming the targets that share it.
 */
export function codegenRefusals(config: DcbConfig, targets: string[] | undefined, devicePath?: string): Problem[] {
  const device = devicePath ? loadDevice(devicePath) : defaultDevice;
  const { problems } = refusals(config, device, targets ?? TARGET_NAMES());
  if (targets) {
    if (problems.length) throw new InputError(problems);
    return [];
  }
  // `target: path` -> one warning per (path, rule), listing the targets in their order
  const byReason = new Map<string, { path: string; rule: string; targets: string[] }>();
  for (const p of problems) {
    const [target, ...rest] = p.path.split(': ');
    const path = rest.join(': ') || 'config';
    const key = `${path}\0${p.rule}`;
    const entry = byReason.get(key) ?? { path, rule: p.rule, targets: [] };
    entry.targets.push(target);
    byReason.set(key, entry);
  }
  return [...byReason.values()].map((e) => ({ path: e.path, rule: `codegen --target ${e.targets.join(',')} would refuse this: ${firstClause(e.rule, e.targets)}` }));
}

/**
 * A refusal as one line: a long rule (rte_sched's weight arithmetic) is cut to its first clause,
 * and `validate --target T` prints it whole.
 */
function firstClause(rule: string, targets: readonly string[]): string {
  const cut = rule.indexOf(': ');
  if (rule.length <= 120 || cut < 0) return rule;
  return `${rule.slice(0, cut)} (validate --target ${targets.join(',')} says why and what to change)`;
}

export const validateCommand: CommandModule<object, { file: string; json?: boolean; kind?: string; target?: string[]; device?: string }> = {
  command: 'validate <file>',
  describe: 'check a DCB config, a scenario or a device file (YAML or JSON; - for stdin): errors name the path and the rule',
  builder: (y) =>
    y
      .positional('file', { type: 'string', demandOption: true, describe: 'config, scenario or device file (.yaml, .yml, .json) or -' })
      .option('json', { type: 'boolean', describe: 'print {ok, kind, warnings, config} as one JSON document' })
      .option('kind', { type: 'string', describe: `document kind instead of detecting it from the top-level keys: ${documentKinds.map((k) => k.name).join(' | ')}` })
      .option('target', {
        type: 'string', array: true, choices: [...TARGET_NAMES(), 'all'], coerce: splitTargetNames,
        describe: 'also check that codegen can emit the config for these targets (comma list or repeated); what they refuse is an error. Without it, refusals are warnings',
      })
      .option('device', { type: 'string', describe: 'device description for the codegen check (as codegen --device)' }) as never,
  handler: (args) => {
    // yargs reads a lone `-` positional as `true`; it means stdin.
    const file = typeof args.file === 'string' && args.file !== '' ? args.file : '-';
    const r = validateFile(file, args.kind);
    if (r.kind === 'config') r.warnings.push(...codegenRefusals(r.value as DcbConfig, args.target, args.device));
    else if (args.target) throw new InputError({ path: '--target', rule: `codegen emits DCB configs; ${file} is a ${r.kind}` });
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
