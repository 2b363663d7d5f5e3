// Test helper: iproute2's tc as a syntax oracle for generated lines, run in a throwaway network
// namespace so nothing touches the host's interfaces.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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


/** Creates network namespace `ns`, or throws one line saying why (the tests need CAP_NET_ADMIN). */
export function addNetns(ns: string): void {
  const r = spawnSync('ip', ['netns', 'add', ns], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip netns add ${ns} is not permitted here (${r.stderr.trim()}): this test needs CAP_NET_ADMIN`);
}

/** Writes `text` to a file named `name` in a fresh temporary folder, runs `use` on it, removes the folder. */
export function withTempFile<T>(name: string, text: string, use: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-tc-'));
  try {
    const file = join(dir, name);
    writeFileSync(file, text);
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
