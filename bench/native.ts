// The C reference of the port pipeline (bench/native/port.c): compiled with gcc -O2 on demand into
// a temporary directory, then driven as a child process (checksum, timed samples, plain runs for
// perf differencing). Nothing here is timed in-process: the C binary times itself.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../host/core/loader.js';

export interface NativePort {
  exe: string;
  gcc: string;
  dispose(): void;
}

/** gcc's version line, or null when gcc is not installed. */
export function gccVersion(): string | null {
  const r = spawnSync('gcc', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0].trim() : null;
}

/** Builds bench/native/port.c and the C model's kernels with gcc -O2 -flto -fno-pie; throws with gcc's message when that fails. */
export function buildNativePort(): NativePort {
  const gcc = gccVersion();
  if (!gcc) throw new Error('gcc is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-native-'));
  const exe = join(dir, 'port.out');
  const src = join(packageRoot(), 'bench', 'native', 'port.c');
  // The kernels are the C reference model's (cmodel/); -flto inlines them into the pipeline as asc
  // inlines the kernels into assembly/port.ts. -fno-pie -no-pie: the port's static records are
  // addressed as the Wasm build addresses its linear memory, by constant offset with an index
  // register ([base + idx*4 + disp]); position-independent code needs a RIP-relative lea per record
  // and index (measured: 148 against 126 instructions per packet, 9 % of the time). The layout
  // header comes from the build (scripts/layout-h.mjs, run by `npm run build`).
  const kernels = ['ets', 'pfc', 'qcn_cp', 'rng'].map((k) => join(packageRoot(), 'cmodel', `${k}.c`));
  const include = ['-I', join(packageRoot(), 'build'), '-I', join(packageRoot(), 'cmodel')];
  const r = spawnSync('gcc', ['-O2', '-flto', '-fno-pie', '-no-pie', '-std=c11', '-Wall', '-Werror', ...include, '-o', exe, src, ...kernels], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`gcc failed on ${src}:\n${r.stderr}`);
  }
  return { exe, gcc, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

function run(exe: string, args: string[]): string {
  const r = spawnSync(exe, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${exe} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** State checksum after `packets` seeded packets (same chunking as the core's portRun). */
export function nativeChecksum(n: NativePort, seed: number, packets: number): number {
  return Number(run(n.exe, ['check', String(seed), String(packets)]).trim());
}

/** Timed samples, ns per packet each: `samples` batches of `batch` packets after `warmup` batches. */
export function nativeSamples(n: NativePort, batch: number, samples: number, warmup: number): number[] {
  return run(n.exe, ['bench', String(batch), String(samples), String(warmup)]).trim().split(/\s+/).map(Number);
}
