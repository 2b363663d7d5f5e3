// SystemVerilog register-map target (codegen/sv.ts): lint-clean under verilator -Wall; its values
// and image are the c-header target's (dcb_regs.bin and registerValues); and an Icarus Verilog
// testbench that reads every field of every instance out of DCB_REGS_IMAGE with the package's own
// BASE/STRIDE/OFFSET/SHIFT/WIDTH finds the package's _VALUES.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildIr } from '../../codegen/ir.js';
import { parseDevice } from '../../codegen/device.js';
import { BLOCKS, cHeaderTarget, registerValues } from '../../codegen/c-header.js';
import { svTarget } from '../../codegen/sv.js';
import { requireTool } from '../helpers.js';
import { losslessConfig, testHeadroom } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'dcbkit-sv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sv target', () => {
  const device = parseDevice({ cell_bytes: 96, ports: [{ name: 'Ethernet0', index: 0, speed: '100G', cable: '300m' }, { name: 'Ethernet8', index: 2, speed: '400G', cable: '5m' }] });
  const ir = buildIr(losslessConfig(), device, { headroom: testHeadroom });
  const text = svTarget.emit(ir).files['dcb_regs_pkg.sv'] as string;
  const pkg = join(dir, 'dcb_regs_pkg.sv');
  writeFileSync(pkg, text);
  const count = (b: (typeof BLOCKS)[number]) => (b.count === 'ports' ? ir.ports.length : b.count);

  /** A localparam's value as a bigint (the sized literals of one concatenation, most significant first). */
  const param = (name: string): bigint => {
    const m = new RegExp(`localparam logic \\[(\\d+):0\\] ${name} = \\{([^}]*)\\};`).exec(text);
    if (!m) throw new Error(`no ${name}`);
    return m[2].split(',').map((x) => x.trim()).reduce((acc, lit) => {
      const [, w, base, digits] = /^(\d+)'([dh])([0-9a-f]+)$/.exec(lit)!;
      return (acc << BigInt(w)) | BigInt(base === 'h' ? `0x${digits}` : digits);
    }, 0n);
  };

  test('lint-clean under verilator --lint-only -Wall', () => {
    requireTool('verilator');
    const top = join(dir, 'lint_top.sv');
    writeFileSync(top, 'module lint_top;\n  import dcb_regs_pkg::*;\nendmodule\n');
    const r = spawnSync('verilator', ['--lint-only', '-Wall', pkg, top], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  test('the same values and image as the c-header target, under the same names', () => {
    const c = cHeaderTarget.emit(ir);
    const bin = c.files['dcb_regs.bin'] as Uint8Array;
    const image = param('DCB_REGS_IMAGE');
    for (let i = 0; i < bin.length; i++) expect(Number((image >> BigInt(8 * i)) & 0xffn), `byte ${i}`).toBe(bin[i]);
    const values = registerValues(ir);
    let checked = 0;
    for (const b of BLOCKS) {
      expect(text).toContain(`localparam int DCB_${b.name}_BASE = 'h${b.base.toString(16).padStart(3, '0')};`);
      for (const f of b.fields) {
        expect(text).toContain(`localparam int DCB_${b.name}_${f.name}_OFFSET = 'h${f.offset.toString(16)};`);
        expect(text).toContain(`localparam int DCB_${b.name}_${f.name}_WIDTH = ${f.width};`);
        const v = param(`DCB_${b.name}_${f.name}_VALUES`);
        for (let i = 0; i < count(b); i++) {
          const want = values.get(`${b.name}[${i}].${f.name}`);
          if (want === undefined) continue; // the CRC, which only the image holds
          expect(Number((v >> BigInt(32 * i)) & 0xffffffffn), `${b.name}[${i}].${f.name}`).toBe(want);
          checked++;
        }
      }
    }
    expect(checked).toBe(values.size);
    // the header's own names
    const header = c.files['dcb_regs.h'] as string;
    for (const name of ['DCB_REGS_MAGIC', 'DCB_REGS_VERSION', 'DCB_REGS_NUM_PORTS', 'DCB_REGS_LEN']) {
      expect(header).toContain(`#define ${name} `);
      expect(text).toMatch(new RegExp(`localparam (int|logic \\[31:0\\]) ${name} = `));
    }
  });

  test('Icarus Verilog reads every field out of the image with the package\'s offsets', () => {
    requireTool('iverilog');
    const checks = BLOCKS.flatMap((b) => b.fields.map((f) => {
      const p = `DCB_${b.name}_${f.name}`;
      return `    for (int i = 0; i < DCB_${b.name}_COUNT; i++) begin
      word = DCB_REGS_IMAGE[(DCB_${b.name}_BASE + i * DCB_${b.name}_STRIDE + ${p}_OFFSET) * 8 +: 32];
      got = (word >> ${p}_SHIFT) & ((64'd1 << ${p}_WIDTH) - 1);
      if (got != 64'(${p}_VALUES[i * 32 +: 32])) begin errors++; $display("MISMATCH ${b.name}[%0d].${f.name}", i); end
      n++;
    end`;
    }));
    const tb = join(dir, 'tb_regs.sv');
    writeFileSync(tb, `module tb_regs;\n  import dcb_regs_pkg::*;\n  logic [31:0] word;\n  logic [63:0] got;\n  int errors = 0, n = 0;\n  initial begin\n${checks.join('\n')}\n    $display("RESULT %0d %0d", n, errors);\n    $finish;\n  end\nendmodule\n`);
    const vvp = join(dir, 'tb.vvp');
    const cc = spawnSync('iverilog', ['-g2012', '-o', vvp, pkg, tb], { encoding: 'utf8' });
    expect(cc.stdout + cc.stderr).toBe('');
    const run = spawnSync('vvp', ['-n', vvp], { encoding: 'utf8' });
    const fields = BLOCKS.reduce((a, b) => a + b.fields.length * count(b), 0);
    expect(run.stdout).toContain(`RESULT ${fields} 0`);
  });
});
