// Turns zod validation issues into `path: rule` problems (docs/design.md §5 error format):
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
      // parseOrThrow words it (allowed keys, document kind); zod's own words name nothing
      return issue.keys.map((k) => ({ path: at(k), rule: issue.message.startsWith(UNKNOWN_KEY) ? issue.message : `${UNKNOWN_KEY} (check its spelling in the documentation of this document kind)` }));
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

/** Edit distance (insertions, deletions, substitutions) between two short keys. */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

const UNKNOWN_KEY = 'unknown key';
const ALLOWED_HERE = 'allowed keys here: ';
const parentOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('.')));
const keyOf = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/**
 * A misspelt key is reported once, as the unknown key with the key it stands for (`duraton: unknown
 * key; did you mean duration?`), not also as that key missing: a required key of the same mapping
 * within two edits of an unknown one is taken to be what was meant.
 */
function pairMisspellings(problems: Problem[]): Problem[] {
  const missing = problems.filter((p) => p.rule.startsWith('required'));
  const meant = new Map<Problem, Problem>();
  for (const p of problems) {
    if (!p.rule.startsWith(UNKNOWN_KEY)) continue;
    const typed = keyOf(p.path);
    const m = missing.find((q) => !meant.has(q) && parentOf(q.path) === parentOf(p.path) && editDistance(keyOf(q.path), typed) <= 2);
    if (m) meant.set(m, p);
  }
  if (!meant.size) return problems;
  const hint = new Map([...meant].map(([m, u]) => [u, keyOf(m.path)]));
  return problems
    .filter((p) => !meant.has(p))
    .map((p) => (hint.has(p) ? { path: p.path, rule: withHint(p.rule, hint.get(p)!) } : p));
}

/** `unknown key in a K; allowed keys here: ...` -> `unknown key in a K; did you mean X? (allowed keys here: ...)`. */
function withHint(rule: string, meant: string): string {
  const [head, allowed] = rule.slice(UNKNOWN_KEY.length).split(`; ${ALLOWED_HERE}`);
  if (allowed !== undefined) return `${UNKNOWN_KEY}${head}; did you mean ${meant}? (${ALLOWED_HERE}${allowed})`;
  return `${UNKNOWN_KEY}; did you mean ${meant}?${head}`;
}

export function zodProblems(error: z.ZodError, prefix = ''): Problem[] {
  const problems: Problem[] = [];
  const issues: z.core.$ZodIssue[] = [];
  for (const issue of error.issues) {
    const p = formatPath(issue.path as PropertyKey[]);
    for (const problem of problemsOf(issue, prefix ? (p ? `${prefix}.${p}` : prefix) : p)) {
      // a problem with the document as a whole (a list where a mapping belongs) still names a place
      problems.push(problem.path ? problem : { path: 'document', rule: problem.rule });
      issues.push(issue);
    }
  }
  return pairMisspellings(merged(problems, issues));
}

/** Document kinds by root schema ("scenario", "device"), for messages that name what was read. */
const kindNames = new WeakMap<object, string>();

/** Names the document kind `schema` parses, so its unknown keys say what they are not keys of. */
export function nameDocumentKind(schema: object, name: string): void {
  kindNames.set(schema, name);
}

/**
 * zod's unknown-key issue carries the object schema it failed (`inst`): the rule lists the keys that
 * mapping allows and names the document kind, as the config's unknown keys do.
 */
function unknownKeyMessage(kind: string | undefined) {
  return (iss: { code?: string; inst?: unknown }): string | undefined => {
    if (iss.code !== 'unrecognized_keys') return undefined;
    const shape = (iss.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
    const where = kind ? ` in a ${kind}` : '';
    return shape ? `${UNKNOWN_KEY}${where}; ${ALLOWED_HERE}${Object.keys(shape).join(', ')}` : `${UNKNOWN_KEY}${where}`;
  };
}

/**
 * Parses `value` with `schema`, throwing one InputError listing every problem. `kind` names the
 * document in unknown-key messages (default: the name given with nameDocumentKind, if any).
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, prefix = '', kind = kindNames.get(schema)): z.output<S> {
  // jitless: as parseConfig (host/config/schema.ts), a document is parsed once per process.
  const r = schema.safeParse(value, { error: unknownKeyMessage(kind), jitless: true });
  if (!r.success) throw new InputError(zodProblems(r.error, prefix));
  return r.data;
}
