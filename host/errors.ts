// Typed errors shared by every command. The CLI maps InputError to exit status 2 and prints one
// `path: rule` line per problem on stderr (DESIGN.md §5); anything else is a bug (exit 1).

export interface Problem {
  /** Where the problem is, in the input's own key names: `ets.bw`, `events[12].qf`, `port.speed`. */
  path: string;
  /** The rule that was broken, in words a user can act on. */
  rule: string;
}

/** Bad input: a config, a stimulus, a scenario or frame bytes that break a stated rule. */
export class InputError extends Error {
  readonly problems: Problem[];
  constructor(problems: Problem[] | Problem) {
    const list = Array.isArray(problems) ? problems : [problems];
    super(list.map(formatProblem).join('\n'));
    this.name = 'InputError';
    this.problems = list;
  }
}

export function formatProblem(p: Problem): string {
  return p.path ? `${p.path}: ${p.rule}` : p.rule;
}
