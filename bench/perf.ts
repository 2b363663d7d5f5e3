// Instructions per packet by differencing a run of N packets against a run of 0 packets of the
// same program (start-up, compilation and warm-up cancel out): `perf stat -e instructions:u`, or
// for the C reference, when perf has no hardware counters (typical in VMs), valgrind's cachegrind
// instruction count (exact, simulated; node itself is too slow under valgrind to use it there).
// A figure that cannot be measured is null with the reason.
import { spawnSync } from 'node:child_process';

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

/** As instructionsPerPacket, falling back to valgrind (cachegrind) when perf cannot count. */
export function nativeInstructionsPerPacket(cmd: string, args: string[], n: number): PerfResult {
  const p = instructionsPerPacket(cmd, args, n);
  if (p.instructions_per_packet !== null) return p;
  const v = differenced(valgrindCount, cmd, args, n, 'valgrind cachegrind (perf has no counters here)');
  return v.instructions_per_packet !== null ? v : { instructions_per_packet: null, reason: `${p.reason}; ${v.reason}` };
}
