// Properties over random valid configs (test/codegen/fixtures.ts arbConfig): whenever a target
// accepts a config, its artefacts pass the independent checker and read back to the IR. Run
// counts are small because every case spawns a tool (yanglint, tc, the compiled C checker).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createFileRegistry, fromBinary, fromJson, type Registry } from '@bufbuild/protobuf';
import { FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { buildIr, cumulativeRound } from '../../codegen/ir.js';
import { defaultDevice } from '../../codegen/device.js';
import { sonicTarget } from '../../codegen/sonic.js';
import { linuxTarget, bandOrder } from '../../codegen/linux.js';
import { cHeaderTarget, registerValues } from '../../codegen/c-header.js';
import { p4Target } from '../../codegen/p4.js';
import { packageRoot } from '../../host/core/loader.js';
import { requireTool } from '../helpers.js';
import { arbConfig, testHeadroom } from './fixtures.js';
import { yanglint } from './sonic-yang.js';
import { tcAccepts } from './tc.js';
import { schemasDir } from './schemas.js';

const opts = { headroom: testHeadroom };
const dir = mkdtempSync(join(tmpdir(), 'dcbkit-cg-prop-'));
const NS = `dcbkit-cgp-${process.pid}`;
const run = (cmd: string, args: string[], input?: string | Uint8Array) => spawnSync(cmd, args, { encoding: 'utf8', input });

beforeAll(() => {
  requireTool('ip');
  expect(run('ip', ['netns', 'add', NS]).status).toBe(0);
  expect(run('ip', ['-n', NS, 'link', 'add', 'Ethernet0', 'type', 'veth', 'peer', 'name', 'peer0']).status).toBe(0);
});
afterAll(() => {
  run('ip', ['netns', 'del', NS]);
  rmSync(dir, { recursive: true, force: true });
});

describe('random valid configs', () => {
  test('sonic: every accepted config passes yanglint', () => {
    requireTool('yanglint');
    fc.assert(
      fc.property(arbConfig, (cfg) => {
        const ir = buildIr(cfg, defaultDevice, opts);
        const problems = sonicTarget.check(ir);
        // arbConfig never mixes PFC in a TC, gives every ETS TC at least 1 % (a TC rounded to 0 %
        // is made strict) and uses speeds SONiC takes, so SONiC must accept every case.
        expect(problems).toEqual([]);
        const r = yanglint(JSON.parse(sonicTarget.emit(ir).files['config_db.json'] as string));
        expect(r.output).toBe('');
        expect(r.status).toBe(0);
      }),
      { numRuns: 12 },
    );
  });

  test('linux: tc parses every generated line; where the offloaded quanta differ from the configured %, it is reported', () => {
    requireTool('tc');
    fc.assert(
      fc.property(arbConfig, (cfg) => {
        const ir = buildIr(cfg, defaultDevice, opts);
        expect(linuxTarget.check(ir)).toEqual([]);
        const out = linuxTarget.emit(ir);
        const line = (out.files['tc.batch'] as string).trim();
        expect(tcAccepts(NS, line), line).toBe(true);
        const ets = bandOrder(ir).filter((t) => t.tsa === 'ets');
        const quanta = line.includes(' quanta ') ? line.split(' quanta ')[1].split(' priomap ')[0].split(' ').map(Number) : [];
        const offload = cumulativeRound(quanta, 100);
        ets.forEach((t, i) => {
          if (offload[i] !== t.bwPercent) expect(out.quantisation).toContainEqual(expect.objectContaining({ path: `ets.bw[${t.tc}]`, wanted: t.bwPercent, got: offload[i] }));
        });
        // Configured bandwidth of ETS TCs without priorities has no band: reported as lost.
        for (const t of ir.tcs.filter((x) => !x.used && x.tsa === 'ets' && x.bwPercent > 0)) {
          expect(out.quantisation).toContainEqual(expect.objectContaining({ path: `ets.bw[${t.tc}]`, wanted: t.bwPercent, got: 0 }));
        }
      }),
      { numRuns: 25 },
    );
  });

  test('c-header: the compiled checker reads every field of random images back', () => {
    requireTool('gcc');
    const first = buildIr(fc.sample(arbConfig, { numRuns: 1, seed: 1 })[0], defaultDevice, opts);
    writeFileSync(join(dir, 'dcb_regs.h'), cHeaderTarget.emit(first).files['dcb_regs.h']);
    const exe = join(dir, 'check');
    const cc = run('gcc', ['-std=c11', '-Wall', '-Wextra', '-Werror', '-pedantic', '-I', dir, '-o', exe, join(packageRoot(), 'test', 'c', 'dcb_regs_check.c')]);
    expect(cc.stderr).toBe('');
    fc.assert(
      fc.property(arbConfig, (cfg) => {
        const ir = buildIr(cfg, defaultDevice, opts);
        expect(cHeaderTarget.check(ir)).toEqual([]);
        const out = cHeaderTarget.emit(ir);
        // The header depends only on the port count, so one compiled checker serves every image.
        expect(out.files['dcb_regs.h']).toBe(readFileSync(join(dir, 'dcb_regs.h'), 'utf8'));
        const bin = join(dir, 'img.bin');
        writeFileSync(bin, out.files['dcb_regs.bin']);
        const r = run(exe, [bin]);
        expect(r.status).toBe(0);
        const printed = new Map(r.stdout.trim().split('\n').map((l) => [l.split('=')[0], Number(l.split('=')[1])] as const));
        for (const [k, v] of registerValues(ir)) expect(printed.get(k), k).toBe(v);
      }),
      { numRuns: 25 },
    );
  });

  test('p4: every WriteRequest parses strictly and its bytestrings are canonical', () => {
    requireTool('protoc');
    const fds = join(dir, 'p4rt.fds');
    const p4rt = join(schemasDir(), 'p4runtime');
    expect(run('protoc', ['-I', p4rt, '-I', '/usr/include', '--include_imports', `--descriptor_set_out=${fds}`, 'p4/v1/p4runtime.proto']).status).toBe(0);
    const registry: Registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(fds)));
    const W = registry.getMessage('p4.v1.WriteRequest')!;
    fc.assert(
      fc.property(arbConfig, (cfg) => {
        const ir = buildIr(cfg, defaultDevice, opts);
        expect(p4Target.check(ir)).toEqual([]);
        const json = JSON.parse(p4Target.emit(ir).files['write_request.json'] as string);
        expect(() => fromJson(W, json, { registry })).not.toThrow();
        const values: string[] = JSON.stringify(json).match(/"value":"[^"]*"/g) ?? [];
        for (const v of values) {
          const bytes = Buffer.from(v.slice(9, -1), 'base64');
          expect(bytes.length).toBeGreaterThan(0);
          if (bytes.length > 1) expect(bytes[0]).not.toBe(0);
        }
      }),
      { numRuns: 50 },
    );
  });
});
