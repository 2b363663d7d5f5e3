#!/usr/bin/env node
// Hardware cost of the reference RTL (rtl/dcb_ets_sel.sv, rtl/dcb_pfc_acct.sv) with Yosys: generic
// synthesis (`synth -flatten`: cells of Yosys' internal gate library, flip-flops among them), then a
// remap to simple two-input gates (`abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT`) and the longest
// register-to-register or port path in gates (`ltp -noff`): the logic depth. Writes the table into
// docs/rtl.md between the `rtl-cost` markers; `--check` only compares and exits 1 when the page is
// out of date (test/rtl-cost.test.ts). Same sources and Yosys give the same figures.
// Usage: node scripts/rtl-cost.mjs [--check]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MODULES = ['dcb_ets_sel', 'dcb_pfc_acct'];
const GATES = 'AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT';
const BEGIN = '<!-- rtl-cost: begin (scripts/rtl-cost.mjs writes this table) -->';
const END = '<!-- rtl-cost: end -->';

function yosysVersion() {
  const r = spawnSync('yosys', ['-V'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('yosys is not installed (scripts/test.sh installs it from Debian)');
  return r.stdout.trim().replace(/\s*\(.*\)$/, '');
}

/** Cells, flip-flops and logic depth of one module. */
export function cost(module) {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-yosys-'));
  try {
    const stat = join(dir, 'stat.txt');
    const ltp = join(dir, 'ltp.txt');
    const script = `read_verilog -sv ${join(root, 'rtl', `${module}.sv`)}; synth -top ${module} -flatten; tee -q -o ${stat} stat; ` +
      `abc -g ${GATES}; tee -q -o ${ltp} ltp -noff`;
    const r = spawnSync('yosys', ['-q', '-p', script], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`yosys failed on ${module}:\n${r.stdout}${r.stderr}`);
    const s = readFileSync(stat, 'utf8');
    const cells = Number(/Number of cells:\s+(\d+)/.exec(s)[1]);
    const flops = [...s.matchAll(/^\s+\$_(?:S?DFF|DFFE|SDFFE|SDFFCE|ALDFF|DFFSR|DFFSRE)\w*\s+(\d+)$/gm)].reduce((a, m) => a + Number(m[1]), 0);
    const depth = Number(/length=(\d+)/.exec(readFileSync(ltp, 'utf8'))[1]);
    return { module, cells, flops, depth };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function table() {
  const rows = MODULES.map(cost);
  return [
    BEGIN,
    `Measured with ${yosysVersion()} (\`node scripts/rtl-cost.mjs\`), default parameters (WIRE_W 16, DEF_W 24; OCC_W 32):`,
    '',
    '| module | cells after `synth` | of them flip-flops | logic depth (2-input gates, `abc -g` + `ltp -noff`) |',
    '|---|---|---|---|',
    ...rows.map((r) => `| \`${r.module}\` | ${r.cells} | ${r.flops} | ${r.depth} |`),
    END,
  ].join('\n');
}

const page = join(root, 'docs', 'rtl.md');
const text = readFileSync(page, 'utf8');
const at = text.indexOf(BEGIN);
const end = text.indexOf(END);
if (at < 0 || end < at) throw new Error(`docs/rtl.md has no ${BEGIN} ... ${END} section`);
const updated = text.slice(0, at) + table() + text.slice(end + END.length);
if (process.argv.includes('--check')) {
  if (updated !== text) {
    console.error('docs/rtl.md: the synthesis figures are out of date; run node scripts/rtl-cost.mjs');
    process.exit(1);
  }
  console.log('docs/rtl.md: synthesis figures up to date');
} else {
  writeFileSync(page + '.tmp', updated);
  renameSync(page + '.tmp', page);
  console.log(table());
}
