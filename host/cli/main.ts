#!/usr/bin/env node
// dcbkit command line (docs/design.md §5). Each command lives in host/commands/<name>.ts and also has a
// library function; this file only wires them into yargs and maps errors to exit codes:
// InputError -> one `path: rule` line per problem on stderr, exit 2; OutputError -> the same lines,
// exit 1; anything else -> exit 1 with the stack (a bug). Usage errors (missing or unknown options,
// bad choices) are input errors too: host/cli/usage.ts words them as `path: rule` problems.
// With --json anywhere on the line, the problems also go to stdout as one JSON document
// `{"problems": [{"path", "rule"}, ...]}` so that scripts read them (docs/design.md §5, second round).
import { accessSync, constants, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { helpWords } from './command-word.js';
import { loadCommands } from '../commands/index.js';
import { packageRoot } from '../core/loader.js';
import { InputError, ProblemsError, formatProblem, type Problem } from '../errors/errors.js';
import { joinNegativeValues, mergeProblems, misjoinedFlags, notNumbers, usageProblems } from './usage.js';

const GIVE_A_COMMAND = 'give a command; see dcbkit --help';

/** The parts of yargs' parser state (present in yargs 18, not in its typings) that name what failed. */
interface ParserInternals {
  getInternalMethods(): {
    getContext(): { commands: string[] };
    getUsageInstance(): { getUsage(): [string, string][]; getDescriptions(): Record<string, string>; cacheHelpMessage(): void };
    getCommandInstance(): { getCommandHandlers(): Record<string, unknown> };
  };
  getDemandedCommands(): { _?: { minMsg?: string | null } };
  getOptions(): { boolean: string[]; number: string[] };
}

/** True when the user asked for machine-readable output (an option, not a value after `--`). */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--json' || a === '--json=true');
}

/** Runs the CLI on `rawArgv` (the words after `dcbkit`) and returns the exit status. */
export async function main(rawArgv: string[]): Promise<number> {
  const { argv, joined } = joinNegativeValues(helpWords(rawArgv));
  // Every failed check of the parse, collected so that all are reported at once (yargs goes on
  // checking when the fail handler returns) and thrown before any command runs.
  const usage: Problem[] = [];
  const stopOnUsageProblems = () => {
    usage.push(...misjoinedFlags(joined, (parser as unknown as ParserInternals).getOptions().boolean));
    usage.push(...notNumbers(argv, (parser as unknown as ParserInternals).getOptions().number));
    if (usage.length) throw new InputError(mergeProblems(usage));
  };
  const parser = yargs(argv)
    .scriptName('dcbkit')
    .detectLocale(false) // host/cli/usage.ts reads yargs' English messages
    .strict()
    .demandCommand(1, GIVE_A_COMMAND)
    // yargs would look for package.json from its own file's folder, which in the bundle is not the package's
    .version(packageVersion())
    .alias('version', 'V')
    // main() returns the status; yargs' own exit after `completion` (or help) would end a host process.
    .exitProcess(false)
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .middleware(stopOnUsageProblems, false)
    .fail((msg, err) => {
      // A command's own error (thrown from a builder, coerce or check) passes through as it is.
      if (err && err.name !== 'YError') throw err;
      const state = parser as unknown as ParserInternals;
      const internal = state.getInternalMethods();
      usage.push(
        ...usageProblems(msg ?? err?.message ?? '', {
          argv,
          commands: internal.getContext().commands,
          usage: internal.getUsageInstance().getUsage()[0]?.[0] ?? '',
          descriptions: internal.getUsageInstance().getDescriptions(),
          subcommands: Object.keys(internal.getCommandInstance().getCommandHandlers()),
          demandCommandMessage: state.getDemandedCommands()._?.minMsg ?? undefined,
        }),
      );
    });
  for (const c of await loadCommands(argv)) parser.command(c);
  // yargs renders a command's whole help text as its handler starts, to show it should the handler
  // fail later; dcbkit reports failures itself (the fail handler above) and never shows help then,
  // so that rendering, about a tenth of a 1-us `run`'s CPU time (node --cpu-prof), is skipped.
  (parser as unknown as ParserInternals).getInternalMethods().getUsageInstance().cacheHelpMessage = () => {};
  // `dcbkit completion >> ~/.bashrc` (or ~/.zshrc): yargs' script asks `dcbkit --get-yargs-completions`.
  parser.completion('completion', 'print a bash/zsh completion script for dcbkit (add it to ~/.bashrc or ~/.zshrc)');
  let exitCode = 0;
  try {
    if (argv[0] === 'completion') {
      if (argv.some((a) => a === '--help' || a === '-h')) process.stdout.write(COMPLETION_HELP);
      else printCompletionScript(parser, argv.slice(1));
    }
    else {
      await parser.parseAsync();
      stopOnUsageProblems();
    }
  } catch (e) {
    if (e instanceof ProblemsError) {
      for (const p of e.problems) process.stderr.write(formatProblem(p) + '\n');
      if (wantsJson(rawArgv)) process.stdout.write(JSON.stringify({ problems: e.problems.map(({ path, rule }) => ({ path, rule })) }) + '\n');
      exitCode = e instanceof InputError ? 2 : 1;
    } else {
      process.stderr.write(`dcbkit: internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
      exitCode = 1;
    }
  }
  return exitCode;
}

const COMPLETION_HELP = `dcbkit completion

Print a bash completion script for dcbkit (zsh: run \`autoload -U bashcompinit && bashcompinit\` first).
Add it to your shell once dcbkit is on PATH:

  dcbkit completion >> ~/.bashrc

Options:
  -h, --help  this help
`;

/**
 * `dcbkit completion`: yargs' script for the shell in $SHELL (bash, or zsh). Handled here rather than
 * by yargs' own command, which ends the process after printing and, kept alive, then reports the
 * words after it as unknown commands.
 */
function printCompletionScript(parser: { showCompletionScript(): unknown }, rest: string[]): void {
  if (rest.length) {
    throw new InputError({ path: rest[0], rule: 'unexpected argument; usage: dcbkit completion (prints the script for the shell in $SHELL, bash or zsh)' });
  }
  parser.showCompletionScript();
  if (!onPath('dcbkit')) {
    process.stderr.write('note: dcbkit is not on PATH, so the shell cannot complete it: run `npm link` (or `npm install -g .`) in the dcbkit folder (README, "Putting dcbkit on PATH")\n');
  }
}

/** The version in dcbkit's package.json. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** True when an executable `name` is in one of the $PATH directories. */
function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir || '.', name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** True when this file is the program being run (not imported, e.g. by the in-process CLI tests). */
function isEntryPoint(): boolean {
  try {
    return process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(hideBin(process.argv)).then((code) => {
    process.exitCode = code || process.exitCode;
  });
}
