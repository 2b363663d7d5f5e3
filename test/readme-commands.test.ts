// After `npm ci` the dcbkit binary is not on PATH, so every example command in README.md, docs/*.md
// and examples/*/README.md is written `npx dcbkit ...`, and the README says so (and how to get
// the test schemas).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';

const root = packageRoot();
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...readdirSync(join(root, 'examples'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `examples/${d.name}/README.md`)
    .filter((p) => existsSync(join(root, p))),
];

/** Code lines (indented by 4 or more, or inside ``` fences) of a Markdown page. */
function codeLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (line.trimStart().startsWith('```')) {
      fenced = !fenced;
      return false;
    }
    return fenced || line.startsWith('    ');
  });
}

// dcbkit as a command: at the start of a code line (after an optional `$ ` prompt) or after a
// pipe, `&&` or `$(`; the first run of words on a line is the command, not prose
const bareCommand = /(^\s*(\$ )?|\|\s*|&&\s*|\$\(\s*)dcbkit( |$)/;

describe('example commands in the docs', () => {
  it('the pages exist and hold dcbkit commands', () => {
    expect(pages.length).toBeGreaterThan(20);
    const withCommands = pages.filter((p) => codeLines(readFileSync(join(root, p), 'utf8')).some((l) => l.includes('npx dcbkit ')));
    expect(withCommands.length).toBeGreaterThan(15);
  });

  it.each(pages)('%s runs dcbkit as npx dcbkit', (page) => {
    // shell completion completes the word `dcbkit`, so its line is the one written for a dcbkit on PATH
    const bare = codeLines(readFileSync(join(root, page), 'utf8')).filter((l) => bareCommand.test(l) && !/^\s*dcbkit completion /.test(l));
    expect(bare).toEqual([]);
  });

  it('the README says how to run dcbkit after npm ci and how the tests get their schemas', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain('It does not put `dcbkit` on your PATH: run it as `npx dcbkit` in the package directory');
    expect(readme).toContain('## Putting dcbkit on PATH');
    const raw = readFileSync(join(root, 'README.md'), 'utf8');
    expect(raw).toMatch(/^ {4}npm link /m);
    expect(raw).toMatch(/^ {4}npm install -g \. /m);
    expect(readme).toMatch(/`\$DCBKIT_SCHEMAS`, a `shared\/schemas` folder beside the project, or `.cache\/schemas`, which `npm test` fills by running `scripts\/fetch-schemas.sh`/);
  });
});
