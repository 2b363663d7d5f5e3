// `dcbkit examples` lists every shipped example with what it shows and a command that runs it, and
// `dcbkit completion` gives a shell completion script whose answers come from the real commands.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listExamples } from '../../host/commands/examples.js';
import { commandLoaders } from '../../host/commands/index.js';
import { packageRoot } from '../../host/core/loader.js';
import { runCliAsync } from '../helpers.js';

const root = packageRoot();

describe('dcbkit examples', () => {
  it('lists each example folder once, with its README title and a command that names real files', () => {
    const list = listExamples(root);
    const dirs = readdirSync(join(root, 'examples')).filter((d) => statSync(join(root, 'examples', d)).isDirectory()).sort();
    expect(list.map((e) => e.name)).toEqual(dirs);
    for (const e of list) {
      expect(e.title, e.name).not.toBe(e.name); // its README's title, not just the folder name
      const words = e.command.split(/\s+/);
      expect(words.slice(0, 2), e.command).toEqual(['npx', 'dcbkit']);
      expect(Object.keys(commandLoaders), e.command).toContain(words[2]);
      const inputs = words.filter((w) => w.startsWith('examples/'));
      expect(inputs.length, e.command).toBeGreaterThan(0);
      for (const f of inputs) expect(existsSync(join(root, f)), f).toBe(true);
    }
    expect(list.find((e) => e.name === 'converged-link')).toEqual({
      name: 'converged-link', title: 'Converged link (Reinemo et al. 2010, Table 1)', command: 'npx dcbkit run examples/converged-link/scenario.yaml --out out/converged-link',
    });
    // a README command continued over several lines with `\` is one command
    expect(list.find((e) => e.name === 'buffer-sizing')!.command).toMatch(/^npx dcbkit sweep examples\/buffer-sizing\/scenario\.yaml --param defaults\.buffer\.pg_buffer=\S+ --param flow_control\.3=pfc,credit .*--out out\/buffer-sizing$/);
  });

  it('prints one line per example, --json the same list; the sim-tiny command runs', async () => {
    const [text, json] = await Promise.all([runCliAsync(['examples']), runCliAsync(['examples', '--json'])]);
    expect(text.status).toBe(0);
    const list = listExamples(root);
    expect(JSON.parse(json.stdout)).toEqual({ examples: list });
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(list.length);
    list.forEach((e, i) => {
      expect(lines[i].startsWith(e.name + ' ')).toBe(true);
      expect(lines[i]).toContain(e.title);
      expect(lines[i].endsWith(`$ ${e.command}`)).toBe(true);
    });
    const tiny = list.find((e) => e.name === 'sim-tiny')!.command.split(/\s+/).slice(2);
    const r = await runCliAsync(tiny);
    expect(r.status, r.stderr).toBe(0);
  });
});

describe('dcbkit completion', () => {
  it('prints a bash completion script that asks dcbkit itself', async () => {
    const r = await runCliAsync(['completion']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('complete -o bashdefault -o default -F _dcbkit_yargs_completions dcbkit');
    expect(r.stdout).toContain('dcbkit --get-yargs-completions');
    // nothing on stderr but, when no dcbkit is on PATH here, the note on how to put it there
    expect(r.stderr).toMatch(/^(note: dcbkit is not on PATH[^\n]*npm link[^\n]*\n)?$/);
    // Words after it are refused (they used to be reported as unknown commands after the script).
    const extra = await runCliAsync(['completion', 'zsh']);
    expect([extra.status, extra.stdout]).toEqual([2, '']);
    expect(extra.stderr).toMatch(/^zsh: unexpected argument; usage: dcbkit completion/);
  });

  it('completes command names, subcommands and options from the real command table', async () => {
    const [top, frames, headroom] = await Promise.all([
      runCliAsync(['--get-yargs-completions', 'dcbkit', '']),
      runCliAsync(['--get-yargs-completions', 'dcbkit', 'frames', '']),
      runCliAsync(['--get-yargs-completions', 'dcbkit', 'headroom', '--']),
    ]);
    expect(top.stdout.trim().split('\n')).toEqual(expect.arrayContaining([...Object.keys(commandLoaders), 'completion']));
    expect(frames.stdout.trim().split('\n')).toEqual(['pfc', 'pause', 'cnm', 'ce']);
    expect(headroom.stdout.trim().split('\n')).toEqual(expect.arrayContaining(['--speed', '--cable', '--mtu', '--json']));
  });
});
