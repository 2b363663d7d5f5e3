// The document kinds `dcbkit validate` dispatches to, tried in order: the first whose detector accepts
// the top-level keys wins, and the DCB config (last) is the fallback. Add a kind by importing it and
// listing it before configKind.
import { configKind, type DocumentKind } from './documents.js';

export const documentKinds: DocumentKind[] = [
  configKind,
];

/** The kind of a parsed document: the one named, else the first whose detector matches, else config. */
export function kindOf(doc: unknown, name?: string): DocumentKind | undefined {
  if (name !== undefined) return documentKinds.find((k) => k.name === name);
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
    const found = documentKinds.find((k) => k.detect(doc as Record<string, unknown>));
    if (found) return found;
  }
  return configKind;
}
