// Command-line usage errors as `path: rule` problems (docs/design.md §5): yargs reports a missing option,
// an unknown one, a bad choice or a missing positional as an English sentence; this turns each such
// failure into one problem per argument, named as the user typed it (`--cable`, `<kernel>`, `headrom`)
// with a rule that says what is wanted (the option's own description, the allowed values).
//
// yargs calls its fail handler once per failed check and, when the handler does not throw, goes on
// with the remaining checks; the CLI collects every problem that way and stops before the command
// runs. The messages are parsed in yargs' English (the CLI turns locale detection off), and an
// unrecognised message still becomes one line, under the command's name.
import { editDistance } from '../errors/problems.js';
import type { Problem } from '../errors/errors.js';

/** What the failing parser knows about the command being parsed. */
export interface UsageContext {
  /** The arguments as given (after joinNegativeValues). */
  argv: readonly string[];
  /** The command words matched so far: [] at the top, ['frames', 'pfc'] in a subcommand. */
  commands: readonly string[];
  /** The usage line of the current command, e.g. `$0 vectors <kernel>` ('' at the top). */
  usage: string;
  /** Option and positional descriptions of the current command, by name. */
  descriptions: Readonly<Record<string, string>>;
  /** Names of the subcommands available at this level (the top-level commands at the top). */
  subcommands: readonly string[];
  /** The message given to demandCommand at this level, if any (yargs uses it for a missing subcommand). */
  demandCommandMessage?: string;
}

/** yargs' own describe strings (help, version) carry this prefix; they are not ours to list. */
const YARGS_STRING = '__yargsString__:';

function positionalNames(usage: string): { demanded: string[]; optional: string[] } {
  const demanded = [...usage.matchAll(/<([^>.]+)(?:\.\.)?>/g)].map((m) => m[1]);
  const optional = [...usage.matchAll(/\[([^\].]+)(?:\.\.)?\]/g)].map((m) => m[1]);
  return { demanded, optional };
}

function commandLabel(ctx: UsageContext): string {
  return ['dcbkit', ...ctx.commands].join(' ');
}

/** The words a user may type for an option name (yargs lists camelCase aliases too). */
function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function optionFlag(name: string): string {
  return name.length === 1 ? `-${name}` : `--${name}`;
}

/** True when `name` was typed as an option (`--name`, `--name=v`, `--no-name`, or a letter of `-abc`). */
function typedAsOption(argv: readonly string[], name: string): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a.startsWith('--')) {
      const key = a.slice(2).split('=')[0];
      if (key === name || key === kebab(name) || key === `no-${name}`) return true;
    } else if (name.length === 1 && /^-[^-\d]/.test(a) && a.slice(1).split('=')[0].includes(name)) return true;
  }
  return false;
}

function ownOptions(ctx: UsageContext): string[] {
  const pos = positionalNames(ctx.usage);
  const positional = new Set([...pos.demanded, ...pos.optional]);
  return Object.entries(ctx.descriptions)
    .filter(([k, d]) => !(d ?? '').startsWith(YARGS_STRING) && !positional.has(k))
    .map(([k]) => optionFlag(k));
}

function described(ctx: UsageContext, name: string): string {
  const d = ctx.descriptions[name];
  return d && !d.startsWith(YARGS_STRING) ? ` (${d})` : '';
}

function argName(ctx: UsageContext, name: string): string {
  const pos = positionalNames(ctx.usage);
  return pos.demanded.includes(name) || pos.optional.includes(name) ? `<${name}>` : optionFlag(name);
}

const REQUIRED_SUBCOMMAND = 'required (one of ';

function requiredSubcommand(ctx: UsageContext): Problem {
  // yargs reports a word that is no subcommand as a missing subcommand; name the word instead.
  const typed = ctx.argv.filter((a) => !a.startsWith('-'))[ctx.commands.length];
  if (typed !== undefined && ctx.subcommands.length > 0) return unknownWord(ctx, typed);
  const name = ctx.commands.length === 0 ? 'command' : positionalNames(ctx.usage).demanded[0] ?? 'command';
  const help = ctx.commands.length === 0 ? '; see dcbkit --help' : '';
  return { path: `<${name}>`, rule: `${REQUIRED_SUBCOMMAND}${ctx.subcommands.join(', ')}${help})` };
}

const UNKNOWN_SUBCOMMAND = 'unknown ';
const UNKNOWN_OPTION = 'unknown option for ';

function unknownWord(ctx: UsageContext, word: string, suggestion?: string): Problem {
  if (ctx.subcommands.length > 0) {
    const what = ctx.commands.length === 0 ? 'command' : `${ctx.commands.join(' ')} ${positionalNames(ctx.usage).demanded[0] ?? 'command'}`;
    const hint = suggestion ? `; did you mean ${suggestion}?` : '';
    return { path: word, rule: `${UNKNOWN_SUBCOMMAND}${what}${hint} (one of ${ctx.subcommands.join(', ')})` };
  }
  const usage = ctx.usage.replace(/^\$0/, 'dcbkit');
  return { path: word, rule: `unexpected argument; usage: ${usage} [options]` };
}

/**
 * The option a misspelt one stands for, as a misspelt command gets one: the single closest option
 * within two edits (three for long names), none when two are equally close.
 */
function closestOption(flag: string, options: readonly string[]): string | undefined {
  const typed = flag.replace(/^-+/, '');
  const scored = options.map((o) => ({ o, d: editDistance(o.replace(/^-+/, '').split(/[ ,=]/)[0], typed) }));
  const best = Math.min(...scored.map((s) => s.d));
  const limit = typed.length > 8 ? 3 : 2;
  const at = scored.filter((s) => s.d === best);
  return best <= limit && at.length === 1 ? at[0].o.split(/[ ,=]/)[0] : undefined;
}

/** The problems one yargs failure message stands for. */
export function usageProblems(msg: string, ctx: UsageContext): Problem[] {
  let m: RegExpMatchArray | null;
  if (ctx.demandCommandMessage !== undefined && msg === ctx.demandCommandMessage) return [requiredSubcommand(ctx)];
  if ((m = msg.match(/^Missing required arguments?: ([^\n]*)/))) {
    return m[1].split(', ').map((k) => ({ path: argName(ctx, k), rule: `required${described(ctx, k)}` }));
  }
  if ((m = msg.match(/^Not enough non-option arguments: got (\d+), need at least (\d+)$/))) {
    const missing = positionalNames(ctx.usage).demanded.slice(Number(m[1]));
    if (missing.length === 0 || (ctx.subcommands.length > 0 && missing.length === 1)) return [requiredSubcommand(ctx)];
    return missing.map((k) => ({ path: `<${k}>`, rule: `required${described(ctx, k)}` }));
  }
  if ((m = msg.match(/^Unknown arguments?: (.*)$/s))) {
    const seen = new Set<string>();
    const out: Problem[] = [];
    for (const raw of m[1].split(', ')) {
      const word = raw === '""' ? '' : raw;
      if (typedAsOption(ctx.argv, word)) {
        const flag = word.length === 1 ? `-${word}` : optionFlag(kebab(word)); // -V stays -V, not ---v
        if (seen.has(flag)) continue;
        seen.add(flag);
        const options = ownOptions(ctx);
        const known = options.length ? `its options are ${options.join(', ')}` : ctx.commands.length ? 'it takes none' : 'options go after a command; see dcbkit --help';
        const meant = closestOption(flag, options);
        out.push({ path: flag, rule: `${UNKNOWN_OPTION}${commandLabel(ctx)}${meant ? `; did you mean ${meant}? (${known})` : `; ${known}`}` });
      } else out.push(unknownWord(ctx, word));
    }
    return out;
  }
  if ((m = msg.match(/^Unknown commands?: (.*)$/))) return m[1].split(', ').map((w) => unknownWord(ctx, w));
  if ((m = msg.match(/^Did you mean (.*)\?$/))) {
    const typed = ctx.argv.filter((a) => !a.startsWith('-'))[ctx.commands.length] ?? '';
    return [unknownWord(ctx, typed, m[1])];
  }
  if (msg.startsWith('Invalid values:')) {
    const out: Problem[] = [];
    for (const line of msg.split('\n').slice(1)) {
      const v = line.match(/^\s*Argument: (.*), Given: (.*), Choices: (.*)$/);
      if (v) out.push({ path: argName(ctx, v[1]), rule: `${v[2]} is not one of ${v[3]}` });
    }
    if (out.length) return out;
  }
  if ((m = msg.match(/^Not enough arguments following: (.*)$/))) {
    return [{ path: optionFlag(m[1]), rule: `needs a value${described(ctx, m[1])}` }];
  }
  if ((m = msg.match(/^Arguments (\S+) and (\S+) are mutually exclusive$/))) {
    return [{ path: optionFlag(m[1]), rule: `cannot be given together with ${optionFlag(m[2])}` }];
  }
  if ((m = msg.match(/^Too many non-option arguments: got (\d+), maximum of (\d+)$/))) {
    return [{ path: commandLabel(ctx), rule: `takes at most ${m[2]} arguments besides options, got ${m[1]}` }];
  }
  return [{ path: commandLabel(ctx), rule: msg.replace(/\s*\n\s*/g, '; ') }];
}

/**
 * Merges the problems of every failed check into the list to print: exact repeats go (a missing
 * positional is reported both as too few arguments and as a missing required one), a word that
 * got a "did you mean" keeps only that (and a required option it stands for is not also missing), and an unknown subcommand word stands for the missing
 * subcommand yargs also reports and for the options it seems not to take (`frames pfcc --pause 3:1`:
 * --pause belongs to the subcommand meant, which was never reached).
 */
export function mergeProblems(all: readonly Problem[]): Problem[] {
  const suggested = new Set(all.filter((p) => p.rule.includes('did you mean')).map((p) => p.path));
  // `--sped 100G` with --speed required: the one problem is the misspelling, not also a missing --speed
  const meantOptions = new Set(all.flatMap((p) => (p.rule.startsWith(UNKNOWN_OPTION) ? [/did you mean (--[\w-]+)\?/.exec(p.rule)?.[1]] : [])).filter((o) => o !== undefined));
  // Unknown words, not unknown options (whose paths start with '-').
  const unknownSubcommand = all.some((p) => p.rule.startsWith(UNKNOWN_SUBCOMMAND) && !p.path.startsWith('-'));
  // `valdate my.yaml`: the words after a misspelt command are its arguments, not more unknown commands.
  const commandMeant = all.some((p) => p.rule.startsWith(UNKNOWN_SUBCOMMAND) && p.rule.includes('did you mean') && !p.path.startsWith('-'));
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const p of all) {
    if (suggested.has(p.path) && !p.rule.includes('did you mean')) continue;
    if (commandMeant && p.rule.startsWith(UNKNOWN_SUBCOMMAND) && !p.rule.includes('did you mean')) continue;
    if (meantOptions.has(p.path) && p.rule.startsWith('required')) continue;
    if (unknownSubcommand && (p.rule.startsWith(REQUIRED_SUBCOMMAND) || p.rule.startsWith(UNKNOWN_OPTION))) continue;
    const key = `${p.path}\u0000${p.rule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}

/**
 * Options declared as numbers that yargs read as NaN (`--threads two`): one problem each, quoting
 * the text typed, before the command's own range check would print `got NaN`.
 */
export function notNumbers(argv: readonly string[], numberOptions: readonly string[]): Problem[] {
  const out: Problem[] = [];
  for (const name of numberOptions) {
    const flag = `--${name}`;
    argv.forEach((a, i) => {
      const text = a === flag ? argv[i + 1] : a.startsWith(`${flag}=`) ? a.slice(flag.length + 1) : undefined;
      if (text !== undefined && !Number.isFinite(Number(text))) out.push({ path: flag, rule: `must be a number, got ${JSON.stringify(text)}` });
    });
  }
  return out;
}

/**
 * yargs reads `--cable -3m` as `--cable` without a value plus the flags `-3` and `-m`. An option
 * followed by a word that starts like a negative number is rejoined as `--cable=-3m`, so the
 * command's own check sees the value and names the rule it breaks (no dcbkit positional argument
 * starts with `-` and a digit).
 */
export function joinNegativeValues(argv: readonly string[]): { argv: string[]; joined: { flag: string; value: string }[] } {
  const out: string[] = [];
  const joined: { flag: string; value: string }[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (/^--?[A-Za-z][\w-]*$/.test(a) && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${a}=${next}`);
      joined.push({ flag: a, value: next });
      i++;
    } else out.push(a);
  }
  return { argv: out, joined };
}

/** A rejoined `--flag -3` whose flag turned out to take no value is a problem, not `--flag=-3`. */
export function misjoinedFlags(joined: readonly { flag: string; value: string }[], booleans: readonly string[]): Problem[] {
  return joined
    .filter((j) => booleans.includes(j.flag.replace(/^--?/, '')))
    .map((j) => ({ path: j.flag, rule: `takes no value, got "${j.value}"` }));
}
