// The memory map guards itself (the ends of assembly/layout.ts and assembly/sim/layout.ts): a layout
// in which two records overlap, or an i64 field loses its alignment, does not compile. Each case
// copies assembly/ to a temporary directory, breaks one derivation and runs asc on it, expecting the
// guard's message.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../host/core/loader.js';

const asc = join(packageRoot(), 'node_modules', 'assemblyscript', 'bin', 'asc.js');

/** Compiles assembly/ with `file` (under assembly/) edited by `edit`; returns asc's exit status and output. */
function compileWith(edit: (layout: string) => string, file = 'layout.ts'): { status: number; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-layout-'));
  try {
    cpSync(join(packageRoot(), 'assembly'), join(dir, 'assembly'), { recursive: true });
    const path = join(dir, 'assembly', file);
    const before = readFileSync(path, 'utf8');
    const after = edit(before);
    expect(after).not.toBe(before); // the edit applied
    writeFileSync(path, after);
    const r = spawnSync(process.execPath, [asc, join(dir, 'assembly', 'index.ts'), '--runtime', 'stub', '-o', join(dir, 'out.wasm')], { encoding: 'utf8' });
    return { status: r.status ?? -1, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('layout guards (compile-time)', () => {
  it('the layout as shipped compiles', () => {
    expect(compileWith((s) => `${s}\n// unchanged\n`).status).toBe(0);
    expect(compileWith((s) => `${s}\n// unchanged\n`, 'sim/layout.ts').status).toBe(0);
  }, 60_000);

  it('fail the build when the PFC record overlaps the ETS record in a simulator port', () => {
    const r = compileWith((s) => s.replace('export const SP_PFC: i32 = SP_ETS + ETS_BYTES;', 'export const SP_PFC: i32 = SP_ETS + 64;'), 'sim/layout.ts');
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('layout: sim port records overlap');
  }, 60_000);

  it('fail the build when an i64 array loses its 8-byte alignment', () => {
    const r = compileWith((s) => s.replace('const PFC_I32_ROW: i32 = 4 * (PFC_UNITS + 1);', 'const PFC_I32_ROW: i32 = 4 * PFC_UNITS;'));
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('layout: PFC i64 alignment');
  }, 60_000);
});
