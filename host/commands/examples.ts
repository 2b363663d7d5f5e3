// `dcbkit examples [--json]`: the examples shipped in examples/, one line each: the name, what it
// shows and the command that runs it. Both come from the example's own README.md (its title, and
// the first `dcbkit ...` command it gives), so the list cannot drift from the examples themselves;
// an example whose README gives no command is run the obvious way (`run` a scenario, `validate` a
// config).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { CommandModule } from 'yargs';
import { packageRoot } from '../core/loader.js';

export interface ExampleEntry {
  /** the folder name under examples/ */
  name: string;
  /** what it shows: the title of its README */
  title: string;
  /** a command that runs it, from the package directory */
  command: string;
}

/** The first dcbkit command of a README: an indented code line (with `\` continuations) or one in backticks. */
function firstCommand(readme: string): string | undefined {
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^ {4}(?:npx )?(dcbkit \S.*)$/.exec(lines[i]);
    if (!m) continue;
    let cmd = m[1];
    while (cmd.endsWith('\\') && i + 1 < lines.length) cmd = `${cmd.slice(0, -1).trimEnd()} ${lines[++i].trim()}`;
    return cmd.replace(/\s+#.*$/, '');
  }
  return /`(?:npx )?(dcbkit [a-z]+ examples\/[^`]*)`/.exec(readme)?.[1];
}

/** The command for an example whose README gives none: simulate its scenario or check its first file. */
function defaultCommand(dir: string, rel: string): string {
  const files = readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
  if (files.includes('scenario.yaml')) return `dcbkit run ${rel}/scenario.yaml`;
  return files.length ? `dcbkit validate ${rel}/${files[0]}` : `ls ${rel}`;
}

/** Every example folder under `root`/examples, sorted by name. */
export function listExamples(root = packageRoot()): ExampleEntry[] {
  const base = join(root, 'examples');
  return readdirSync(base)
    .filter((name) => statSync(join(base, name)).isDirectory())
    .sort()
    .map((name) => {
      const dir = join(base, name);
      const rel = `examples/${name}`;
      let readme = '';
      try {
        readme = readFileSync(join(dir, 'README.md'), 'utf8');
      } catch {
        /* no README: the name and the default command still say what it is */
      }
      const title = /^# (.+)$/m.exec(readme)?.[1].trim() ?? name;
      return { name, title, command: `npx ${firstCommand(readme) ?? defaultCommand(dir, rel)}` };
    });
}

/** Where the examples are, as a user in the current directory would type it ('' in the package itself). */
function examplesLocation(root: string): string {
  const rel = relative(process.cwd(), root);
  return rel === '' ? '' : isAbsolute(rel) || rel.startsWith('..') ? root : rel;
}

export const examplesCommand: CommandModule<object, { json?: boolean }> = {
  command: 'examples',
  describe: 'list the shipped examples: name, what each shows, the command that runs it',
  builder: (y) => y.option('json', { type: 'boolean', describe: 'print {"examples": [{name, title, command}]} as one JSON document' }) as never,
  handler: (args) => {
    const root = packageRoot();
    const list = listExamples(root);
    if (args.json) {
      process.stdout.write(JSON.stringify({ examples: list }) + '\n');
      return;
    }
    const nameWidth = list.reduce((w, e) => Math.max(w, e.name.length), 0);
    const titleWidth = list.reduce((w, e) => Math.max(w, e.title.length), 0);
    const where = examplesLocation(root);
    const head = where ? `# run the commands in ${where}\n` : '';
    process.stdout.write(head + list.map((e) => `${e.name.padEnd(nameWidth)}  ${e.title.padEnd(titleWidth)}  $ ${e.command}\n`).join(''));
  },
};
