// Bundles the CLI (dist/host/cli/main.js, from tsc) with esbuild into dist/cli/: dcbkit.js, the entry,
// holds yargs and the wiring; each command is its own chunk (the dynamic imports of
// host/commands/index.ts), loaded only when that command runs. Resolving and linking some 400 ES
// modules of yargs, zod, yaml and the host on every start cost more than the work of a small command;
// one file per command leaves Node little to resolve (docs/bench.md has the figures).
// Then writes dist/cli/commands.json: each command's usage line and description, so that --help,
// --version and a misspelt command list the commands without loading any of them.
// Worker and driver scripts (the sweep worker, the perf driver) stay as tsc built them in dist/.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'cli');
rmSync(out, { recursive: true, force: true });

/**
 * yargs renders and caches the help text of every command it runs, measuring each cell with
 * string-width, whose first call builds an emoji regular expression and a grapheme segmenter: about
 * a quarter of a small command's CPU time (node --cpu-prof). Printable ASCII is one column per
 * character, so such strings take a fast path; anything else goes to the real string-width, which is
 * required (so evaluated, with its two Intl.Segmenters, 8 ms each) only when first needed.
 */
const asciiStringWidth = {
  name: 'ascii-string-width',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      const real = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: 'real' });
      return { path: real.path, namespace: 'ascii-string-width' };
    });
    b.onLoad({ filter: /.*/, namespace: 'ascii-string-width' }, (args) => ({
      contents:
        'const PRINTABLE_ASCII = /^[\\x20-\\x7e]*$/;\n' +
        'let realStringWidth;\n' +
        'export default function stringWidth(s, options) {\n' +
        "  if (typeof s === 'string' && PRINTABLE_ASCII.test(s)) return s.length;\n" +
        `  realStringWidth ??= require(${JSON.stringify(args.path)}).default;\n` +
        '  return realStringWidth(s, options);\n' +
        '}\n',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * zod re-exports all its ~50 message locales as `z.locales`, which keeps 360 kB of code that every
 * command parsing a config compiles; dcbkit uses the English messages zod configures itself with
 * and never `z.locales`. The bundle's `z.locales` holds English only.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: "export { default as en } from './en.js';\n",
      resolveDir: dirname(args.path),
    }));
  },
};

await build({
  plugins: [asciiStringWidth, zodEnglishOnly],
  entryPoints: { dcbkit: join(root, 'dist', 'host', 'cli', 'main.js') },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // piscina starts its worker from a file beside its own module (__dirname): load it from node_modules.
  external: ['piscina'],
  // CommonJS dependencies (cli-progress, ...) call require(); an ES module has none of its own. Made
  // on first call: createRequire in each of a run's ~25 chunks was path work for Node's module
  // loader that only the chunk calling require() needs, and that work is JavaScript V8 optimises
  // once it is hot enough, at a cost in memory (host/util/tiering.ts).
  banner: {
    js: "import { createRequire as __dcbkitCreateRequire } from 'node:module'; let __dcbkitRequire; " +
      'function require(id) { return (__dcbkitRequire ??= __dcbkitCreateRequire(import.meta.url))(id); }',
  },
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});

const { commandLoaders } = await import(pathToFileURL(join(root, 'dist', 'host', 'commands', 'index.js')).href);
const summaries = [];
for (const [name, load] of Object.entries(commandLoaders)) {
  const c = await load();
  summaries.push({ name, command: c.command, describe: c.describe, aliases: c.aliases });
}
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'commands.json'), JSON.stringify(summaries, null, 1) + '\n');
