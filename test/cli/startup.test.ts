// The installed CLI (package.json "bin": the launcher of scripts/bundle-cli.mjs) loads only what a
// command needs: --version, --help and a misspelt command load the bundle of no command, a command
// loads its own bundle, which holds no other command, compiled from V8's code cache when it fits; shell completion works from a `dcbkit` on PATH, as
// `npm link` and `npm install -g .` put it there (a symlink in a bin directory). Times are measured
// by `dcbkit bench` (cli_startup_ms), never asserted here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cliEntry } from '../../bench/startup.js';
import { commandLoaders } from '../../host/commands/index.js';
import { packageRoot } from '../../host/core/loader.js';

const root = packageRoot();
const entry = cliEntry(root);
const scratch = mkdtempSync(join(tmpdir(), 'dcbkit-startup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The launcher registers the one bundle it runs in Node's CommonJS cache, as Node's own loader would;
// the sidecars (yaml, cliui, vega) are required. A preloaded script lists that cache at exit.
const listRequired = join(scratch, 'list-required.cjs');
writeFileSync(listRequired, "process.on('exit', () => { for (const f of Object.keys(require('node:module')._cache)) process.stderr.write(`required ${f}\\n`); });\n");

/** What `dcbkit ...args` loads of dist/cli: the command bundles (commands/NAME.cjs) and the sidecars (chunks/NAME.cjs). */
function cliFilesLoaded(args: string[], env: NodeJS.ProcessEnv = process.env, nodeFlags: string[] = []) {
  const r = spawnSync(process.execPath, [...nodeFlags, '-r', listRequired, entry, ...args], { cwd: root, env, encoding: 'utf8' });
  const loaded = (dir: string) => [...r.stderr.matchAll(new RegExp(`^required \\S+/dist/cli/${dir}/([\\w-]+)\\.cjs$`, 'gm'))].map((m) => m[1]).sort();
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, bundles: loaded('commands'), sidecars: loaded('chunks') };
}

const summaries = JSON.parse(readFileSync(join(root, 'dist', 'cli', 'commands.json'), 'utf8')) as { name: string; describe: string }[];
const bundleText = (name: string) => readFileSync(join(root, 'dist', 'cli', 'commands', `${name}.cjs`), 'utf8');

describe('the installed dcbkit loads what a command needs', () => {
  it('is the launcher, with one CommonJS bundle per command and one for none', () => {
    expect(entry).toBe(join(root, 'dist', 'cli', 'dcbkit.js'));
    expect(summaries.map((s) => s.name)).toEqual(Object.keys(commandLoaders));
    for (const name of [...Object.keys(commandLoaders), 'none']) expect(bundleText(name)).toMatch(/^\/\*dcbkit-bundle [0-9a-f]{16}\*\//);
  });

  it('a command\'s bundle holds no other command\'s module', () => {
    for (const name of [...Object.keys(commandLoaders), 'none']) {
      const text = bundleText(name);
      const others = summaries.filter((s) => s.name !== name && text.includes(JSON.stringify(s.describe).slice(1, -1)));
      expect([name, others.map((s) => s.name)]).toEqual([name, []]);
    }
  });

  it.each([[['--version']], [['-V']], [['--help']], [['headrom']], [['--json', 'frobnicate']]])('dcbkit %j loads the bundle of no command', (args) => {
    expect(cliFilesLoaded(args).bundles).toEqual(['none']);
  });

  it('help CMD and CMD --help load that command\'s bundle and print its options', () => {
    for (const args of [['help', 'headroom'], ['headroom', '--help']]) {
      const r = cliFilesLoaded(args);
      expect([r.status, r.bundles]).toEqual([0, ['headroom']]);
      expect(r.stdout).toMatch(/^dcbkit headroom/m);
      expect(r.stdout).toMatch(/--speed/);
    }
  });

  it('validate loads validate alone, run loads run alone (no report code for --json)', () => {
    const v = cliFilesLoaded(['validate', 'examples/configs/converged.yaml']);
    expect([v.status, v.bundles]).toEqual([0, ['validate']]);
    const r = cliFilesLoaded(['run', 'examples/sim-tiny/scenario.yaml', '--json']);
    expect([r.status, r.bundles, r.sidecars]).toEqual([0, ['run'], []]);
  });

  it('a run with --out loads vega from its sidecar and writes the plots', () => {
    const out = join(scratch, 'tiny-report');
    const r = cliFilesLoaded(['run', 'examples/sim-tiny/scenario.yaml', '--out', out]);
    expect([r.status, r.bundles, r.sidecars]).toEqual([0, ['run'], ['vega']]);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/<svg/);
  });

  const simulated = (out: string) => {
    const { flows, drops, throughput } = JSON.parse(out) as Record<string, unknown>;
    return { flows, drops, throughput };
  };

  it('a run of a JSON scenario or of plain YAML loads neither yaml nor cliui; other YAML loads yaml, --help cliui, with the same results', () => {
    const yamlFile = join(root, 'examples', 'sim-tiny', 'scenario.yaml');
    const jsonFile = join(scratch, 'sim-tiny.json');
    writeFileSync(jsonFile, JSON.stringify(parse(readFileSync(yamlFile, 'utf8'))));
    // an explicit document start is outside the subset that host/config/plain-yaml.ts reads
    const fullYamlFile = join(scratch, 'sim-tiny.yaml');
    writeFileSync(fullYamlFile, `---
${readFileSync(yamlFile, 'utf8')}`);
    const fromJson = cliFilesLoaded(['run', jsonFile, '--json']);
    const fromYaml = cliFilesLoaded(['run', yamlFile, '--json']);
    const fromFullYaml = cliFilesLoaded(['run', fullYamlFile, '--json']);
    expect([fromJson.status, fromJson.sidecars]).toEqual([0, []]);
    expect([fromYaml.status, fromYaml.sidecars]).toEqual([0, []]);
    expect([fromFullYaml.status, fromFullYaml.sidecars]).toEqual([0, ['yaml']]);
    expect(simulated(fromJson.stdout).flows).toBeDefined();
    expect(simulated(fromJson.stdout)).toEqual(simulated(fromYaml.stdout));
    expect(simulated(fromFullYaml.stdout)).toEqual(simulated(fromYaml.stdout));
    const help = cliFilesLoaded(['run', '--help']);
    expect([help.status, help.sidecars]).toEqual([0, ['cliui']]);
    expect(help.stdout).toMatch(/^Options:$/m);
  });

  it('V8 takes the code cache written at build time; under other V8 flags it rejects it and the run is the same', () => {
    const report = { ...process.env, DCBKIT_CODE_CACHE: 'report' };
    const args = ['run', 'examples/sim-tiny/scenario.yaml', '--json'];
    const cached = cliFilesLoaded(args, report);
    expect([cached.status, cached.stderr]).toEqual([0, expect.stringMatching(/^code cache: accepted$/m)]);
    const rejected = cliFilesLoaded(args, report, ['--max-lazy']);
    expect([rejected.status, rejected.stderr]).toEqual([0, expect.stringMatching(/^code cache: rejected$/m)]);
    const off = cliFilesLoaded(args, { ...process.env, DCBKIT_CODE_CACHE: 'off' });
    expect(off.status).toBe(0);
    expect(simulated(rejected.stdout)).toEqual(simulated(cached.stdout));
    expect(simulated(off.stdout)).toEqual(simulated(cached.stdout));
    for (const name of [...Object.keys(commandLoaders), 'none']) {
      expect(readdirSync(join(root, 'dist', 'cli', 'commands')).filter((f) => f.startsWith(`${name}.cjs.`) && f.endsWith('.v8cache'))).toHaveLength(1);
    }
  });

  it('--version prints package.json\'s version from any working directory (yargs looked beside its own file)', () => {
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    const r = spawnSync(process.execPath, [entry, '--version'], { cwd: scratch, encoding: 'utf8' });
    expect(r.stdout).toBe(`${version}\n`);
  });

  it('a run started outside any Node project loads no assert: yargs no longer guesses a version from the working directory', () => {
    // yargs' factory looked for a package.json from the working directory up and, finding none,
    // failed an assertion (Node's assert loaded, an AssertionError formatted, then dropped).
    // scripts/bundle-cli.mjs leaves the guess out; the version is dcbkit's own (the test above).
    const lister = join(scratch, 'list-builtins.cjs');
    writeFileSync(lister, "process.on('exit', () => process.stderr.write(`builtins ${process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join(' ')}\\n`));\n");
    const run = join(root, 'examples', 'sim-tiny', 'scenario.yaml');
    const builtins = (args: string[]) => {
      const r = spawnSync(process.execPath, ['-r', lister, entry, ...args], { cwd: scratch, encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      return /^builtins (.*)$/m.exec(r.stderr)![1].split(' ');
    };
    expect(readdirSync(scratch)).not.toContain('package.json');
    const loaded = builtins(['run', run, '--json']);
    expect(loaded, 'the lister sees the built-ins a run loads').toContain('fs');
    expect(loaded).not.toContain('assert');
    expect(builtins(['--version'])).not.toContain('assert');
  });

  it('dcbkit --help still lists every command with its description', () => {
    const r = spawnSync(process.execPath, [entry, '--help'], { cwd: root, encoding: 'utf8' });
    expect(r.status).toBe(0);
    for (const name of Object.keys(commandLoaders)) expect(r.stdout).toMatch(new RegExp(`^  dcbkit ${name}\\b.* {2,}\\S`, 'm'));
  });
});

describe('shell completion of a dcbkit on PATH', () => {
  // What npm link / npm install -g . leave: <prefix>/bin/dcbkit -> the package's bin file.
  const bin = join(scratch, 'bin');
  mkdirSync(bin);
  symlinkSync(entry, join(bin, 'dcbkit'));
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, SHELL: '/bin/bash' };

  it('prints the bash script without a note, and the script completes commands, options and choices', () => {
    const script = spawnSync('dcbkit', ['completion'], { cwd: scratch, env, encoding: 'utf8' });
    expect(script.status).toBe(0);
    expect(script.stderr).toBe('');
    expect(script.stdout).toContain('complete -o bashdefault -o default -F _dcbkit_yargs_completions dcbkit');
    writeFileSync(join(scratch, 'completion.sh'), script.stdout);
    const probe = [
      `source ${join(scratch, 'completion.sh')}`,
      'COMP_WORDS=(dcbkit val); COMP_CWORD=1; _dcbkit_yargs_completions; echo "1:${COMPREPLY[*]}"',
      'COMP_WORDS=(dcbkit headroom --sp); COMP_CWORD=2; _dcbkit_yargs_completions; echo "2:${COMPREPLY[*]}"',
      "COMP_WORDS=(dcbkit codegen x --target ''); COMP_CWORD=4; _dcbkit_yargs_completions; echo \"3:${COMPREPLY[*]}\"",
    ].join('\n');
    const r = spawnSync('bash', ['-c', probe], { cwd: scratch, env, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')).toEqual(expect.arrayContaining(['1:validate', '2:--speed', expect.stringMatching(/^3:sonic p4 linux c-header lldp/)]));
  });

  it('without dcbkit on PATH the script still prints, with a note on how to put it there', () => {
    const r = spawnSync(process.execPath, [entry, 'completion'], { cwd: scratch, env: { ...env, PATH: '/usr/bin:/bin' }, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('_dcbkit_yargs_completions');
    expect(r.stderr).toMatch(/^note: dcbkit is not on PATH.*npm link.*npm install -g \./);
  });
});
