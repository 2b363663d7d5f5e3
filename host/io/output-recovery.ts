// What a killed writer (SIGKILL, a power cut, an OOM kill) leaves beside or inside an output
// directory, and how the next write into the same place puts it right (host/io/output.ts calls
// recoverOutputs before it checks or writes a directory).
//
// Every temporary entry a writer makes is named `.dcbkit-<role>-<host>-<pid>-<random>`: <role> is
// stage (the tree being staged), old (the earlier output moved aside) or swap (the journal),
// <host> eight hex digits of a hash of the host name, <pid> the writer's process id. An entry is
// stale when its host is this one and no process has its pid (kill(pid, 0) fails with ESRCH); an
// entry of another host (a directory shared between cluster nodes) or of a live pid is left alone.
//
// Before its first rename a writer writes a journal `.dcbkit-swap-...json` (in the parent for a
// swap, in the directory for an in-place write) naming the directory, the stage, the aside and the
// entries it moves; the renames are then replayed or undone from it:
// - swap: target renamed to the aside, the stage renamed to target, kept entries (`keep`) moved
//   from the aside into the new target, the aside removed. A kill before the second rename leaves
//   no target: recovery renames the aside back (the old tree); after it, the new tree stands and
//   recovery finishes moving the kept entries and removes the aside.
// - in place: the earlier entries moved into the aside inside the directory, then the new ones up
//   from the stage. Recovery undoes it: the new entries removed, the earlier ones moved back.
// A stage with no journal was killed while staging, before any rename: it is removed.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';

let hostTagMemo: string | undefined;
/** This host's part of a temporary name; made on first use (a run that writes nothing never asks, and node:crypto is slow to load). */
export function hostTag(): string {
  return (hostTagMemo ??= createHash('sha256').update(hostname()).digest('hex').slice(0, 8));
}

/** `.dcbkit-<role>-<host>-<pid>-<random>` for this process. */
export function tempName(role: 'stage' | 'old' | 'swap'): string {
  return `.dcbkit-${role}-${hostTag()}-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
}

const TEMP = /^\.dcbkit-(stage|old|swap)-([0-9a-f]{8})-(\d+)-[0-9a-z]+(\.json)?$/;

/** What a journal records (see the file comment). */
export type Journal =
  | { mode: 'swap'; target: string; stage: string; aside: string; keep: string[] }
  | { mode: 'in-place'; dir: string; stage: string; aside: string; earlier: string[]; fresh: string[] };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH'; // EPERM: alive, someone else's
  }
}

/** True for a temporary entry of a dead writer on this host. */
function staleEntry(name: string): RegExpExecArray | undefined {
  const m = TEMP.exec(name);
  return m && m[2] === hostTag() && Number(m[3]) !== process.pid && !alive(Number(m[3])) ? m : undefined;
}

const present = (p: string) => lstatSync(p, { throwIfNoEntry: false }) !== undefined;

/** Replays or undoes the renames of one journal (see the file comment). */
function recover(j: Journal): void {
  if (j.mode === 'swap') {
    if (!present(j.target) && present(j.aside)) renameSync(j.aside, j.target);
    else if (present(j.aside)) {
      for (const name of j.keep) {
        if (present(join(j.aside, name)) && !present(join(j.target, name))) renameSync(join(j.aside, name), join(j.target, name));
      }
      rmSync(j.aside, { recursive: true, force: true });
    }
  } else if (present(j.aside)) {
    const movedEarlier = new Set(readdirSync(j.aside));
    for (const name of j.fresh) {
      // a fresh name in the directory is new unless it is an earlier entry not moved yet
      if (present(join(j.dir, name)) && (!j.earlier.includes(name) || movedEarlier.has(name))) rmSync(join(j.dir, name), { recursive: true, force: true });
    }
    for (const name of movedEarlier) renameSync(join(j.aside, name), join(j.dir, name));
    rmSync(j.aside, { recursive: true, force: true });
  }
  rmSync(j.stage, { recursive: true, force: true });
}

/** Recovery for a write to `target`: its parent (swaps) and, when it is a directory, itself (in place). */
export function recoverOutputs(target: string): void {
  recoverIn(dirname(target));
  recoverIn(target);
}

/**
 * Puts right what dead writers left in `dir`: journals replayed or undone first, then stages and
 * asides without one removed. Best effort: an entry that cannot be handled (permissions) stays.
 */
export function recoverIn(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const stale = names.filter((n) => staleEntry(n));
  let unrecovered = false;
  for (const name of stale.filter((n) => n.startsWith('.dcbkit-swap-'))) {
    const path = join(dir, name);
    try {
      // a journal that does not parse was being written: no rename had happened yet
      const j = JSON.parse(readFileSync(path, 'utf8')) as Journal;
      if (j && (j.mode === 'swap' || j.mode === 'in-place')) recover(j);
      rmSync(path, { force: true });
    } catch {
      unrecovered = true; // left for a later write to try again
    }
  }
  // an aside whose journal could not be replayed may be the only copy of an output: kept
  for (const name of stale.filter((n) => n.startsWith('.dcbkit-stage-') || (n.startsWith('.dcbkit-old-') && !unrecovered))) {
    try {
      if (existsSync(join(dir, name))) rmSync(join(dir, name), { recursive: true, force: true });
    } catch {
      // as above
    }
  }
}
