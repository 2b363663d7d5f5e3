// Records every kernel call a vectors run makes on the Wasm core, so that the C reference model
// (cmodel/) can replay the same calls (test/c/cmodel_replay.c) and be compared call by call: the
// return value and an FNV-1a hash of the scratch region (every record field the run touches) after
// each call. Host writes between calls (config fields, ETS head sizes, PFC time fields) are found by
// diffing the region against its state after the previous call, and recorded as u32 stores.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Core, packageRoot } from '../host/core/loader.js';

/** Argument kinds per export: p = pointer into the scratch region, n = number or bigint. */
const SIGNATURES: Record<string, string> = {
  etsConfigure: 'pn', etsSelectOne: 'pnnp', etsEmptiedOne: 'pn',
  pfcConfigure: 'p', pfcArriveOne: 'pnnn', pfcDepartOne: 'pnn', pfcTakePendingOne: 'p', pfcNextRefresh: 'p',
  pfcRefreshDue: 'pn', pfcReceivePfc: 'pnpn', pfcReceivePause: 'pnn', pfcBlockedMaskOne: 'pn', pfcPausedPs: 'pnn',
  creditConfigure: 'p', creditTrySendOne: 'pnn', creditOnGrant: 'pnn', creditSyncValue: 'p', creditAgeOne: 'pn',
  creditAvailable: 'pn', creditReceiveOne: 'pn', creditDrainOne: 'pn', creditGrantValue: 'p', creditOnSync: 'pn',
  qcnCpConfigure: 'pnn', qcnCpEnqueueOne: 'pn', qcnCpDequeueOne: 'pn',
  dcqcnCpConfigure: 'pnn', dcqcnCpEnqueueOne: 'pn', dcqcnCpDequeueOne: 'pn',
  qcnRpConfigure: 'pnn', qcnRpFireDueOne: 'pn', qcnRpOnCnmOne: 'pnn', qcnRpOnFrameSentOne: 'pnnn',
  dcqcnRpOnCnpOne: 'pn', dcqcnNpConfigure: 'p', dcqcnNpOnCeOne: 'pn',
};

function fnv(words: Uint32Array): number {
  let h = 2166136261;
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 16777619) >>> 0;
  return h;
}

/** A release core whose kernel calls are recorded with their results. */
export class TracingCore extends Core {
  readonly trace: string[];
  readonly results: string[] = [];
  private readonly base: number;
  private readonly shadow: Uint32Array;

  /** `regionBytes`: the part of the scratch region the run uses (records and host arrays). */
  constructor(readonly regionBytes: number) {
    super('release');
    if (regionBytes % 4 !== 0) throw new Error('region must be whole u32 words');
    this.base = this.constant('SCRATCH');
    this.shadow = new Uint32Array(regionBytes / 4);
    this.trace = [`r ${regionBytes}`];
  }

  private view?: Uint32Array;

  /** The region's words (a view re-made only when memory.buffer changes). */
  private region(): Uint32Array {
    const buffer = this.u8.buffer;
    if (this.view?.buffer !== buffer) this.view = new Uint32Array(buffer, this.base, this.regionBytes / 4);
    return this.view!;
  }

  override fn<F extends (...args: never[]) => unknown>(name: string): F {
    const f = super.fn<(...args: unknown[]) => unknown>(name);
    const sig = SIGNATURES[name];
    if (!sig) throw new Error(`the trace does not know the arguments of ${name}`);
    const traced = (...args: unknown[]) => {
      const now = this.region();
      for (let i = 0; i < now.length; i++) {
        if (now[i] !== this.shadow[i]) {
          this.trace.push(`w ${4 * i} ${now[i]}`);
          this.shadow[i] = now[i];
        }
      }
      let line = `c ${name}`;
      for (let k = 0; k < args.length; k++) {
        if (sig[k] !== 'p') {
          line += ` ${args[k]}`;
          continue;
        }
        const off = (args[k] as number) - this.base;
        if (off < 0 || off >= this.regionBytes) throw new Error(`${name}: pointer outside the traced region`);
        line += ` ${off}`;
      }
      this.trace.push(line);
      const r = f(...args);
      const after = this.region();
      this.shadow.set(after);
      this.results.push(`${r === undefined ? 0 : typeof r === 'boolean' ? Number(r) : String(r)} ${fnv(after)}`);
      return r;
    };
    return traced as unknown as F;
  }
}

/** cmodel/ + the replay driver, built once with gcc (-std=c99 -pedantic -Werror). */
export function buildReplay(): { exe: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-cmodel-'));
  const exe = join(dir, 'replay');
  const root = packageRoot();
  const sources = ['ets', 'pfc', 'credit', 'qcn_cp', 'qcn_rp', 'rng'].map((f) => join(root, 'cmodel', `${f}.c`));
  const r = spawnSync('gcc', ['-std=c99', '-O2', '-Wall', '-Wextra', '-pedantic', '-Werror', '-I', join(root, 'build'), '-I', join(root, 'cmodel'),
    '-o', exe, join(root, 'test', 'c', 'cmodel_replay.c'), ...sources], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`gcc failed on the C model:\n${r.stderr}`);
  }
  return { exe, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The C model's "RET HASH" line per call of the trace. */
export function replay(exe: string, trace: string[]): string[] {
  const r = spawnSync(exe, [], { input: trace.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`replay failed (${r.status}): ${r.stderr}`);
  return r.stdout.split('\n').filter((l) => l.length > 0);
}
