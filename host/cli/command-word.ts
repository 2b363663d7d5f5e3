// Which command a dcbkit command line names, shared by the CLI's wiring (host/cli/main.ts,
// host/commands/index.ts) and its launcher (host/cli/launcher.ts), which must agree on it: the
// launcher loads the one bundle that holds that command.

/** `dcbkit help CMD ...` is `dcbkit CMD ... --help` (yargs would read `help` as a misspelt command). */
export function helpWords(argv: readonly string[]): string[] {
  return argv[0] === 'help' ? [...argv.slice(1), '--help'] : [...argv];
}

/**
 * The first word of `argv` that is not an option (undefined: none). Shell completion
 * (`--get-yargs-completions dcbkit WORD... CURRENT`) looks only at the words before the one being
 * completed, after the script name.
 */
export function commandWord(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('--get-yargs-completions');
  const words = at < 0 ? argv : argv.slice(at + 2, -1);
  return words.find((a) => !a.startsWith('-'));
}
