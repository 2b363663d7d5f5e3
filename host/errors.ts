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
    const list = Array.isArray(problems) ? problems : [problems];
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
