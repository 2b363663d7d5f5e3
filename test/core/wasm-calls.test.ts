// The release core has no `call` on the per-packet path (docs/design.md §3: per-packet code is @inline
// and call-free). How: read build/core.wasm with binaryen (npm), look each batched per-packet
// export up by its export name (the export's value is the internal function name; the release
// build has no name section), and walk its whole expression tree collecting Call / CallIndirect /
// CallRef nodes and their targets.
//
// The per-event helpers the port calls (pfcReceivePfc, pfcRefreshDue) are @inline too; the one
// per-event path portProcess calls out of line is portRefreshBlocked (a PFC frame received, a
// pause ended), from its two call sites, so that it takes no registers from the per-packet loop.
import binaryen from 'binaryen';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wasmPath } from '../../host/core/loader.js';

/** Exports whose bodies are per-packet loops or per-packet selections, with the calls they may make. */
const PER_PACKET_EXPORTS: Record<string, string[]> = {
  etsSelectOne: [],
  etsBenchRun: [],
  portGenerate: [],
  portProcess: ['portRefreshBlocked', 'portRefreshBlocked'],
  pfcArriveOne: [], pfcDepartOne: [], pfcBlockedMaskOne: [], pfcBenchRun: [], pfcBenchRunAccounting: [], pfcBenchRunItems: [],
  creditTrySendOne: [], creditReceiveOne: [], creditBenchRun: [],
};

const CHILD_KEYS = ['children', 'operands', 'condition', 'ifTrue', 'ifFalse', 'body', 'value', 'ptr', 'left', 'right', 'target', 'expected', 'replacement', 'size', 'dest', 'source', 'delta', 'vec', 'vecA', 'vecB', 'mask', 'ref'];

const mod = binaryen.readBinary(readFileSync(wasmPath('release')));
const internalName = new Map<string, string>();
for (let i = 0; i < mod.getNumExports(); i++) {
  const e = binaryen.getExportInfo(mod.getExportByIndex(i));
  if (e.kind === binaryen.ExternalFunction) internalName.set(e.name, e.value);
}

/** Targets of every call in the body of export `exportName` (internal names; '<indirect>' for indirect calls). */
function callsIn(exportName: string): { targets: string[]; nodes: number } {
  const fnName = internalName.get(exportName);
  if (fnName === undefined) throw new Error(`build/core.wasm exports no function ${exportName}`);
  const targets: string[] = [];
  let nodes = 0;
  const walk = (expr: number): void => {
    if (!expr) return;
    nodes++;
    const info = binaryen.getExpressionInfo(expr) as unknown as Record<string, unknown> & { id: number };
    if (info.id === binaryen.CallId) targets.push(String(info.target));
    else if (info.id === binaryen.CallIndirectId || info.id === binaryen.CallRefId) targets.push('<indirect>');
    if (info.id === binaryen.ConstId || info.id === binaryen.LocalGetId || info.id === binaryen.GlobalGetId) return;
    for (const k of CHILD_KEYS) {
      const v = info[k];
      if (typeof v === 'number') walk(v);
      else if (Array.isArray(v)) for (const c of v) if (typeof c === 'number') walk(c);
    }
  };
  walk(binaryen.getFunctionInfo(mod.getFunction(fnName)).body);
  return { targets, nodes };
}

describe('release core: per-packet functions are call-free', () => {
  it('the walker sees calls where there are some (etsBenchSetup calls etsConfigure)', () => {
    expect(callsIn('etsBenchSetup').targets).toEqual([internalName.get('etsConfigure')]);
  });
  for (const [name, allowed] of Object.entries(PER_PACKET_EXPORTS)) {
    it(`${name} calls ${allowed.length ? `only ${allowed.join(', ')} (per-event paths)` : 'nothing'}`, () => {
      const r = callsIn(name);
      expect(r.nodes).toBeGreaterThan(20); // the inlined kernel is really there
      const allowedInternal = new Set(allowed.map((a) => internalName.get(a)));
      expect(r.targets.filter((t) => !allowedInternal.has(t))).toEqual([]);
      expect(r.targets.length).toBeLessThanOrEqual(allowed.length); // one call site each at most
    });
  }
});
