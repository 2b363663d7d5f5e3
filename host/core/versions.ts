// Versions recorded with every benchmark figure and generated artefact.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './loader.js';

function pkgVersion(dir: string): string {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export function toolVersions(): Record<string, string> {
  const root = packageRoot();
  return {
    dcbkit: pkgVersion(root),
    node: process.versions.node,
    v8: process.versions.v8,
    assemblyscript: pkgVersion(join(root, 'node_modules', 'assemblyscript')),
    binaryen: pkgVersion(join(root, 'node_modules', 'binaryen')),
  };
}
