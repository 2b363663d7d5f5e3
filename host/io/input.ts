// Reading an input file whole, bounded before it is read: every file a command takes (configs,
// scenarios, device files, stimuli, CONFIG_DB dumps, captures, a sweep's run.json and summaries)
// comes through readInputBytes / readInputText.
//
// Rules, each checked before the contents are read:
// - A path names a regular file. It is opened with O_NONBLOCK, so a FIFO without a writer does not
//   hang open(2), and fstat on the open descriptor refuses a FIFO, socket, directory or device
//   (`/dev/zero` would otherwise be read until memory runs out).
// - Its size is at most the kind's cap (the figure is in the message). The file could grow
//   between fstat and the read, so the read itself stops one byte past the cap.
// - `-` is standard input, which may be a pipe or a terminal: read in chunks up to the cap.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { InputError, fsReason } from '../errors/errors.js';

const MiB = 1024 * 1024;

/**
 * What one input may weigh. A document (config, scenario, device, stimulus, run.json, point
 * summary) of 64 MiB is several times the largest a generator writes (`gen clos --k 32` with
 * 100,000 flows: 7.4 MB); a capture is read whole by the file decoder, so 1 GiB bounds its memory.
 */
export const INPUT_CAPS = { document: 64 * MiB, capture: 1024 * MiB } as const;
export type InputKind = keyof typeof INPUT_CAPS;

/** 64 MiB, 1 GiB: a cap as people read it. */
export function capText(bytes: number): string {
  return bytes % (1024 * MiB) === 0 ? `${bytes / (1024 * MiB)} GiB` : `${bytes / MiB} MiB`;
}

/** Reads from `fd` until end of input, refusing more than `cap` bytes. */
function readCapped(fd: number, cap: number, tooBig: () => never): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  let chunk = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      // stdin set non-blocking by a parent: wait for data rather than fail
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        continue;
      }
      throw e;
    }
    if (n === 0) break;
    total += n;
    if (total > cap) tooBig();
    chunks.push(chunk.subarray(0, n));
    // geometric growth: a big input takes few reads, a small one allocates little
    chunk = Buffer.allocUnsafe(Math.min(chunk.length * 2, 16 * MiB));
  }
  return Buffer.concat(chunks, total);
}

/**
 * The bytes of `path` (`-`: standard input). Throws InputError at `label` when the path is not a
 * regular file, cannot be read, or holds more than the cap of `kind`.
 */
export function readInputBytes(path: string, label: string, kind: InputKind = 'document'): Buffer {
  const cap = INPUT_CAPS[kind];
  const tooBig = (): never => {
    throw new InputError({ path: label, rule: `${path === '-' ? 'standard input holds' : `"${path}" is`} more than ${capText(cap)}, the limit of a ${kind === 'capture' ? 'capture' : 'document'} file` });
  };
  if (path === '-') {
    try {
      return readCapped(0, cap, tooBig);
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError({ path: label, rule: `cannot read standard input: ${fsReason(e)}` });
    }
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new InputError({ path: label, rule: `cannot read "${path}": ${fsReason(e)}` });
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      const what = st.isDirectory() ? 'a directory' : st.isFIFO() ? 'a FIFO (named pipe)' : st.isSocket() ? 'a socket' : 'a device';
      throw new InputError({ path: label, rule: `"${path}" is ${what}, not a regular file${path.startsWith('/dev/') || st.isFIFO() ? ' (to read a stream, give - and pipe it to standard input)' : ''}` });
    }
    if (st.size > cap) tooBig();
    return readCapped(fd, cap, tooBig);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError({ path: label, rule: `cannot read "${path}": ${fsReason(e)}` });
  } finally {
    closeSync(fd);
  }
}

/** readInputBytes as UTF-8 text. */
export function readInputText(path: string, label: string, kind: InputKind = 'document'): string {
  return readInputBytes(path, label, kind).toString('utf8');
}
