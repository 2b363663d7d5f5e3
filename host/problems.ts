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

export function zodProblems(error: z.ZodError, prefix = ''): Problem[] {
  return error.issues.map((issue) => {
    const p = formatPath(issue.path as PropertyKey[]);
    return { path: prefix ? (p ? `${prefix}.${p}` : prefix) : p, rule: issue.message };
  });
}

/** Parses `value` with `schema`, throwing one InputError listing every problem. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new InputError(zodProblems(r.error, prefix));
  return r.data;
}
