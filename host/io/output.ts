// Output files and directories are never half-written, and an output directory after a successful
// command holds exactly that command's files.
//
// A file goes to a temporary sibling first and is renamed into place once complete (rename is
// atomic within one file system). A directory (`run`, `sweep`, `codegen --out DIR`) is staged
// complete in a temporary sibling directory and then swapped in: the old directory is renamed
// aside, the stage renamed into its place, and only then is the old one removed. So files of an
// earlier run never survive beside the new ones, and a failure at any point leaves the old
// directory as it was.
//
// An existing directory that is empty, or whose parent takes no new entries (a container's mount
// point), is written in place instead: the files are staged in a hidden directory inside it, the
// earlier output moved into another hidden directory there, the new entries renamed up, and the old
// ones removed; a failure moves everything back. Either way the directory keeps its own mode, owner
// and identity (a swapped-in stage takes the mode of the directory it replaces).
//
// Because the old directory is deleted, dcbkit replaces only what it can tell is its own: a
// missing or empty directory, or one holding the command's signature file (run.json for run and
// sweep, manifest.json for codegen) whose "generator" names the same command. Anything else is
// refused as bad input before any work is done (checkOutDir), so a user's directory is never lost.
//
// A writer killed outright (SIGKILL, power cut) can leave its stage, the aside and a journal of its
// renames; the next check or write of the same directory replays or undoes them from the journal
// (host/io/output-recovery.ts), so --out holds the old tree or the new one, never neither for longer
// than until the next command touches it. SIGINT and SIGTERM stop a writer that honours them
// between staged files and between the chunks of a streamed one (writeTreeAtomicAsync,
// host/io/signals.ts) with nothing changed.
import {
  accessSync, chmodSync, closeSync, constants, existsSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync,
  realpathSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync, writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InputError, OutputError, fsReason } from '../errors/errors.js';
import { readInputText } from './input.js';
import { appendAll } from '../util/extent.js';
import { recoverOutputs, tempName, type Journal } from './output-recovery.js';
import { checkpoint, Interrupted, stopSignal } from './signals.js';

/**
 * A file written piece by piece as its pieces are made, so that a large one (a run's series CSV) is
 * never held whole. Each chunk is written before the next is asked for, so a producer may reuse
 * one buffer.
 */
export interface StreamedFile { chunks(): Iterable<Uint8Array> }
/** The contents of one file of a tree. */
export type TreeFile = string | Uint8Array | StreamedFile;

/** What identifies a directory as an earlier output of one command. */
export interface OutputKind {
  /** The "generator" value written into the signature file, e.g. `dcbkit run`. */
  generator: string;
  /** Path (relative to the output directory) of the JSON file that carries `generator`. */
  signature: string;
}

export const RUN_OUTPUT: OutputKind = { generator: 'dcbkit run', signature: 'run.json' };
export const SWEEP_OUTPUT: OutputKind = { generator: 'dcbkit sweep', signature: 'run.json' };
export const CODEGEN_OUTPUT: OutputKind = { generator: 'dcbkit codegen', signature: 'manifest.json' };
export const VECTORS_OUTPUT: OutputKind = { generator: 'dcbkit vectors', signature: 'manifest.json' };

function errText(e: unknown): string {
  return fsReason(e);
}

/** stat that returns undefined for a path that does not exist (ENOENT, or a file on the way: ENOTDIR). */
function statOrMissing(path: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/**
 * Why entries can not be created in directory `dir` (or in the directory that would be made there),
 * or undefined when they can. Probes by creating and removing an empty directory, which is the
 * only reliable answer (permissions, read-only mounts, /proc, running as root).
 */
function creatableProblem(dir: string): string | undefined {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  let st;
  try {
    st = statSync(d);
  } catch (e) {
    return `cannot inspect "${d}": ${errText(e)}`;
  }
  if (!st.isDirectory()) return `"${d}" is not a directory`;
  try {
    accessSync(d, constants.W_OK | constants.X_OK);
    rmdirSync(mkdtempSync(join(d, '.dcbkit-probe-')));
  } catch (e) {
    return `cannot create entries in "${d}" (${fsReason(e)})`;
  }
  return undefined;
}

/** True when `dir` holds `kind`'s signature file naming `kind.generator`. */
function isOwnOutput(dir: string, kind: OutputKind): boolean {
  try {
    const doc = JSON.parse(readInputText(join(dir, kind.signature), kind.signature)) as unknown;
    return typeof doc === 'object' && doc !== null && (doc as { generator?: unknown }).generator === kind.generator;
  } catch {
    return false;
  }
}

/**
 * Checks, before any work, that `outDir` can receive `kind`'s output: it does not exist (and can be
 * created), or is an empty directory, or an earlier output of the same command (which will be
 * replaced as a whole). Throws InputError with one `label: rule` problem otherwise.
 */
export function checkOutDir(outDir: string, kind: OutputKind, label = '--out'): void {
  const fail = (rule: string): never => {
    throw new InputError({ path: label, rule });
  };
  if (outDir === '') fail('must name a directory, got an empty string'); // resolve('') would be the working directory
  const root = resolve(outDir);
  // what a killed writer left here is put right first (host/io/output-recovery.ts)
  recoverOutputs(existsSync(root) ? realpathSync(root) : root);
  let st;
  try {
    st = statOrMissing(root);
  } catch (e) {
    fail(`cannot inspect "${outDir}": ${errText(e)}`);
  }
  if (st === undefined) {
    const why = creatableProblem(dirname(root));
    if (why) fail(`cannot create "${outDir}": ${why}`);
    return;
  }
  if (!st.isDirectory()) fail(`"${outDir}" exists and is not a directory`);
  let entries: string[] = [];
  try {
    entries = readdirSync(root);
  } catch (e) {
    fail(`cannot read "${outDir}": ${errText(e)}`);
  }
  if (entries.length > 0 && !isOwnOutput(root, kind)) {
    fail(
      `"${outDir}" is a non-empty directory that ${kind.generator} did not write (no ${kind.signature} with ` +
        `"generator": "${kind.generator}"); ${kind.generator} replaces its output directory as a whole: give a new or ` +
        `empty directory, or remove this one`,
    );
  }
  // Written in place (inside it) when empty or when its parent takes no new entries; swapped otherwise.
  const inside = creatableProblem(realpathSync(root));
  if (inside) fail(`cannot write into "${outDir}": ${inside}`);
}

/** True when the existing directory `dir` is written in place rather than swapped (see the file comment). */
function writesInPlace(dir: string): boolean {
  return readdirSync(dir).length === 0 || creatableProblem(dirname(dir)) !== undefined;
}

/** Writes one journal (host/io/output-recovery.ts) beside the entries it names, before the first rename. */
function writeJournal(dir: string, journal: Journal): string {
  const path = join(dir, `${tempName('swap')}.json`);
  writeFileSync(path, JSON.stringify(journal));
  return path;
}

/** Stages `files` under `stage`, one file per step (a step is where an async writer may stop). */
function* stageFiles(stage: string, files: Map<string, TreeFile>): Generator<void, void> {
  for (const [rel, data] of files) {
    const p = join(stage, rel);
    mkdirSync(dirname(p), { recursive: true });
    if (typeof data === 'string' || data instanceof Uint8Array) writeFileSync(p, data);
    else yield* streamFile(p, data);
    yield;
  }
}

/** Writes a streamed file chunk by chunk, one step per chunk. */
function* streamFile(path: string, data: StreamedFile): Generator<void, void> {
  const fd = openSync(path, 'w');
  try {
    for (const chunk of data.chunks()) {
      for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at, chunk.length - at);
      yield;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `files` into the existing directory `dir` (in place): all of them, and the earlier entries
 * (but `keep`) gone, or on failure the directory as it was. Throws what the file system throws.
 */
function* writeInPlace(dir: string, files: Map<string, TreeFile>, keep: readonly string[]): Generator<void, void> {
  const stage = join(dir, tempName('stage'));
  const old = join(dir, tempName('old'));
  // another writer's temporary entries are its own to remove
  const earlier = readdirSync(dir).filter((n) => !keep.includes(n) && !n.startsWith('.dcbkit-'));
  const fresh = [...new Set([...files.keys()].map((rel) => rel.split('/')[0]))];
  const movedOld: string[] = [];
  const movedNew: string[] = [];
  let journal: string | undefined;
  mkdirSync(stage);
  try {
    yield* stageFiles(stage, files);
    journal = writeJournal(dir, { mode: 'in-place', dir, stage, aside: old, earlier, fresh });
    mkdirSync(old);
    for (const n of earlier) {
      renameSync(join(dir, n), join(old, n));
      movedOld.push(n);
    }
    for (const n of fresh) {
      renameSync(join(stage, n), join(dir, n));
      movedNew.push(n);
    }
  } catch (e) {
    // back to how it was: the new entries out, the earlier ones back
    for (const n of movedNew) rmSync(join(dir, n), { recursive: true, force: true });
    for (const n of movedOld) renameSync(join(old, n), join(dir, n));
    rmSync(stage, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
    if (journal) rmSync(journal, { force: true });
    throw e;
  }
  rmSync(stage, { recursive: true, force: true });
  rmSync(old, { recursive: true, force: true });
  rmSync(journal, { force: true });
}

/**
 * Like checkOutDir for one output file: `path` is not a directory, and its directory exists or can
 * be created. Throws InputError with one `label: rule` problem otherwise.
 */
export function checkOutFile(path: string, label: string): void {
  if (path === '') throw new InputError({ path: label, rule: 'must name a file, got an empty string' });
  const abs = resolve(path);
  let st;
  try {
    st = statOrMissing(abs);
  } catch (e) {
    throw new InputError({ path: label, rule: `cannot inspect "${path}": ${errText(e)}` });
  }
  if (st?.isDirectory()) throw new InputError({ path: label, rule: `"${path}" is a directory, not a file` });
  const why = creatableProblem(dirname(abs));
  if (why) throw new InputError({ path: label, rule: `cannot write "${path}": ${why}` });
}

/**
 * Writes `data` to `path` atomically (temporary file in the same directory, then rename). A bad
 * destination is an InputError (`label: rule`); a failure while writing an OutputError.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, label = path): void {
  checkOutFile(path, label);
  const dir = dirname(resolve(path));
  let made: string | undefined;
  const tmp = join(dir, `.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    made = mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    if (made) rmSync(made, { recursive: true, force: true });
    throw new OutputError({ path: label, rule: `cannot write "${path}": ${errText(e)}` });
  }
}

/**
 * Writes a set of files (relative path -> contents) as the directory `outDir`: afterwards it holds
 * exactly these files (plus nothing of an earlier run), or, on any failure, is as it was. See the
 * file comment for the swap and for which existing directories may be replaced (checkOutDir).
 * `files` must contain kind.signature with "generator": kind.generator, so the next run can
 * recognise the directory. Throws InputError for a refused `outDir`, OutputError when writing fails.
 * `keep` names top-level entries of the old directory (not among `files`) that move into the new
 * one by rename, so files still open there (a Slurm job's log) keep being written in place.
 */
export function writeTreeAtomic(outDir: string, files: Map<string, TreeFile>, kind: OutputKind, label = '--out', keep: readonly string[] = []): void {
  const steps = treeWriter(outDir, files, kind, label, keep);
  while (!steps.next().done);
}

/**
 * writeTreeAtomic for commands that honour SIGINT / SIGTERM (host/io/signals.ts): it yields to the
 * event loop between the staged files and before the swap, and at a stop signal removes the stage
 * and throws Interrupted (`what` says what was under way), leaving `outDir` as it was.
 */
export async function writeTreeAtomicAsync(
  outDir: string, files: Map<string, TreeFile>, kind: OutputKind, label = '--out', keep: readonly string[] = [],
  what = () => `while writing ${outDir}; nothing written: ${outDir} is as it was`,
): Promise<void> {
  await checkpoint(what);
  const steps = treeWriter(outDir, files, kind, label, keep);
  let step = steps.next();
  while (!step.done) {
    await new Promise((r) => setImmediate(r));
    const signal = stopSignal();
    step = signal ? steps.throw(new Interrupted(signal, what())) : steps.next();
  }
}

/** The steps of writeTreeAtomic: one per staged file, the last just before the swap. */
function* treeWriter(outDir: string, files: Map<string, TreeFile>, kind: OutputKind, label: string, keep: readonly string[]): Generator<void, void> {
  const sig = files.get(kind.signature);
  if (sig === undefined || !(typeof sig === 'string' || sig instanceof Uint8Array) ||
    JSON.parse(typeof sig === 'string' ? sig : new TextDecoder().decode(sig)).generator !== kind.generator) {
    throw new Error(`writeTreeAtomic: ${kind.signature} with "generator": "${kind.generator}" must be among the files`);
  }
  try {
    checkOutDir(outDir, kind, label);
  } catch (e) {
    // checked before the command's work began too: what changed since is the environment (exit 1)
    if (e instanceof InputError) throw new OutputError(e.problems.map((p) => ({ path: p.path, rule: `${p.rule} (this changed while the command ran); nothing was changed` })));
    throw e;
  }
  const root = resolve(outDir);
  // Swap the directory a symlink points at, not the link itself.
  const target = existsSync(root) ? realpathSync(root) : root;
  const existing = statOrMissing(target);
  if (existing && writesInPlace(target)) {
    try {
      yield* writeInPlace(target, files, keep);
    } catch (e) {
      if (e instanceof Interrupted) throw e;
      throw new OutputError({ path: label, rule: `cannot write "${outDir}": ${errText(e)}; nothing was changed` });
    }
    return;
  }
  const parent = dirname(target);
  let made: string | undefined;
  let stage: string | undefined;
  let aside: string | undefined;
  let journal: string | undefined;
  try {
    made = mkdirSync(parent, { recursive: true });
    // mkdirSync, not mkdtempSync: mkdtemp makes the directory 0700 whatever the umask, and the
    // stage becomes the output directory, which should follow the umask like the files inside.
    stage = join(parent, tempName('stage'));
    mkdirSync(stage);
    yield* stageFiles(stage, files);
    // the output directory keeps the mode it had (a chmod 555 or 2775 directory stays so)
    if (existing) chmodSync(stage, Number(existing.mode) & 0o7777);
    const moveAside = existing !== undefined;
    if (moveAside) {
      aside = join(parent, tempName('old'));
      journal = writeJournal(parent, { mode: 'swap', target, stage, aside, keep: [...keep] });
      renameSync(target, aside);
    }
    try {
      renameSync(stage, target);
    } catch (e) {
      if (aside) {
        try {
          renameSync(aside, target);
        } catch {
          throw new OutputError({ path: label, rule: `cannot write "${outDir}": ${errText(e)}; the earlier output is in "${aside}"` });
        }
      }
      aside = undefined;
      throw e;
    }
    stage = undefined;
    made = undefined;
  } catch (e) {
    if (journal) rmSync(journal, { force: true });
    if (e instanceof OutputError || e instanceof Interrupted) throw e;
    throw new OutputError({ path: label, rule: `cannot write "${outDir}": ${errText(e)}; nothing was changed` });
  } finally {
    if (stage) rmSync(stage, { recursive: true, force: true });
    if (made) rmSync(made, { recursive: true, force: true });
  }
  if (aside) {
    try {
      // entries kept from the old directory (a Slurm job's open log) move into the new one
      for (const name of keep) {
        if (lstatSync(join(aside, name), { throwIfNoEntry: false }) && !lstatSync(join(target, name), { throwIfNoEntry: false })) renameSync(join(aside, name), join(target, name));
      }
      rmSync(aside, { recursive: true, force: true });
      rmSync(journal!, { force: true });
    } catch (e) {
      throw new OutputError({ path: label, rule: `wrote "${outDir}" but could not remove the earlier output moved to "${aside}": ${errText(e)}` });
    }
  }
}

/** Lists files under `dir` recursively, relative paths, sorted (for manifests and tests). */
export function listFilesRecursive(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(p).isDirectory()) appendAll(out, listFilesRecursive(p, rel));
    else out.push(rel);
  }
  return out;
}
