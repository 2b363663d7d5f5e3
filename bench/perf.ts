// Instructions per packet with `perf stat -e instructions:u`, by differencing a run of N packets
// against a run of 0 packets of the same program (start-up, compilation and warm-up cancel out).
// Where perf is missing or the VM exposes no PMU, the figure is null with the reason.
import { spawnSync } from 'node:child_process';

export type PerfResult = { instructions_per_packet: number } | { instructions_per_packet: null; reason: string };

function instructions(cmd: string, args: string[]): number | string {
  const r = spawnSync('perf', ['stat', '-x', ',', '-e', 'instructions:u', '--', cmd, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) return `perf cannot run: ${r.error.message}`;
  const line = r.stderr.split('\n').find((l) => l.includes('instructions'));
  if (!line) return `perf printed no instructions:u line (exit ${r.status}): ${r.stderr.trim().split('\n').pop() ?? ''}`;
  const value = line.split(',')[0];
  if (!/^\d+$/.test(value)) return `perf: instructions:u ${value} (no hardware counters in this machine)`;
  if (r.status !== 0) return `the measured program failed (exit ${r.status})`;
  return Number(value);
}

/** (I(N) - I(0)) / N for `cmd ...args N`; the program must do the same work apart from the N packets. */
export function instructionsPerPacket(cmd: string, args: string[], n: number): PerfResult {
  const base = instructions(cmd, [...args, '0']);
  if (typeof base === 'string') return { instructions_per_packet: null, reason: base };
  const full = instructions(cmd, [...args, String(n)]);
  if (typeof full === 'string') return { instructions_per_packet: null, reason: full };
  return { instructions_per_packet: Number(((full - base) / n).toFixed(1)) };
}
