// The CLI's commands, one module each, loaded on demand: a command's module (and the libraries it
// pulls in: vega, piscina, binaryen, protobuf...) is imported only when that command runs, which
// keeps every `dcbkit` start cheap. Add a command by listing its name and module here.
import type { CommandModule } from 'yargs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCommand = CommandModule<any, any>;

export const commandLoaders: Record<string, () => Promise<AnyCommand>> = {
  versions: async () => (await import('./version.js')).versionCommand,
  validate: async () => (await import('./validate.js')).validateCommand,
  schema: async () => (await import('./schema.js')).schemaCommand,
  vectors: async () => (await import('./vectors.js')).vectorsCommand,
  headroom: async () => (await import('./headroom.js')).headroomCommand,
  bench: async () => (await import('./bench.js')).benchCommand,
  run: async () => (await import('./run.js')).runCommandModule,
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

/** The modules needed for `argv`: just the named command, or all of them (help, typos, shell completion). */
export async function loadCommands(argv: string[]): Promise<AnyCommand[]> {
  const completing = argv.includes('--get-yargs-completions');
  const first = completing ? undefined : argv.find((a) => !a.startsWith('-'));
  const names = first !== undefined && first in commandLoaders ? [first] : Object.keys(commandLoaders);
  return Promise.all(names.map((n) => commandLoaders[n]()));
}
