// The traps a new user met in the first hour, each kept gone: codegen --target all on a textbook
// ETS 50/30/20 at MTU 9216, the examples' output folders, and the small slips of the CLI.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';
import { runCli } from './helpers.js';

const root = packageRoot();
const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-first-hour-'));

describe('codegen --target all on ETS 50/30/20 at MTU 9216', () => {
  const config = join(tmp, 'ets-50-30-20.yaml');
  writeFileSync(config, [
    'port: {mtu: 9216}',
    'ets:',
    '  prio_tc: [0, 0, 0, 1, 2, 2, 2, 2]',
    '  tsa: [ets, ets, ets, strict, strict, strict, strict, strict]',
    '  bw: [50, 30, 20, 0, 0, 0, 0, 0]',
    'pfc: {enable: [3]}',
  ].join('\n') + '\n');

  it('writes every other target, exits 0 and names dpdk with its reason on stdout and in manifest.json', () => {
    const out = join(tmp, 'all');
    const r = runCli(['codegen', config, '--target', 'all', '--out', out]);
    expect(r.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['c-header', 'linux', 'lldp', 'manifest.json', 'p4', 'sonic', 'sv']);
    expect(r.stdout).toMatch(/^left out dpdk, which cannot hold this config: ets\.bw: rte_sched's WRR cannot hold 50\/30\/20 % within 1 pp at MTU 9216: .*--max-share-error 1\.13$/m);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.targets).toEqual(['sonic', 'p4', 'linux', 'c-header', 'lldp', 'sv']);
    expect(manifest.skipped).toEqual([{ target: 'dpdk', reasons: [expect.stringMatching(/^ets\.bw: rte_sched's WRR cannot hold 50\/30\/20 %/)] }]);
  });

  it('a named --target dpdk still refuses, exit 2, nothing written', () => {
    const out = join(tmp, 'dpdk');
    const r = runCli(['codegen', config, '--target', 'dpdk', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^dpdk: ets\.bw: rte_sched's WRR cannot hold/);
    expect(existsSync(out)).toBe(false);
  });

  it("validate's DPDK note is one short line; validate --target dpdk gives the whole reason", () => {
    const v = runCli(['validate', config]);
    expect(v.status).toBe(0);
    const notes = v.stderr.split('\n').filter((l) => l.includes('dpdk'));
    expect(notes).toEqual(["warning: ets.bw: codegen --target dpdk would refuse this: rte_sched's WRR cannot hold 50/30/20 % within 1 pp at MTU 9216 (validate --target dpdk says why and what to change)"]);
    const full = runCli(['validate', config, '--target', 'dpdk']);
    expect(full.status).toBe(2);
    expect(full.stderr).toContain('accept that with --max-share-error 1.13');
  });
});

/** Every `--out out/...` of an example README, with the example it belongs to. */
function exampleOutputs(): { example: string; out: string; command: string }[] {
  const found: { example: string; out: string; command: string }[] = [];
  for (const example of readdirSync(join(root, 'examples'))) {
    const readme = join(root, 'examples', example, 'README.md');
    if (!existsSync(readme)) continue;
    const text = readFileSync(readme, 'utf8').replace(/\\\n\s*/g, ' ');
    for (const line of text.split('\n')) {
      for (const m of line.matchAll(/(?:npx )?dcbkit [^`|#\n]*?--out (out\/[^\s`|]*)/g)) found.push({ example, out: m[1].replace(/\/$/, ''), command: m[0] });
    }
  }
  return found;
}

describe("the examples' output folders", () => {
  const outputs = exampleOutputs();

  it('each example writes only under out/<its own name>/, and no output folder holds another', () => {
    expect(outputs.length).toBeGreaterThan(12);
    for (const o of outputs) expect(o.out === `out/${o.example}` || o.out.startsWith(`out/${o.example}/`), `${o.command}`).toBe(true);
    const distinct = [...new Set(outputs.map((o) => o.out))];
    for (const a of distinct) {
      for (const b of distinct) if (a !== b) expect(b.startsWith(`${a}/`), `${b} lies inside ${a}, which its command replaces whole`).toBe(false);
    }
    const byDir = new Map<string, Set<string>>();
    for (const o of outputs) byDir.set(o.out, (byDir.get(o.out) ?? new Set()).add(o.example));
    for (const [dir, examples] of byDir) expect([...examples], dir).toHaveLength(1);
  });

  it('the codegen example runs after a run example and the run example after it, both outputs kept', () => {
    const cwd = join(tmp, 'fresh');
    mkdirSync(cwd);
    symlinkSync(join(root, 'examples'), join(cwd, 'examples'));
    const codegen = outputs.find((o) => o.example === 'codegen' && o.command.includes('--target all') && o.command.includes('roce.yaml'))!;
    const tiny = outputs.find((o) => o.example === 'sim-tiny')!;
    const args = (command: string) => command.replace(/^(npx )?dcbkit /, '').trim().split(/\s+/);
    for (const c of [tiny, codegen, tiny, codegen]) {
      const r = runCli(args(c.command), { cwd });
      expect(r.status, `${c.command}: ${r.stderr}`).toBe(0);
    }
    expect(existsSync(join(cwd, tiny.out, 'summary.json'))).toBe(true);
    expect(existsSync(join(cwd, codegen.out, 'manifest.json'))).toBe(true);
  });
});

describe('small slips', () => {
  it('codegen --help names the sv target', () => {
    const r = runCli(['codegen', '--help']);
    expect(r.stdout).toMatch(/SystemVerilog register-map \(sv\)/);
    expect(r.stdout).toContain('"sv"');
  });

  it('completion --help prints help, not the script', () => {
    const r = runCli(['completion', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^dcbkit completion\n/);
    expect(r.stdout).not.toContain('###-begin-dcbkit-completions-###');
  });

  it('a misspelt command gives one did-you-mean line, not also its argument as an unknown command', () => {
    const r = runCli(['valdate', 'my.yaml']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^valdate: unknown command; did you mean validate\?/)]);
  });

  it('--threads two says what it got', () => {
    const r = runCli(['run', 'examples/sim-tiny/scenario.yaml', '--threads', 'two']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe('--threads: must be a number, got "two"');
  });

  it("the Linux file lists name dcbtool.sh, which the linux target writes", () => {
    for (const page of ['examples/codegen/README.md', 'docs/codegen.md']) {
      expect(readFileSync(join(root, page), 'utf8')).toContain('linux/{tc.batch,dcb.sh,lldptool.sh,dcbtool.sh,classify.sh}');
    }
  });
});
