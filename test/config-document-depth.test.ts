// The document depth limit (host/config/load.ts checkDepth): a document of MAX_DOCUMENT_DEPTH
// nested collections is read, one more is refused, whichever collections nest and wherever the deep
// branch sits among its siblings, in JSON and in YAML.
import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_DEPTH, parseDocumentText } from '../host/config/load.js';
import { InputError } from '../host/errors/errors.js';

/** `levels` nested collections, alternating arrays and objects, the deep branch after or before shallower siblings. */
function nested(levels: number, deepFirst: boolean): unknown {
  let v: unknown = 7;
  for (let i = levels - 1; i >= 0; i--) {
    // Collections beside the deep branch, but none at its last level: the depth is `levels` exactly.
    const innermost = i === levels - 1;
    const siblings = innermost ? [1, 'x', null] : [1, 'x', null, [], { e: 3 }];
    const fields = innermost ? { a: 1 } : { a: 1, b: [2], c: {} };
    if (i % 2 === 0) v = deepFirst ? [v, ...siblings] : [...siblings, v];
    else v = deepFirst ? { deep: v, ...fields } : { ...fields, deep: v };
  }
  return v;
}

const refusal = (text: string, format: 'json' | 'yaml') => {
  try {
    parseDocumentText(text, 'doc', format);
  } catch (e) {
    if (e instanceof InputError) return e.problems.map((p) => `${p.path}: ${p.rule}`).join('\n');
    throw e;
  }
  return undefined;
};

describe('document depth', () => {
  for (const deepFirst of [false, true]) {
    for (const format of ['json', 'yaml'] as const) {
      it(`${MAX_DOCUMENT_DEPTH} levels are read and ${MAX_DOCUMENT_DEPTH + 1} refused (${format}, deep branch ${deepFirst ? 'first' : 'last'})`, () => {
        // JSON is YAML flow syntax; the object form keeps the YAML reader off JSON's path.
        const text = (levels: number) => (format === 'json' ? JSON.stringify(nested(levels, deepFirst)) : `doc: ${JSON.stringify(nested(levels - 1, deepFirst))}\n`);
        expect(refusal(text(MAX_DOCUMENT_DEPTH), format)).toBeUndefined();
        expect(parseDocumentText(text(MAX_DOCUMENT_DEPTH), 'doc', format)).toEqual(format === 'json' ? nested(MAX_DOCUMENT_DEPTH, deepFirst) : { doc: nested(MAX_DOCUMENT_DEPTH - 1, deepFirst) });
        expect(refusal(text(MAX_DOCUMENT_DEPTH + 1), format)).toBe(`doc: nested more than ${MAX_DOCUMENT_DEPTH} levels deep`);
      });
    }
  }
});
