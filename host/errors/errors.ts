// Typed errors shared by every command. The CLI maps InputError to exit status 2 and prints one
// `path: rule` line per problem on stderr (docs/design.md §5); OutputError (the output could not be
// written: disk full, permissions changed mid-run) prints the same way with exit 1; anything else is
// a bug (exit 1, with a stack).

export interface Problem {
  /** Where the problem is, in the input's own key names: `ets.bw`, `events[12].qf`, `port.speed`. */
  path: string;
  /** The rule that was broken, in words a user can act on. */
  rule: string;
}

/** An error made of `path: rule` problems; the CLI prints one line per problem, no stack. */
export abstract class ProblemsError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[] | Problem) {
    const list = (Array.isArray(problems) ? problems : [problems]).map((p) => ({ path: printable(p.path), rule: printable(p.rule) }));
    super(list.map(formatProblem).join('\n'));
    this.problems = list;
  }
}

/** Bad input: a config, a stimulus, a scenario or frame bytes that break a stated rule. */
export class InputError extends ProblemsError {
  override name = 'InputError';
}

/** Output that passed the up-front checks could still not be written (an environment failure). */
export class OutputError extends ProblemsError {
  override name = 'OutputError';
}

/** Longest quoted value a message keeps whole; longer ones keep this many characters and say how many there were. */
const QUOTE_KEEP = 80;
/** Longest message line: a bound however many values one rule quotes. */
const LINE_KEEP = 4000;

/**
 * `text` safe to print and bounded: control characters (C0, DEL, C1: a name holding ESC could
 * recolour or rewrite the terminal) written as \u escapes, every quoted value over QUOTE_KEEP
 * characters cut to its start (a 50 MB value is not echoed whole), and the whole at most LINE_KEEP.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  let s = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (s.length > QUOTE_KEEP) {
    const parts: string[] = [];
    let at = 0;
    for (let open = s.indexOf('"'); open >= 0; open = s.indexOf('"', at)) {
      let close = open + 1;
      while (close < s.length && s[close] !== '"') close += s[close] === '\\' ? 2 : 1;
      if (close >= s.length) break;
      const inner = close - open - 1;
      parts.push(s.slice(at, open + 1), inner > QUOTE_KEEP ? `${s.slice(open + 1, open + 1 + QUOTE_KEEP)}..." (${inner} characters)` : s.slice(open + 1, close + 1));
      at = close + 1;
    }
    parts.push(s.slice(at));
    s = parts.join('');
  }
  return s.length > LINE_KEEP ? `${s.slice(0, LINE_KEEP)}... (${s.length - LINE_KEEP} more characters)` : s;
}

export function formatProblem(p: Problem): string {
  return p.path ? `${p.path}: ${p.rule}` : p.rule;
}

/** What Node's file-system error codes mean, in words (the codes themselves mean nothing to most users). */
const FS_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EEXIST: 'already exists',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EINVAL: 'not a valid path',
};

/** The reason a file operation failed, in words: `no such file or directory` rather than `ENOENT`. */
export function fsReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code && FS_REASONS[code]) return FS_REASONS[code];
  const msg = e instanceof Error ? e.message : String(e);
  // Node's messages read `ECODE: words, syscall 'path'`: keep the words.
  return /^[A-Z]+: ([^,]+)/.exec(msg)?.[1] ?? msg;
}
