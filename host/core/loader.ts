// Loads build/core.wasm with the raw WebAssembly API (no generated bindings: they copy data, and
// the core is driven through its linear memory). Views over memory are zero-copy and re-derived
// whenever memory.buffer changes identity; a run checks that it never does (docs/design.md §3).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * release and debug own their memory; shared is the release build over an imported shared memory
 * (WebAssembly threads), for the partitioned fabric engine: one memory, an instance per thread.
 */
export type CoreFlavour = 'release' | 'debug' | 'shared';

/** The exports every build of the core has; kernels add functions and layout globals. */
export interface CoreExports {
  memory: WebAssembly.Memory;
  [name: string]: unknown;
}

/** Root of the package (works from host/*.ts under vitest and from dist/host/*.js). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'dcbkit') return dir;
    } catch {
      /* not here: go up */
    }
    dir = dirname(dir);
  }
  throw new Error('cannot find the dcbkit package root');
}

export function wasmPath(flavour: CoreFlavour = 'release'): string {
  return join(packageRoot(), 'build', flavour === 'release' ? 'core.wasm' : flavour === 'shared' ? 'core.shared.wasm' : 'core.debug.wasm');
}

const moduleCache = new Map<CoreFlavour, WebAssembly.Module>();

/** Uses a module compiled elsewhere (a worker thread is handed its parent's). */
export function useCompiledModule(flavour: CoreFlavour, m: WebAssembly.Module): void {
  moduleCache.set(flavour, m);
}

export function coreModule(flavour: CoreFlavour = 'release'): WebAssembly.Module {
  let m = moduleCache.get(flavour);
  if (!m) {
    m = new WebAssembly.Module(readFileSync(wasmPath(flavour)));
    moduleCache.set(flavour, m);
  }
  return m;
}

/** One instance of the core with its own memory, plus zero-copy views over it. */
export class Core {
  readonly exports: CoreExports;
  private buffer: ArrayBuffer;
  private i32view: Int32Array;
  private u8view: Uint8Array;
  private i64view: BigInt64Array;
  readonly initialBytes: number;
  private readonly constants = new Map<string, number>();
  private readonly shared: boolean;
  /** The memory will not grow again (fixSize): a shared memory's views are kept without asking. */
  private fixed = false;

  /**
   * A new instance. The shared flavour takes the memory of another instance (`memory`), or makes a
   * new shared one (64 KiB pages: 256 to start, up to 4 GiB).
   */
  constructor(flavour: CoreFlavour = 'release', memory?: WebAssembly.Memory) {
    const shared: Record<string, WebAssembly.Memory> = flavour === 'shared' ? { memory: memory ?? new WebAssembly.Memory({ initial: 256, maximum: 65536, shared: true }) } : {};
    const instance = new WebAssembly.Instance(coreModule(flavour), {
      env: {
        ...shared,
        abort(msg: number, file: number, line: number, col: number): never {
          throw new Error(`core aborted at ${line}:${col} (message ptr ${msg}, file ptr ${file})`);
        },
      },
    });
    this.exports = instance.exports as unknown as CoreExports;
    this.shared = flavour === 'shared';
    this.buffer = this.exports.memory.buffer;
    this.i32view = new Int32Array(this.buffer);
    this.u8view = new Uint8Array(this.buffer);
    this.i64view = new BigInt64Array(this.buffer);
    this.initialBytes = this.buffer.byteLength;
  }

  private refresh(): void {
    // Growing an unshared memory detaches its old buffer (byteLength 0), a plain load; asking the
    // memory for its buffer is a call into the runtime, which the kernels' writers paid per field.
    // A shared memory's old buffer stays attached, so that flavour asks every time.
    if (this.fixed || (this.buffer.byteLength !== 0 && !this.shared)) return;
    if (this.exports.memory.buffer !== this.buffer) {
      this.buffer = this.exports.memory.buffer;
      this.i32view = new Int32Array(this.buffer);
      this.u8view = new Uint8Array(this.buffer);
      this.i64view = new BigInt64Array(this.buffer);
    }
  }

  /**
   * Says the memory has its final size (the simulator's arena is reserved once and a run never
   * grows it): from here a shared memory's views are kept, instead of asking the memory for its
   * buffer, a call into the runtime, at each access (0.1 s of a k = 16 fat tree's set-up).
   */
  fixSize(): void {
    this.refresh();
    this.fixed = true;
  }

  /** Whole-memory views (index = byte address / element size). */
  get i32(): Int32Array { this.refresh(); return this.i32view; }
  get u8(): Uint8Array { this.refresh(); return this.u8view; }
  get i64(): BigInt64Array { this.refresh(); return this.i64view; }

  /** Current size of linear memory in bytes. */
  get memoryBytes(): number { return this.exports.memory.buffer.byteLength; }

  /**
   * Value of an exported layout constant (an immutable Wasm global), remembered: reading a global
   * through the exports object each time cost about a quarter of a k = 8 fat tree's set-up. The
   * kernels' parameter writers resolve their records' offsets once per core (kernels/fields.ts),
   * since even a remembered lookup per field of every record was most of their time.
   */
  constant(name: string): number {
    let v = this.constants.get(name);
    if (v === undefined) {
      const g = this.exports[name];
      if (!(g instanceof WebAssembly.Global)) throw new Error(`core has no exported constant ${name}`);
      v = Number(g.value);
      this.constants.set(name, v);
    }
    return v;
  }

  /** An exported function, typed by the caller. */
  fn<F extends (...args: never[]) => unknown>(name: string): F {
    const f = this.exports[name];
    if (typeof f !== 'function') throw new Error(`core has no exported function ${name}`);
    return f as F;
  }

  /** Reads / writes 64-bit fields at a byte address. */
  getI64(addr: number): bigint { return this.i64[addr >>> 3]; }
  setI64(addr: number, v: bigint): void { this.i64[addr >>> 3] = v; }
  getI32(addr: number): number { return this.i32[addr >>> 2]; }
  setI32(addr: number, v: number): void { this.i32[addr >>> 2] = v; }
}
