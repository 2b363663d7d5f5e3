// The installed CLI (package.json "bin": the esbuild bundle of scripts/bundle-cli.mjs) loads only
// what a command needs: --version, --help and a misspelt command load no command module, a command
// loads its own chunk and no other command's; shell completion works from a `dcbkit` on PATH, as
// `npm link` and `npm install -g .` put it there (a symlink in a bin directory). Times are measured
// by `dcbkit bench` (cli_startup_ms), never asserted here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cliEntry } from '../../bench/startup.js';
import { commandLoaders } from '../../host/commands/index.js';
import { packageRoot } from '../../host/core/loader.js';

const root = packageRoot();
const entry = cliEntry(root);
const scratch = mkdtempSync(join(tmpdir(), 'dcbkit-startup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A module hook that names every module the process loads, one `loaded <url>` line on stderr.
const hooks = join(scratch, 'hooks.mjs');
writeFileSync(hooks, "export async function load(url, context, next) { process.stderr.write(`loaded ${url}\\n`); return next(url, context); }\n");
const register = join(scratch, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

/** The command modules (tsc output host/commands/NAME.js, or bundle chunks NAME-HASH.js) that `dcbkit ...args` loads. */
function commandModulesLoaded(args: string[]): { status: number; modules: string[] } {
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, entry, ...args], { cwd: root, encoding: 'utf8' });
  const files = [...r.stderr.matchAll(/^loaded (\S+)$/gm)].map((m) => m[1]);
  const moduleNames = ['version', 'validate', 'schema', 'vectors', 'headroom', 'bench', 'run', 'sweep', 'sweep-merge', 'frames', 'dcbx', 'codegen', 'analyze', 'gen', 'examples'];
  const modules = moduleNames.filter((n) => files.some((f) => f.endsWith(`/commands/${n}.js`) || new RegExp(`/chunks/${n}-[A-Z0-9]+\\.js$`).test(f)));
  return { status: r.status ?? -1, modules };
}

describe('the installed dcbkit loads what a command needs', () => {
  it('is the bundle, with one chunk per command', () => {
    expect(entry).toBe(join(root, 'dist', 'cli', 'dcbkit.js'));
    const summaries = JSON.parse(readFileSync(join(root, 'dist', 'cli', 'commands.json'), 'utf8')) as { name: string }[];
    expect(summaries.map((s) => s.name)).toEqual(Object.keys(commandLoaders));
  });

  it.each([[['--version']], [['-V']], [['--help']], [['help']], [['headrom']]])('dcbkit %j loads no command module', (args) => {
    const r = commandModulesLoaded(args);
    expect(r.modules).toEqual([]);
  });

  it('validate loads validate alone, run loads run alone (no report code for --json)', () => {
    const v = commandModulesLoaded(['validate', 'examples/configs/converged.yaml']);
    expect(v).toEqual({ status: 0, modules: ['validate'] });
    const r = commandModulesLoaded(['run', 'examples/sim-tiny/scenario.yaml', '--json']);
    expect(r).toEqual({ status: 0, modules: ['run'] });
  });

  // The bundle's yaml and cliui load from sidecar files on first call (CommonJS, so the module hook
  // above does not see them: a preloaded script lists Node's CommonJS cache at exit).
  const listRequired = join(scratch, 'list-required.cjs');
  writeFileSync(listRequired, "process.on('exit', () => { for (const f of Object.keys(require('node:module')._cache)) process.stderr.write(`required ${f}\\n`); });\n");
  function sidecarsLoaded(args: string[]): { status: number; stdout: string; sidecars: string[] } {
    const r = spawnSync(process.execPath, ['-r', listRequired, entry, ...args], { cwd: root, encoding: 'utf8' });
    const sidecars = [...r.stderr.matchAll(/^required \S+\/dist\/cli\/chunks\/(\w+)\.cjs$/gm)].map((m) => m[1]).sort();
    return { status: r.status ?? -1, stdout: r.stdout, sidecars };
  }

  it('a run of a JSON scenario or of plain YAML loads neither yaml nor cliui; other YAML loads yaml, --help cliui, with the same results', () => {
    const yamlFile = join(root, 'examples', 'sim-tiny', 'scenario.yaml');
    const jsonFile = join(scratch, 'sim-tiny.json');
    writeFileSync(jsonFile, JSON.stringify(parse(readFileSync(yamlFile, 'utf8'))));
    // an explicit document start is outside the subset that host/config/plain-yaml.ts reads
    const fullYamlFile = join(scratch, 'sim-tiny.yaml');
    writeFileSync(fullYamlFile, `---\n${readFileSync(yamlFile, 'utf8')}`);
    const fromJson = sidecarsLoaded(['run', jsonFile, '--json']);
    const fromYaml = sidecarsLoaded(['run', yamlFile, '--json']);
    const fromFullYaml = sidecarsLoaded(['run', fullYamlFile, '--json']);
    expect([fromJson.status, fromJson.sidecars]).toEqual([0, []]);
    expect([fromYaml.status, fromYaml.sidecars]).toEqual([0, []]);
    expect([fromFullYaml.status, fromFullYaml.sidecars]).toEqual([0, ['yaml']]);
    const simulated = (out: string) => {
      const { flows, drops, throughput } = JSON.parse(out) as Record<string, unknown>;
      return { flows, drops, throughput };
    };
    expect(simulated(fromJson.stdout).flows).toBeDefined();
    expect(simulated(fromJson.stdout)).toEqual(simulated(fromYaml.stdout));
    expect(simulated(fromFullYaml.stdout)).toEqual(simulated(fromYaml.stdout));
    const help = sidecarsLoaded(['run', '--help']);
    expect([help.status, help.sidecars]).toEqual([0, ['cliui']]);
    expect(help.stdout).toMatch(/^Options:$/m);
  });

  it('--version prints package.json\'s version from any working directory (yargs looked beside its own file)', () => {
    const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
    const r = spawnSync(process.execPath, [entry, '--version'], { cwd: scratch, encoding: 'utf8' });
    expect(r.stdout).toBe(`${version}\n`);
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
