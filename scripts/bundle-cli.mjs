// Bundles the CLI (dist/host/cli/main.js, from tsc) with esbuild into dist/cli/, all CommonJS:
// dcbkit.js, the launcher (host/cli/launcher.ts); commands/NAME.cjs, the wiring with yargs and one
// command (commands/none.cjs: none), of which a start loads one; chunks/NAME.cjs, the sidecars of
// packages few runs call (yaml, cliui, vega). Resolving and linking some 400 ES modules of yargs,
// zod, yaml and the host on every start cost more than the work of a small command, and V8 has a
// code cache only for scripts (docs/bench.md has the figures).
// Then writes dist/cli/commands.json: each command's usage line and description, so that --help,
// --version and a misspelt command list the commands without loading any of them; and last, each
// bundle's V8 code cache, from a training run of it.
// Worker and driver scripts (the sweep worker, the perf driver) stay as tsc built them in dist/.
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Packages that most runs never call, kept out of the bundles that V8 compiles on every start: the
 * bundle imports a stand-in whose functions load the package on their first call, synchronously as
 * the package itself runs, from one CommonJS file bundled beside the command bundles (chunks/NAME.cjs). yaml
 * (160 kB): a run of a JSON scenario never parses YAML. cliui with wrap-ansi (54 kB): yargs lays
 * out help text with it, and a command that runs renders none. Only the names dcbkit (or yargs)
 * imports are forwarded (the build fails on any other); a class is a function that constructs the
 * real one. docs/bench.md, "Fixed cost of a run", has the figures.
 */
const LOADED_ON_FIRST_USE = [
  { name: 'yaml', functions: ['parse', 'parseDocument', 'stringify', 'isAlias', 'isMap', 'isPair', 'isScalar', 'isSeq'], classes: ['Document', 'Lexer'] },
  { name: 'cliui', functions: ['default'], classes: [] },
];
/**
 * Node built-ins that a run loads as its bundle starts but seldom needs, made on first call the same
 * way: yargs' assertions (`assert` pulls in Node's error formatting, +31 M instructions over
 * `node -e 0`), which pass on every run, so an assertion that holds (Object.is, as Node's own
 * strictEqual compares) returns without the module; and the hash in an output's temporary names
 * (`crypto`, +27 M, with OpenSSL's JavaScript side), which a run that writes nothing never takes.
 */
const BUILTINS_ON_FIRST_USE = [
  {
    name: 'assert', functions: ['notStrictEqual', 'strictEqual'], classes: [],
    holds: { strictEqual: 'a.length >= 2 && Object.is(a[0], a[1])', notStrictEqual: 'a.length >= 2 && !Object.is(a[0], a[1])' },
  },
  { name: 'crypto', functions: ['createHash'], classes: [] },
];
const sidecarFile = (name) => `${name}.cjs`;
/** Each package's file as its importers resolve it (so the sidecar holds the copy they would load). */
const sidecarSources = new Map();

/**
 * A module forwarding `functions` and `classes` to `load()`'s result, which it makes on first call;
 * an assertion function returns at once when its condition in `holds` is true.
 */
function standIn({ functions, classes, holds = {} }, loadExpression) {
  const forward = (f, call) => {
    const body = holds[f] === undefined ? `return ${call};` : `if (${holds[f]}) return; return ${call};`;
    return f === 'default' ? `export default function (...a) { ${body} }\n` : `export function ${f}(...a) { ${body} }\n`;
  };
  return 'let real;\n' +
    `const load = () => (real ??= ${loadExpression});\n` +
    functions.map((f) => forward(f, `load().${f}(...a)`)).join('') +
    classes.map((c) => forward(c, `new (load().${c})(...a)`)).join('');
}

const loadOnFirstUse = {
  name: 'load-on-first-use',
  setup(b) {
    const packages = new Map(LOADED_ON_FIRST_USE.map((p) => [p.name, p]));
    const builtins = new Map(BUILTINS_ON_FIRST_USE.map((p) => [p.name, p]));
    b.onResolve({ filter: /^(yaml|cliui)$/ }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      const real = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: 'require-call', pluginData: 'real' });
      if (real.errors.length) return { errors: real.errors };
      const seen = sidecarSources.get(args.path);
      if (seen !== undefined && seen !== real.path) throw new Error(`${args.path} resolves to two copies: ${seen} and ${real.path}`);
      sidecarSources.set(args.path, real.path);
      return { path: args.path, namespace: 'load-on-first-use' };
    });
    b.onResolve({ filter: /^(node:)?(assert|crypto)$/ }, (args) =>
      args.namespace === 'builtin-on-first-use' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'builtin-on-first-use' });
    // The bundles are dist/cli/commands/NAME.cjs; the sidecars are beside them in dist/cli/chunks.
    b.onResolve({ filter: /^\.\.\/chunks\/[\w-]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'load-on-first-use' }, (args) => ({
      contents: standIn(packages.get(args.path), `require('../chunks/${sidecarFile(args.path)}')`),
      loader: 'js',
    }));
    b.onLoad({ filter: /.*/, namespace: 'builtin-on-first-use' }, (args) => ({
      contents: standIn(builtins.get(args.path), `require('node:${args.path}')`),
      loader: 'js',
    }));
  },
};

/**
 * `import { z } from 'zod'` is zod's whole namespace object, so the bundle kept every schema kind,
 * check and helper zod has (288 kB), all of it compiled by every command that checks a document.
 * The bundle's `z` is a namespace of the names dcbkit calls (ZOD_NAMES); zod marks its
 * definitions pure and its files free of side effects, so esbuild leaves the rest out. A name used
 * but not listed is undefined in the bundle: the build fails on esbuild's warning for it.
 */
const ZOD_NAMES = [
  'array', 'boolean', 'custom', 'discriminatedUnion', 'enum', 'gte', 'int', 'literal', 'looseObject', 'lte', 'NEVER',
  'number', 'object', 'preprocess', 'record', 'strictObject', 'string', 'toJSONSchema', 'tuple', 'union', 'unknown',
];
const zodUsedNames = {
  name: 'zod-used-names',
  setup(b) {
    b.onResolve({ filter: /^zod$/ }, async (args) => {
      const real = await b.resolve('zod/v4', { resolveDir: args.resolveDir, kind: args.kind });
      return { path: real.path, namespace: 'zod-used-names' };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-used-names' }, (args) => ({
      contents: `export * as z from 'zod-used-names-list';\n`,
      resolveDir: dirname(args.path),
      pluginData: args.path,
    }));
    b.onResolve({ filter: /^zod-used-names-list$/ }, (args) => ({ path: args.importer, namespace: 'zod-used-names-list' }));
    b.onLoad({ filter: /.*/, namespace: 'zod-used-names-list' }, (args) => ({
      contents: `export { ${ZOD_NAMES.join(', ')} } from ${JSON.stringify(args.path)};\n`,
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * vega and vega-lite (1.5 MB) render a report's plots, which a run writes only with --out: one
 * CommonJS sidecar (chunks/vega.cjs) that the bundles require when a plot module first loads.
 * vega-canvas reaches for node-canvas with a top-level `await import('canvas')`, which CommonJS
 * cannot hold; the sidecar asks with require() instead, in the same try (canvas is optional).
 */
const VEGA_SIDECAR = 'vega.cjs';
const vegaFromSidecar = {
  name: 'vega-from-sidecar',
  setup(b) {
    b.onResolve({ filter: /^vega(-lite)?$/ }, (args) => ({ path: args.path, namespace: 'vega-from-sidecar' }));
    b.onLoad({ filter: /.*/, namespace: 'vega-from-sidecar' }, (args) => ({
      contents: `module.exports = require('../chunks/${VEGA_SIDECAR}')[${JSON.stringify(args.path)}];\n`,
      loader: 'js',
    }));
  },
};
const vegaCanvasRequire = {
  name: 'vega-canvas-require',
  setup(b) {
    b.onLoad({ filter: /[\\/]vega-canvas[\\/]build[\\/]vega-canvas\.node\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const patched = text.replace("await import('canvas')", "require('canvas')");
      if (patched === text) throw new Error(`${args.path}: no top-level import of canvas to replace (vega-canvas changed?)`);
      return { contents: patched, loader: 'js' };
    });
    b.onResolve({ filter: /^canvas$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * yargs' factory (yargs() itself) guesses the program's version as it makes a parser: it looks for a
 * package.json from the working directory up, reads and parses the first one, and when there is none
 * fails an assertion, which loads Node's assert and formats an AssertionError with its stack, then
 * drops it. host/cli/main.ts gives the version read from dcbkit's own package.json instead
 * (`.version(packageVersion())`), which replaces the guess; a 1-us incast started outside a Node
 * project spent 22 M instructions on it (docs/bench.md). The bundle's factory makes the parser
 * without the guess; the parser is otherwise the same, as `--version` and every help text show.
 */
const yargsNoVersionGuess = {
  name: 'yargs-no-version-guess',
  setup(b) {
    b.onLoad({ filter: /[\\/]yargs[\\/]build[\\/]lib[\\/]yargs-factory\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const guesses = text.split('\n        yargs.version();\n').length - 1;
      if (guesses !== 1) throw new Error(`${args.path}: expected the factory's one \`yargs.version();\`, found ${guesses} (yargs changed?)`);
      return { contents: text.replace('\n        yargs.version();\n', '\n'), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/**
 * Each command's bundle holds the CLI wiring and that command only: the other commands' dynamic
 * imports in host/commands/index.ts become rejections, which never run, since the launcher loads
 * the bundle of the command the line names (host/cli/launcher.ts, bundleFor). `none` holds no
 * command: help, --version and a misspelt command use the summaries of commands.json.
 */
const indexFile = join(root, 'dist', 'host', 'commands', 'index.js');
const commandModuleOf = new Map([...readFileSync(indexFile, 'utf8').matchAll(/^\s*'?([\w-]+)'?: async \(\) => [^]*?import\('\.\/([\w-]+)\.js'\)/gm)].map((m) => [m[1], m[2]]));
const onlyCommand = (command) => ({
  name: 'only-command',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]host[\\/]commands[\\/]index\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace(/import\('\.\/([\w-]+)\.js'\)/g, (call, module) =>
        module === commandModuleOf.get(command) ? call : `Promise.reject(new Error('dcbkit: command module ${module} is not in the ${command} bundle'))`),
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
});

/** Writes `text` with the bundle id line the launcher reads (the hash names its code cache). */
function writeBundle(file, text) {
  text = text.replace(/^#!.*\n/, ''); // main.ts's shebang: the launcher is the program
  // ASCII only, so that V8 holds the source one byte a character and the launcher reads it as
  // latin1, without decoding UTF-8 (esbuild leaves a regular expression's letters as they are;
  // \\uXXXX means the same character in a string or a regular expression).
  text = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const id = createHash('sha256').update(text).digest('hex').slice(0, 16);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `/*dcbkit-bundle ${id}*/${text}`);
}

const COMMONJS = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  write: false,
};

if (commandModuleOf.size === 0) throw new Error(`${indexFile}: no command loaders found`);
for (const command of [...commandModuleOf.keys(), 'none']) {
  const bundle = await build({
    ...COMMONJS,
    plugins: [asciiStringWidth, zodEnglishOnly, loadOnFirstUse, zodUsedNames, vegaFromSidecar, yargsNoVersionGuess, onlyCommand(command)],
    metafile: true,
    entryPoints: [join(root, 'dist', 'host', 'cli', 'main.js')],
    outfile: join(out, 'commands', `${command}.cjs`),
    // piscina starts its worker from a file beside its own module (__dirname): load it from node_modules.
    external: ['piscina'],
    // The bundles' import.meta.url is the launcher's (dist/cli/dcbkit.js): main.ts knows it is the
    // program, index.ts finds commands.json beside it, packageRoot() walks up from it.
    define: { 'import.meta.url': '__dcbkitEntryUrl' },
    banner: { js: "var __dcbkitEntryUrl=require('node:url').pathToFileURL(require('node:path').join(__dirname,'..','dcbkit.js')).href;" },
  });
  const undefinedZod = bundle.warnings.filter((w) => /no matching export/.test(w.text) && /zod/.test(w.text));
  if (undefinedZod.length) throw new Error(`zod names used but not in ZOD_NAMES: ${undefinedZod.map((w) => w.text).join('; ')}`);
  // A script compiled through node:vm from V8's cached data has no loader for import(): it throws
  // ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING (Node 20; the vm option that would supply one is lost with
  // the cache). esbuild turns import() of bundled modules into require(); an external one stays.
  const dynamic = Object.values(bundle.metafile.outputs).flatMap((o) => o.imports).filter((i) => i.kind === 'dynamic-import');
  if (dynamic.length) throw new Error(`bundle ${command}: import() of ${dynamic.map((i) => i.path).join(', ')} would fail at run time in a bundle compiled from the code cache: import it statically (or require it)`);
  writeBundle(join(out, 'commands', `${command}.cjs`), bundle.outputFiles[0].text);
}

const launcher = await build({ ...COMMONJS, entryPoints: [join(root, 'dist', 'host', 'cli', 'launcher.js')], outfile: join(out, 'dcbkit.js') });
writeFileSync(join(out, 'dcbkit.js'), `#!/usr/bin/env node\n${launcher.outputFiles[0].text}`, { mode: 0o755 });
// The package is "type": "module"; the launcher and its bundles are CommonJS.
writeFileSync(join(out, 'package.json'), '{ "type": "commonjs" }\n');

for (const { name } of LOADED_ON_FIRST_USE) {
  await build({
    plugins: [asciiStringWidth],
    stdin: { contents: `module.exports = require(${JSON.stringify(sidecarSources.get(name))});`, resolveDir: root },
    outfile: join(out, 'chunks', sidecarFile(name)),
    ...COMMONJS,
    write: true,
  });
}
await build({
  ...COMMONJS,
  write: true,
  plugins: [vegaCanvasRequire],
  stdin: { contents: "module.exports = { vega: require('vega'), 'vega-lite': require('vega-lite') };", resolveDir: root },
  outfile: join(out, 'chunks', VEGA_SIDECAR),
});

const { commandLoaders } = await import(pathToFileURL(join(root, 'dist', 'host', 'commands', 'index.js')).href);
const summaries = [];
for (const [name, load] of Object.entries(commandLoaders)) {
  const c = await load();
  summaries.push({ name, command: c.command, describe: c.describe, aliases: c.aliases });
}
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'commands.json'), JSON.stringify(summaries, null, 1) + '\n');

/**
 * V8's code cache of each bundle (host/cli/launcher.ts), written by this Node after a typical use of
 * the command, so that it holds the bytecode of the functions that use compiled: a small run for
 * `run`, the help of every other command. Built here, by the Node that will run it: V8 rejects a
 * cache from another version or flag set, and the CLI then compiles as it would without one.
 */
const TRAINING = { run: ['run', join(root, 'examples', 'sim-tiny', 'scenario.yaml'), '--json'], none: ['--help'] };
for (const command of [...commandModuleOf.keys(), 'none']) {
  const args = TRAINING[command] ?? [command, '--help'];
  const r = spawnSync(process.execPath, [join(out, 'dcbkit.js'), ...args], {
    cwd: root, env: { ...process.env, DCBKIT_WRITE_CODE_CACHE: '1' }, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`training run dcbkit ${args.join(' ')} (code cache of ${command}) failed with status ${r.status}: ${r.stderr}`);
}
