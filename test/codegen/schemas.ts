// The third-party schema folder for the suites that validate generated artefacts against it
// (lookup order in schemas-lookup.ts). Resolved when a suite imports this module: without the
// schemas, each such suite fails to load with one line saying how to get them, not a stack trace.
import { packageRoot } from '../../host/core/loader.js';
import { findSchemas } from './schemas-lookup.js';

const found = findSchemas(packageRoot(), process.env.DCBKIT_SCHEMAS);
if ('missing' in found) {
  const e = new Error(found.missing);
  e.stack = `Error: ${found.missing}`; // one line: where it was thrown says nothing the message does not
  throw e;
}
const SCHEMAS_DIR = found.dir;

export function schemasDir(): string {
  return SCHEMAS_DIR;
}
