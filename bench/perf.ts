// Instructions per packet by differencing a run of N packets against a run of 0 packets of the
// same program (start-up, compilation and warm-up cancel out): `perf stat -e instructions:u`, or,
// when perf has no hardware counters (typical in VMs), valgrind's cachegrind instruction count
// (exact, simulated). For the Wasm build cachegrind counts only the code it finds no symbol for,
// which is the code V8 generated (the Wasm functions and the driver's JavaScript): node's own
// start-up varies by millions of instructions from run to run and would swamp the difference.
// A figure that cannot be measured is null with the reason.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type PerfResult =
  | { instructions_per_packet: number; source: string }
  | { instructions_per_packet: null; reason: string };

function perfCount(cmd: string, args: string[]): number | string {
  const r = spawnSync('perf', ['stat', '-x', ',', '-e', 'instructions:u', '--', cmd, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) return `perf cannot run: ${r.error.message}`;
  const line = r.stderr.split('\n').find((l) => l.includes('instructions'));
  if (!line) return `perf printed no instructions:u line (exit ${r.status}): ${r.stderr.trim().split('\n').pop() ?? ''}`;
  const value = line.split(',')[0];
  if (!/^\d+$/.test(value)) return `perf: instructions:u ${value} (no hardware counters in this machine)`;
  if (r.status !== 0) return `the measured program failed (exit ${r.status})`;
  return Number(value);
}

function valgrindCount(cmd: string, args: string[]): number | string {
  const r = spawnSync('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', cmd, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) return `valgrind cannot run: ${r.error.message}`;
  const m = /I\s+refs:\s+([\d,]+)/.exec(r.stderr);
  if (!m || r.status !== 0) return `valgrind gave no instruction count (exit ${r.status})`;
  return Number(m[1].replace(/,/g, ''));
}

/** Instructions cachegrind attributes to no file and no function (fl=??? fn=???): V8's generated code. */
function valgrindGeneratedCodeCount(cmd: string, args: string[]): number | string {
  const r = generatedCodeInstructions(cmd, args);
  return typeof r === 'string' ? r : r.count;
}

/** As valgrindGeneratedCodeCount, with the program's stdout parsed as JSON (engine drivers report their counters). */
export function generatedCodeInstructions(cmd: string, args: string[]): { count: number; stdout: any } | string {
  const r = generatedCodeEvents(cmd, args, false);
  return typeof r === 'string' ? r : { count: r.events.Ir, stdout: r.stdout };
}

/**
 * cachegrind's events for V8's generated code (see valgrindGeneratedCodeCount): Ir (instructions)
 * alone, or with `simulate` also its cache and branch models (D1mr/D1mw first-level data misses,
 * DLmr/DLmw last-level, Bcm/Bim mispredicted conditional/indirect branches). The models are
 * cachegrind's (a 2-level cache of the host's geometry, a simple predictor), not this CPU's: they
 * compare two builds deterministically, whatever else the machine runs.
 */
export function generatedCodeEvents(cmd: string, args: string[], simulate: boolean): { events: Record<string, number>; stdout: any } | string {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-cg-'));
  try {
    const out = join(dir, 'cachegrind.out');
    const sims = simulate ? ['--cache-sim=yes', '--branch-sim=yes'] : ['--cache-sim=no'];
    const r = spawnSync('valgrind', ['--tool=cachegrind', ...sims, `--cachegrind-out-file=${out}`, cmd, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.error) return `valgrind cannot run: ${r.error.message}`;
    if (r.status !== 0) return `valgrind gave no instruction count (exit ${r.status})`;
    let file = '';
    let fn = '';
    let names: string[] = [];
    const sum: number[] = [];
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      if (line.startsWith('events:')) names = line.slice(7).trim().split(/\s+/);
      else if (line.startsWith('fl=')) file = line.slice(3);
      else if (line.startsWith('fn=')) fn = line.slice(3);
      else if (file === '???' && fn === '???' && /^\d/.test(line)) {
        const cols = line.split(' ');
        for (let i = 1; i < cols.length; i++) sum[i - 1] = (sum[i - 1] ?? 0) + Number(cols[i]);
      }
    }
    if (!(sum[0] > 0)) return 'cachegrind found no generated code';
    const events: Record<string, number> = {};
    names.forEach((n, i) => { events[n] = sum[i] ?? 0; });
    let stdout: unknown = r.stdout;
    try { stdout = JSON.parse(r.stdout); } catch { /* not JSON: kept as text */ }
    return { events, stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function differenced(count: (cmd: string, args: string[]) => number | string, cmd: string, args: string[], n: number, source: string): PerfResult {
  const base = count(cmd, [...args, '0']);
  if (typeof base === 'string') return { instructions_per_packet: null, reason: base };
  const full = count(cmd, [...args, String(n)]);
  if (typeof full === 'string') return { instructions_per_packet: null, reason: full };
  return { instructions_per_packet: Number(((full - base) / n).toFixed(1)), source };
}

/** (I(N) - I(0)) / N for `cmd ...args N` with perf; the program must do the same work apart from the N packets. */
export function instructionsPerPacket(cmd: string, args: string[], n: number): PerfResult {
  return differenced(perfCount, cmd, args, n, 'perf stat instructions:u');
}

/**
 * Instructions per packet of the Wasm pipeline (`node driver port N`): perf, or without counters
 * cachegrind over V8's generated code with TurboFan only (--no-liftoff: what the timed samples run
 * after warm-up, compiled at once so that both runs compile the same) and no background threads.
 */
export function wasmInstructionsPerPacket(driver: string, n: number, valgrindN: number): PerfResult {
  const p = instructionsPerPacket(process.execPath, [driver, 'port'], n);
  if (p.instructions_per_packet !== null) return p;
  const v = differenced(valgrindGeneratedCodeCount, process.execPath, ['--no-liftoff', '--single-threaded', driver, 'port'], valgrindN,
    'valgrind cachegrind, V8-generated code only (perf has no counters here)');
  return v.instructions_per_packet !== null ? v : { instructions_per_packet: null, reason: `${p.reason}; ${v.reason}` };
}

/** As instructionsPerPacket, falling back to valgrind (cachegrind) when perf cannot count. */
export function nativeInstructionsPerPacket(cmd: string, args: string[], n: number): PerfResult {
  const p = instructionsPerPacket(cmd, args, n);
  if (p.instructions_per_packet !== null) return p;
  const v = differenced(valgrindCount, cmd, args, n, 'valgrind cachegrind (perf has no counters here)');
  return v.instructions_per_packet !== null ? v : { instructions_per_packet: null, reason: `${p.reason}; ${v.reason}` };
}
