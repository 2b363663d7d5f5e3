// The repository reads on its own: no user-facing file (README, docs/, examples/, the sources' comments
// and messages, the CLI's own output) sends the reader to files that only the team that wrote dcbkit
// has: a design note outside the repository, a folder beside the checkout, research notes, or source
// documents by their internal numbers. Sources are cited by standard and clause, by title and
// authors, or by upstream repository and path (docs/design.md §8).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { runCliAsync } from './helpers.js';

const root = packageRoot();

/** What a reader of the repository alone cannot follow. */
const OUTSIDE_FOLDER = /\.\.\/shared\b|\/work\/shared\b|\bshared\/(reference|seeds)\b/;
const FORBIDDEN: { what: string; re: RegExp }[] = [
  { what: 'the team-internal design note', re: /\bDESIGN(\.md)?\b/ },
  { what: 'a source document by its internal number', re: /\bseeds? ?0{2}[0-9]\b/i },
  { what: 'team research notes', re: /\b(reference|research) notes?\b|\b(pfc-credit-dcbx|qcn-dcqcn|ets-dwrr-codegen|performance-assemblyscript|real-peers)\.md\b/i },
  { what: 'a team folder outside the repository', re: OUTSIDE_FOLDER },
];

/** Code lines may look for a schema copy beside the project (a lookup, not a reference to read). */
const SCHEMA_LOOKUP = /\.\.\/shared\/schemas/;

const TEXT = /\.(md|ya?ml|json|txt|ts|mts|mjs|js|sh|c|h|py)$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (['node_modules', 'dist', 'build', '.cache', '.git', 'out'].includes(name)) return [];
    return statSync(p).isDirectory() ? walk(p) : TEXT.test(name) ? [p] : [];
  });
}

/** A line of code that is a comment (the prose of a source file), as opposed to a code line. */
const isComment = (file: string, line: string) => {
  const s = line.trimStart();
  return /\.(sh|py|ya?ml)$/.test(file) ? s.startsWith('#') : s.startsWith('//') || s.startsWith('*') || s.startsWith('/*') || / \/\/ /.test(line);
};

/** `file:line: text (what)` for every forbidden mention in `text`, also one wrapped over two lines. */
function offences(file: string, text: string): string[] {
  const prose = /\.(md|txt)$/.test(file);
  const lines = text.split('\n');
  return lines.flatMap((line, i) => {
    // this line, and this line joined to the start of the next (comment markers and indentation dropped)
    const next = (lines[i + 1] ?? '').replace(/^\s*(\/\/|#|\*|\/\*)?\s*/, '');
    const joined = `${line} ${next}`;
    return FORBIDDEN.filter(({ re }) => re.test(line) || (!re.test(next) && re.test(joined)))
      .filter(({ re }) => !(re === OUTSIDE_FOLDER && !prose && !isComment(file, line) && SCHEMA_LOOKUP.test(line)))
      .map(({ what }) => `${file}:${i + 1}: ${line.trim()} (${what})`);
  });
}

describe('a clone of the repository reads on its own', () => {
  it('no user-facing file names a team-internal document, folder or source number', () => {
    const dirs = ['docs', 'examples', 'host', 'codegen', 'assembly', 'bench', 'scripts', 'test'];
    const files = ['README.md', 'package.json', ...dirs.flatMap((d) => walk(join(root, d)).map((p) => relative(root, p)))]
      .filter((f) => f !== join('test', 'self-contained.test.ts')); // its own patterns and cases
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => offences(f, readFileSync(join(root, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the checker catches each kind of mention, and lets a schema lookup in code pass', () => {
    expect(offences('docs/x.md', 'pinned in DESIGN.md §4.1')).toHaveLength(1);
    expect(offences('host/x.ts', '// as in seed 000, Table 1')).toHaveLength(1);
    expect(offences('README.md', 'see ../shared/reference/qcn-dcqcn.md')).toHaveLength(2);
    expect(offences('docs/x.md', 'the reference notes say')).toHaveLength(1);
    expect(offences('scripts/f.sh', 'for d in "$root/../shared/schemas"; do')).toEqual([]);
    expect(offences('scripts/f.sh', '# look in ../shared/schemas')).toHaveLength(1);
    expect(offences('docs/x.md', 'the proposal (seed\n004, table T1)')).toHaveLength(1);
    expect(offences('host/x.ts', '// as pinned in\n// DESIGN.md §4')).toHaveLength(1);
  });

  it('docs/design.md holds the units, the pinned semantics, the CLI contract and the sources', () => {
    const design = readFileSync(join(root, 'docs', 'design.md'), 'utf8');
    for (const heading of ['## 2. Numbers and units', '## 4. Pinned algorithm semantics', '## 5. The CLI is the contract', '## 8. Sources']) {
      expect(design).toContain(heading);
    }
    // every short name the docs cite is defined in §8
    const sources = design.slice(design.indexOf('## 8. Sources'));
    for (const name of ['Reinemo et al. 2010', 'DCBX white paper', 'Kamble et al. 2014', 'Multanen, DCB on Linux', 'Wadekar et al., ETS rev 1.01', 'CEE DCBX 1.01']) {
      expect(sources).toContain(name);
    }
  });

  it('what the CLI prints about the examples and itself cites nothing the reader lacks', async () => {
    const outputs = await Promise.all([['examples'], ['examples', '--json'], ['--help'], ['vectors', '--help'], ['headroom', '--help']].map((a) => runCliAsync(a)));
    for (const r of outputs) {
      expect(r.status).toBe(0);
      expect(offences('cli-output.txt', r.stdout + r.stderr)).toEqual([]);
    }
    expect(outputs[0].stdout).toContain('Reinemo et al. 2010');
  });
});
