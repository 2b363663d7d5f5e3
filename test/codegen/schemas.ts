// Locates the third-party schema folder (../shared/schemas relative to the repository root; a git
// worktree one level deeper finds it at ../../shared/schemas). DCBKIT_SCHEMAS overrides.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packageRoot } from '../../host/loader.js';

export function schemasDir(): string {
  const candidates = [process.env.DCBKIT_SCHEMAS, join(packageRoot(), '..', 'shared', 'schemas'), join(packageRoot(), '..', '..', 'shared', 'schemas')];
  for (const c of candidates) if (c && existsSync(join(c, 'README.md'))) return resolve(c);
  throw new Error('cannot find ../shared/schemas (set DCBKIT_SCHEMAS to its path)');
}
