// The release core has no `call` inside the per-packet functions (DESIGN.md §3: per-packet code is
// @inline and call-free). How: read build/core.wasm with binaryen (npm), look each batched
// per-packet export up by its export name (the export's value is the internal function name),
// and walk its whole expression tree counting Call / CallIndirect / ReturnCall nodes.
import binaryen from 'binaryen';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wasmPath } from '../host/loader.js';

/** Exports whose bodies are per-packet loops or per-packet selections. */
const PER_PACKET_EXPORTS = ['etsSelectOnce', 'etsBenchRun', 'portProcess', 'portGenerate'];

const CHILD_KEYS = ['children', 'operands', 'condition', 'ifTrue', 'ifFalse', 'body', 'value', 'ptr', 'left', 'right', 'target', 'expected', 'replacement', 'size', 'dest', 'source', 'offset', 'delta', 'vec', 'vecA', 'vecB', 'mask', 'ref', 'index'];

function countCalls(mod: binaryen.Module, exportName: string): { calls: number; nodes: number } {
  let fnName: string | null = null;
  for (let i = 0; i < mod.getNumExports(); i++) {
    const e = binaryen.getExportInfo(mod.getExportByIndex(i));
    if (e.kind === binaryen.ExternalFunction && e.name === exportName) fnName = e.value;
  }
  if (fnName === null) throw new Error(`build/core.wasm exports no function ${exportName}`);
  const callIds = new Set([binaryen.CallId, binaryen.CallIndirectId, binaryen.CallRefId]);
  let calls = 0;
  let nodes = 0;
  const walk = (expr: number): void => {
    if (!expr) return;
    nodes++;
    const info = binaryen.getExpressionInfo(expr) as unknown as Record<string, unknown> & { id: number };
    if (callIds.has(info.id)) calls++;
    if (info.id === binaryen.ConstId || info.id === binaryen.LocalGetId || info.id === binaryen.GlobalGetId) return;
    for (const k of CHILD_KEYS) {
      const v = info[k];
      if (typeof v === 'number' && k !== 'offset' && k !== 'index') walk(v);
      else if (Array.isArray(v)) for (const c of v) if (typeof c === 'number') walk(c);
    }
  };
  walk(binaryen.getFunctionInfo(mod.getFunction(fnName)).body);
  return { calls, nodes };
}

describe('release core: per-packet functions are call-free', () => {
  const mod = binaryen.readBinary(readFileSync(wasmPath('release')));
  it('the walker sees calls where there are some (etsBenchSetup calls etsConfigure)', () => {
    expect(countCalls(mod, 'etsBenchSetup').calls).toBeGreaterThan(0);
  });
  for (const name of PER_PACKET_EXPORTS) {
    it(`${name} contains no call`, () => {
      const r = countCalls(mod, name);
      expect(r.nodes).toBeGreaterThan(20); // the inlined kernel is really there
      expect(r.calls).toBe(0);
    });
  }
});
