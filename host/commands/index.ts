// The CLI's commands, one module each, loaded on demand: a command's module (and the libraries it
// pulls in: vega, piscina, binaryen, protobuf...) is imported only when that command runs, which
// keeps every `dcbkit` start cheap. Add a command by listing its name and module here.
import { readFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { commandWord } from '../cli/command-word.js';
import { beforeLoading } from './prelude.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCommand = CommandModule<any, any>;

export const commandLoaders: Record<string, () => Promise<AnyCommand>> = {
  versions: async () => (await import('./version.js')).versionCommand,
  validate: async () => (await import('./validate.js')).validateCommand,
  schema: async () => (await import('./schema.js')).schemaCommand,
  vectors: async () => (await import('./vectors.js')).vectorsCommand,
  headroom: async () => (await import('./headroom.js')).headroomCommand,
  bench: async () => (await import('./bench.js')).benchCommand,
  run: async () => {
    beforeLoading('run');
    return (await import('./run.js')).runCommandModule;
  },
  sweep: async () => (await import('./sweep.js')).sweepCommand,
  'sweep-merge': async () => (await import('./sweep-merge.js')).sweepMergeCommand,
  frames: async () => (await import('./frames.js')).framesCommand,
  dcbx: async () => (await import('./dcbx.js')).dcbxCommand,
  codegen: async () => (await import('./codegen.js')).codegenCommand,
  audit: async () => (await import('./audit.js')).auditCommand,
  analyze: async () => (await import('./analyze.js')).analyzeCommand,
  gen: async () => (await import('./gen.js')).genCommand,
  examples: async () => (await import('./examples.js')).examplesCommand,
};

/** A command's usage line and description, as the CLI bundle records them (scripts/bundle-cli.mjs). */
export interface CommandSummary {
  name: string;
  command: string | readonly string[];
  describe: string | false;
  aliases?: string | readonly string[];
}

/** The summaries beside the running bundle (dist/cli/commands.json), if they cover every command. */
function bundledSummaries(): CommandSummary[] | undefined {
  try {
    const list = JSON.parse(readFileSync(new URL('./commands.json', import.meta.url), 'utf8')) as CommandSummary[];
    return Object.keys(commandLoaders).every((n) => list.some((s) => s.name === n)) ? list : undefined;
  } catch {
    return undefined; // not bundled (tsc output, tests): load the modules
  }
}

/** A command known by its usage line only: enough for --help, --version and "did you mean". */
const summaryOnly = (s: CommandSummary): AnyCommand => ({
  command: s.command,
  describe: s.describe,
  aliases: s.aliases,
  handler: () => {
    throw new Error(`command ${s.name} was not loaded`);
  },
});

/**
 * The commands needed for `argv`: just the named command; for anything else (help, --version, a
 * typo, completing the command word) their summaries when the bundle has them, and all the modules
 * otherwise. Shell completion (`--get-yargs-completions dcbkit WORD... CURRENT`) loads the command
 * named before the word being completed, whose options it lists.
 */
export async function loadCommands(argv: string[]): Promise<AnyCommand[]> {
  const first = commandWord(argv);
  if (first !== undefined && first in commandLoaders) return [await commandLoaders[first]()];
  const summaries = bundledSummaries();
  if (summaries) return summaries.map(summaryOnly);
  return Promise.all(Object.values(commandLoaders).map((load) => load()));
}
