// Test helper: iproute2's tc as a syntax oracle for generated lines, run in a throwaway network
// namespace so nothing touches the host's interfaces.
import { spawnSync } from 'node:child_process';

export function tcLine(ns: string, line: string) {
  return spawnSync('tc', ['-n', ns, ...line.split(' ')], { encoding: 'utf8' });
}

export const KERNEL_LACKS_ETS = 'Error: Specified qdisc kind is unknown.';

/**
 * tc's parser accepted the line: exit 0 (a kernel with sch_ets installed it, in the throwaway
 * namespace) or exit 2 with the kernel's "kind is unknown" (no sch_ets, as on the build machine).
 * A syntax error is exit 1 with tc's own message.
 */
export function tcAccepts(ns: string, line: string): boolean {
  const r = tcLine(ns, line);
  return (r.status === 0 && r.stderr === '') || (r.status === 2 && r.stderr.trim() === KERNEL_LACKS_ETS);
}

