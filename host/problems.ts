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
      // A missing value fails every branch as `received undefined`: it is simply required.
      const branches = (issue as { errors?: z.core.$ZodIssue[][] }).errors ?? [];
      const missing = branches.length > 0 && branches.every((b) => b.length === 1 && b[0].code === 'invalid_type' && received(b[0].message) === 'undefined');
      if (missing) return [{ path, rule: `required (${[...new Set(branches.map((b) => (b[0] as { expected: string }).expected))].join(' or ')})` }];
      const options = (issue as { options?: unknown[] }).options;
      if ((issue as { discriminator?: string }).discriminator !== undefined && options && issue.message.startsWith('Invalid discriminator')) {
        return [{ path, rule: `must be one of ${listed(options)}` }];
      }
      return [{ path, rule: issue.message }];
    }
    case 'too_big':
    case 'too_small':
      return [{ path, rule: issue.message.startsWith('Too ') ? boundRule(issue) : issue.message }];
    default:
      return [{ path, rule: issue.message }];
  }
}

/** zod's "Too small: expected number to be >=0" as a rule: `must be at least 0`. */
function boundRule(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  const big = issue.code === 'too_big';
  const bound = Number(big ? issue.maximum : issue.minimum);
  const what = issue.origin === 'array' || issue.origin === 'set' ? ' entries' : issue.origin === 'string' ? ' characters' : '';
  const verb = what ? 'must have' : 'must be';
  const limit = issue.inclusive ? (big ? 'at most' : 'at least') : big ? 'below' : 'above';
  return `${verb} ${limit} ${bound}${what}`;
}

/**
 * One line per problem: exact repeats go (a refinement with one message for every check repeats
 * it), and of several bounds broken at one path only the tightest is said (zod's int() adds the
 * safe-integer bound next to the schema's own maximum).
 */
function merged(problems: Problem[], issues: readonly z.core.$ZodIssue[]): Problem[] {
  const tightest = new Map<string, number>();
  issues.forEach((iss, i) => {
    if (iss.code !== 'too_big' && iss.code !== 'too_small') return;
    const key = `${problems[i].path}\u0000${iss.code}`;
    const bound = Number(iss.code === 'too_big' ? iss.maximum : iss.minimum);
    const best = tightest.get(key);
    if (best === undefined || (iss.code === 'too_big' ? bound < best : bound > best)) tightest.set(key, bound);
  });
  const seen = new Set<string>();
  return problems.filter((p, i) => {
    const iss = issues[i];
    if (iss && (iss.code === 'too_big' || iss.code === 'too_small')) {
      const bound = Number(iss.code === 'too_big' ? iss.maximum : iss.minimum);
      if (tightest.get(`${p.path}\u0000${iss.code}`) !== bound) return false;
    }
    const key = `${p.path}\u0000${p.rule}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function zodProblems(error: z.ZodError, prefix = ''): Problem[] {
  const problems: Problem[] = [];
  const issues: z.core.$ZodIssue[] = [];
  for (const issue of error.issues) {
    const p = formatPath(issue.path as PropertyKey[]);
    for (const problem of problemsOf(issue, prefix ? (p ? `${prefix}.${p}` : prefix) : p)) {
      problems.push(problem);
      issues.push(issue);
    }
  }
  return merged(problems, issues);
}

/** Parses `value` with `schema`, throwing one InputError listing every problem. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw new InputError(zodProblems(r.error, prefix));
  return r.data;
}
