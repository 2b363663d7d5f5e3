#!/usr/bin/env node
// dcbkit command line (DESIGN.md §5). Each command lives in host/commands/<name>.ts and also has a
// library function; this file only wires them into yargs and maps errors to exit codes:
// InputError -> one `path: rule` line per problem on stderr, exit 2; OutputError -> the same lines,
// exit 1; anything else -> exit 1 with the stack (a bug).
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { loadCommands } from './commands/index.js';
import { InputError, ProblemsError, formatProblem } from './errors.js';

export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const parser = yargs(argv)
    .scriptName('dcbkit')
    .strict()
    .demandCommand(1, 'give a command; see dcbkit --help')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((msg, err) => {
      if (err) throw err;
      // Usage errors (unknown option, missing argument) are bad input too.
      throw new InputError({ path: '', rule: msg });
    });
  for (const c of await loadCommands(argv)) parser.command(c);
  try {
    await parser.parseAsync();
  } catch (e) {
    if (e instanceof ProblemsError) {
      for (const p of e.problems) process.stderr.write(formatProblem(p) + '\n');
      exitCode = e instanceof InputError ? 2 : 1;
    } else {
      process.stderr.write(`dcbkit: internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
      exitCode = 1;
    }
  }
  return exitCode;
}

main(hideBin(process.argv)).then((code) => {
  process.exitCode = code || process.exitCode;
});
