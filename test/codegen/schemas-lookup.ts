// Where the codegen tests find the third-party schema files (P4Runtime protos, SONiC YANG), which
// stay out of the repository: $DCBKIT_SCHEMAS, else a shared/schemas folder beside the project (or two
// levels up, for a git worktree), else the cache scripts/fetch-schemas.sh fills (.cache/schemas).
// A folder counts when it holds the two files below; DCBKIT_SCHEMAS, when set, must hold them.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Files every schema folder holds (scripts/fetch-schemas.sh checks the same two). */
const MARKERS = [join('p4runtime', 'p4', 'v1', 'p4runtime.proto'), join('sonic-yang', 'sonic-port.yang')];

export const HOW_TO_GET = 'run scripts/fetch-schemas.sh (fills .cache/schemas) or set DCBKIT_SCHEMAS to a folder with p4runtime/ and sonic-yang/';

const holdsSchemas = (dir: string) => MARKERS.every((m) => existsSync(join(dir, m)));

/** The schema folder for project `root`, or a one-line reason why there is none and how to get it. */
export function findSchemas(root: string, env: string | undefined): { dir: string } | { missing: string } {
  if (env) {
    return holdsSchemas(env) ? { dir: resolve(env) } : { missing: `DCBKIT_SCHEMAS=${env} lacks ${MARKERS.join(' or ')}: ${HOW_TO_GET}` };
  }
  const candidates = [join(root, '..', 'shared', 'schemas'), join(root, '..', '..', 'shared', 'schemas'), join(root, '.cache', 'schemas')];
  const found = candidates.find(holdsSchemas);
  return found ? { dir: resolve(found) } : { missing: `third-party schemas not found (looked in ${candidates.map((c) => resolve(c)).join(', ')}): ${HOW_TO_GET}` };
}
