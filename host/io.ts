// Output files are never half-written: everything goes to a temporary sibling first and is renamed
// into place only once complete (rename is atomic within one file system).
import { mkdirSync, renameSync, rmSync, writeFileSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Writes `data` to `path` atomically (temporary file in the same directory, then rename). */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(resolve(path));
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Writes a set of files (relative path -> contents) under `outDir` so that either all of them
 * appear or none does: they are staged in a temporary directory beside `outDir` and each is
 * renamed into place only after every file has been staged.
 */
export function writeTreeAtomic(outDir: string, files: Map<string, string | Uint8Array>): void {
  const root = resolve(outDir);
  mkdirSync(dirname(root), { recursive: true });
  const stage = mkdtempSync(join(dirname(root), '.dcbkit-stage-'));
  try {
    for (const [rel, data] of files) {
      const p = join(stage, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, data);
    }
    mkdirSync(root, { recursive: true });
    for (const rel of files.keys()) {
      const dest = join(root, rel);
      mkdirSync(dirname(dest), { recursive: true });
      renameSync(join(stage, rel), dest);
    }
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Lists files under `dir` recursively, relative paths, sorted (for manifests and tests). */
export function listFilesRecursive(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(p).isDirectory()) out.push(...listFilesRecursive(p, rel));
    else out.push(rel);
  }
  return out;
}
