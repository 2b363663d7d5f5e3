// The installed `dcbkit` (dist/cli/dcbkit.js, bundled as CommonJS by scripts/bundle-cli.mjs; it
// runs only as that bundle, where __dirname and require are CommonJS's own). It loads the one
// bundle that holds the command the line names (dist/cli/commands/NAME.cjs; `none.cjs` for help,
// --version and a misspelt command), each a CommonJS file with the whole CLI wiring and that
// command, which runs the CLI as it loads (host/cli/main.ts, isEntryPoint).
//
// Why CommonJS and V8's code cache (docs/bench.md, "Fixed cost of a run"): loading ES modules made
// Node resolve and link every chunk asynchronously and build a namespace of every export of each
// built-in a chunk imports, and V8 parsed and compiled the bundle's text on every start. A bundle
// compiled through node:vm takes V8's cached data: the bytecode of the functions a typical use of
// the command ran, written at build time by the same Node (`NAME.cjs.v8cache`). V8 checks that
// data against its own version, flags and the source's length and rejects it on any mismatch
// (`cachedDataRejected`); the bundle is then compiled as usual. The cache's name carries the hash
// the build wrote into the bundle's first line, so a cache never meets a bundle it was not made for.
//
// DCBKIT_WRITE_CODE_CACHE=1 (the build's training runs): at exit, write the cache of the bundle
// that ran, with the functions compiled by then. DCBKIT_CODE_CACHE=off: compile without the cache
// (to measure it). DCBKIT_CODE_CACHE=report: say on stderr whether V8 took the cache.
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { beforeLoading } from '../commands/prelude.js';
import { commandWord, helpWords } from './command-word.js';

/** The hash scripts/bundle-cli.mjs writes on a bundle's first line: `/*dcbkit-bundle HASH*\/`. */
const BUNDLE_ID = /^\/\*dcbkit-bundle ([0-9a-f]+)\*\//;

/** The bundle for the command `argv` names (the words after `dcbkit`). */
export function bundleFor(argv: readonly string[], commands: readonly string[]): string {
  const word = commandWord(helpWords(argv));
  return word !== undefined && commands.includes(word) ? word : 'none';
}

/** Reads `size` bytes of the open file `fd` from its start into `buf` at `at`. */
function readWhole(fd: number, buf: Buffer, at: number, size: number): void {
  for (let done = 0; done < size; ) {
    const n = readSync(fd, buf, at + done, size - done, done);
    if (n === 0) throw new Error(`dcbkit: a file of the installed CLI ended ${size - done} bytes early (changed while read?)`);
    done += n;
  }
}

/**
 * The bundle `file` wrapped as Node's CommonJS loader wraps a file, and its code cache when one is
 * to be used, read through one buffer. `Module.wrap(text)` is a concatenation that V8 copies into
 * one flat string again before compiling, and each fresh buffer and string is memory touched for
 * the first time, which is dear here (a minor page fault took 20 to 80 us on the 2-core VM): the
 * wrapper written around the file's bytes makes the flat text in one copy, and the cache is then
 * read into the same pages (about 270 fewer minor faults per start, docs/bench.md).
 */
function readBundle(file: string, useCache: boolean): { source: string; cacheFile?: string; cachedData?: Buffer } {
  const [head, tail] = (Module as unknown as { wrapper: readonly [string, string] }).wrapper;
  const text = openSync(file, 'r');
  let cache: number | undefined;
  try {
    const textSize = fstatSync(text).size;
    const first = Buffer.allocUnsafe(64);
    const id = BUNDLE_ID.exec(first.toString('latin1', 0, readSync(text, first, 0, first.length, 0)))?.[1];
    const cacheFile = id === undefined ? undefined : `${file}.${id}.v8cache`;
    if (cacheFile !== undefined && useCache) {
      try {
        cache = openSync(cacheFile, 'r');
      } catch {
        cache = undefined; // none written (a build without training): compile as usual
      }
    }
    const cacheSize = cache === undefined ? 0 : fstatSync(cache).size;
    const wrappedSize = head.length + textSize + tail.length;
    const buf = Buffer.allocUnsafeSlow(Math.max(wrappedSize, cacheSize));
    // The build writes the bundles in ASCII (scripts/bundle-cli.mjs): latin1 is the same text, read without decoding.
    buf.write(head, 0, 'latin1');
    readWhole(text, buf, head.length, textSize);
    buf.write(tail, head.length + textSize, 'latin1');
    const source = buf.toString('latin1', 0, wrappedSize);
    if (cache === undefined) return { source, cacheFile };
    readWhole(cache, buf, 0, cacheSize);
    return { source, cacheFile, cachedData: buf.subarray(0, cacheSize) };
  } finally {
    closeSync(text);
    if (cache !== undefined) closeSync(cache);
  }
}

/** Compiles and runs the CommonJS file `file` as Node's own loader would, with V8's cached data when it fits. */
function runBundle(file: string): void {
  const mode = process.env.DCBKIT_CODE_CACHE;
  const { source, cacheFile, cachedData } = readBundle(file, mode !== 'off' && process.env.DCBKIT_WRITE_CODE_CACHE !== '1');
  const script = new Script(source, { filename: file, cachedData });
  if (mode === 'report') process.stderr.write(`code cache: ${cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted'}\n`);
  if (process.env.DCBKIT_WRITE_CODE_CACHE === '1' && cacheFile !== undefined) {
    process.on('exit', () => {
      writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
      renameSync(`${cacheFile}.tmp`, cacheFile);
    });
  }
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  (Module as unknown as { _cache: Record<string, Module> })._cache[file] = mod;
  const wrapper = script.runInThisContext() as (...a: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  mod.loaded = true;
}

const commands = (JSON.parse(readFileSync(join(__dirname, 'commands.json'), 'utf8')) as { name: string }[]).map((c) => c.name);
const bundle = bundleFor(process.argv.slice(2), commands);
beforeLoading(bundle);
runBundle(join(__dirname, 'commands', `${bundle}.cjs`));
