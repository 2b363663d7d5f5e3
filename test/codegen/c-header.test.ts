// C register-map target: the header compiles with gcc -Wall -Werror -pedantic (its _Static_asserts
// check field placement), a C program built on its accessors loads dcb_regs.bin, verifies the
// CRC and prints every field, and the printed values equal the IR's.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildIr } from '../../codegen/ir.js';
import { parseDevice } from '../../codegen/device.js';
import { cHeaderTarget, registerValues } from '../../codegen/c-header.js';
import { packageRoot } from '../../host/core/loader.js';
import { requireTool } from '../helpers.js';
import { losslessConfig, testHeadroom } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'dcbkit-c-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function build(files: Record<string, string | Uint8Array>, tag: string) {
  const d = join(dir, tag);
  mkdirSync(d, { recursive: true });
  for (const [name, data] of Object.entries(files)) writeFileSync(join(d, name), data);
  const exe = join(d, 'check');
  const cc = spawnSync('gcc', ['-std=c11', '-Wall', '-Wextra', '-Werror', '-pedantic', '-I', d, '-o', exe, join(packageRoot(), 'test', 'c', 'dcb_regs_check.c')], { encoding: 'utf8' });
  return { d, exe, cc };
}

describe('c-header target', () => {
  const device = parseDevice({ cell_bytes: 96, ports: [{ name: 'Ethernet0', index: 0, speed: '100G', cable: '300m' }, { name: 'Ethernet8', index: 2, speed: '400G', cable: '5m' }] });
  const ir = buildIr(losslessConfig(), device, { headroom: testHeadroom });
  const out = cHeaderTarget.emit(ir);

  test('gcc compiles the header and the checker runs on the image; every field equals the IR', () => {
    requireTool('gcc');
    expect(cHeaderTarget.check(ir)).toEqual([]);
    const { d, exe, cc } = build(out.files, 'ok');
    expect(cc.stderr).toBe('');
    expect(cc.status).toBe(0);
    const run = spawnSync(exe, [join(d, 'dcb_regs.bin')], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const printed = new Map(run.stdout.trim().split('\n').map((l) => [l.split('=')[0], Number(l.split('=')[1])] as const));
    const expected = registerValues(ir);
    for (const [k, v] of expected) expect(printed.get(k), k).toBe(v);
    // The checker prints exactly the fields the IR fills, plus the CRC.
    expect([...printed.keys()].filter((k) => !expected.has(k))).toEqual(['hdr[0].crc32']);
    // Spot values from the arithmetic: TC 3 is 40 % ETS; unit ceil(9236/10) = 924 B; quantum
    // 36960 B = 577.5 credits of 64 B -> 578; headroom 111992 B in 96-B cells -> 1167 (112032 B).
    expect(printed.get('tc[3].dwrr_weight')).toBe(40);
    expect(printed.get('tc[3].quantum_credits')).toBe(578);
    expect(printed.get('port[0].pg3_headroom_cells')).toBe(1167);
    expect(printed.get('port[1].index')).toBe(2);
    // QCN on TC 3: Qeq 26000 B / 96 = 270.8 -> 271 cells, w = 2 (docs/design.md §4.4 defaults).
    expect([printed.get('tc[3].qcn_qeq_cells'), printed.get('tc[3].qcn_w')]).toEqual([271, 2]);
    expect(printed.get('dscp[3].tc2')).toBe(3); // DSCP 26 = 8*3+2 -> priority 3 -> TC 3
  });

  test('the checker rejects a corrupted image and the header rejects an overlapping field', () => {
    requireTool('gcc');
    const bad = new Uint8Array(out.files['dcb_regs.bin'] as Uint8Array);
    bad[0x50] ^= 1;
    const { d, exe } = build({ ...out.files, 'dcb_regs.bin': bad }, 'corrupt');
    const run = spawnSync(exe, [join(d, 'dcb_regs.bin')], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/CRC mismatch/);
    const h = (out.files['dcb_regs.h'] as string).replace('DCB_ITEM32(tc, dwrr_weight, 0x0, 8, 8)', 'DCB_ITEM32(tc, dwrr_weight, 0x0, 4, 8)');
    const { cc } = build({ ...out.files, 'dcb_regs.h': h }, 'overlap');
    expect(cc.status).not.toBe(0);
    expect(cc.stderr).toMatch(/tsa overlaps dwrr_weight/);
  });

  test('a speed or cable the PORT block cannot hold exactly is a problem, not a rounding', () => {
    const d = parseDevice({ ports: [{ name: 'Ethernet0', index: 0, speed: '2500M', cable: '1.5m' }] });
    expect(cHeaderTarget.check(buildIr(losslessConfig(), d, { headroom: () => 1000 }))).toEqual([
      { path: 'c-header: port[0].speed_gbps', rule: 'value 2.5 does not fit the 16-bit field (whole numbers 0..65535)' },
      { path: 'c-header: port[0].cable_m', rule: 'value 1.5 does not fit the 32-bit field (whole numbers 0..4294967295)' },
    ]);
  });

  test('quantum rounding to 64-byte credits is reported', () => {
    // 924 B x 10/20/30/40 % = 9240/18480/27720/36960 B; credits round up to 9280/18496/27776/36992.
    expect(out.quantisation.map((q) => [q.path, q.wanted, q.got])).toEqual([
      ['tc[0].quantum', 9240, 9280],
      ['tc[1].quantum', 18480, 18496],
      ['tc[2].quantum', 27720, 27776],
      ['tc[3].quantum', 36960, 36992],
    ]);
  });
});
