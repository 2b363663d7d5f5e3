// Turns zod validation issues into `path: rule` problems (DESIGN.md §5 error format):
// the path uses the input's own key names with array indices in brackets, e.g. `events[12].qf`.
import type { z } from 'zod';
import { InputError, type Problem } from './errors.js';

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out;
}

/** "received undefined" -> "undefined": what zod says the input was, from its message. */
function received(message: string): string | null {
  const m = /received (\w+)\s*$/.exec(message);
  return m ? m[1] : null;
}

const listed = (values: readonly unknown[]): string => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

/**
 * The rule an issue breaks, in the project's words: zod's generic messages name no field and read
 * like a stack trace ("Invalid input: expected array, received undefined"). Messages written in our
 * own schemas (refinements, custom errors) are kept as they are.
 */
function problemsOf(issue: z.core.$ZodIssue, path: string): Problem[] {
  const at = (key: string) => (path ? `${path}.${key}` : key);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((k) => ({ path: at(k), rule: 'unknown key (check its spelling in the documentation of this document kind)' }));
    case 'invalid_type': {
      if (!issue.message.startsWith('Invalid input')) return [{ path, rule: issue.message }];
      const got = received(issue.message);
      if (got === 'undefined') return [{ path, rule: `required (${issue.expected})` }];
      if (got) return [{ path, rule: `must be ${issue.expected}, got ${got}` }];
      return [{ path, rule: issue.message }];
    }
    case 'invalid_value':
      if (!issue.message.startsWith('Invalid option')) return [{ path, rule: issue.message }];
      return [{ path, rule: `must be one of ${listed(issue.values)}` }];
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      if ((issue as { discriminator?: string }).discriminator !== undefined && options && issue.message.startsWith('Invalid discriminator')) {
        return [{ path, rule: `must be one of ${listed(options)}` }];
      }
      return [{ path, rule: issue.message }];
    }
    default:
      return [{ path, rule: issue.message }];
  }
}

export function zodProblems(error: z.ZodError, prefix = ''): Problem[] {
  return error.issues.flatMap((issue) => {
    const p = formatPath(issue.path as PropertyKey[]);
    return problemsOf(issue, prefix ? (p ? `${prefix}.${p}` : prefix) : p);
  });
}

/** Parses `value` with `schema`, throwing one InputError listing every problem. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new InputError(zodProblems(r.error, prefix));
  return r.data;
}
