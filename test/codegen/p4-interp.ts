// A small interpreter for the straight-line P4_16 actions dcb.p4 uses (no p4c or BMv2 here):
// local declarations, assignments, register read/write, setValid/setInvalid and truncate, with
// expressions over bit<W> values (casts, w-literals, arithmetic, comparisons, ?:). Enough to run
// the PFC actions and to deparse the headers in the deparser's emit order, byte by byte.
// Anything else throws, so a change to the program that this cannot follow fails the test.

/** A value the packet brought in (a header field of the original packet, its payload). */
export const LEAK = 'LEAK' as const;
export type Value = bigint | typeof LEAK;

export interface Scope {
  /** `meta.x`, `hdr.h.f`, `standard_metadata.x` -> value. */
  fields: Map<string, Value>;
  /** Valid headers by member name of headers_t (`ethernet`, `pfc`, ...). */
  valid: Set<string>;
  /** Register name -> index -> value (absent = 0, as BMv2 initialises registers). */
  registers: Map<string, Map<bigint, bigint>>;
  truncate?: number;
}

export function newScope(fields: Record<string, Value>, valid: string[]): Scope {
  return { fields: new Map(Object.entries(fields)), valid: new Set(valid), registers: new Map() };
}

const stripComments = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

/** `const bit<W> NAME = V;` declarations. */
export function constants(src: string): Map<string, bigint> {
  return new Map([...src.matchAll(/const bit<\d+> (\w+) = (0x[0-9a-fA-F]+|\d+);/g)].map((m) => [m[1], BigInt(m[2])]));
}

/** Body of the block that opens at the first `{` at or after `from`. */
function block(src: string, from: number): string {
  const open = src.indexOf('{', from);
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === '{') depth++;
    else if (src[i] === '}' && --depth === 0) return src.slice(open + 1, i);
  }
  throw new Error('unbalanced braces');
}

/** Body of `action NAME(...)` and its parameter names. */
export function actionOf(src: string, name: string): { params: string[]; body: string } {
  const m = new RegExp(`action ${name}\\(([^)]*)\\)`).exec(src);
  if (!m) throw new Error(`no action ${name}`);
  const params = m[1].trim() ? m[1].split(',').map((p) => p.trim().split(/\s+/).pop()!) : [];
  return { params, body: stripComments(block(src, m.index)) };
}

/** The body of `control NAME(...)`'s apply block. */
export function applyOf(src: string, control: string): string {
  const at = src.indexOf(`control ${control}(`);
  if (at < 0) throw new Error(`no control ${control}`);
  const body = block(src, at);
  return stripComments(block(body, body.lastIndexOf('apply {')));
}

/** Header type -> [field, width] in declaration order. */
export function headerLayouts(src: string): Map<string, [string, number][]> {
  const out = new Map<string, [string, number][]>();
  for (const m of src.matchAll(/header (\w+) \{([^}]*)\}/g)) out.set(m[1], [...m[2].matchAll(/bit<(\d+)> (\w+);/g)].map((f) => [f[2], Number(f[1])]));
  return out;
}

/** headers_t member -> header type. */
export function headerMembers(src: string): Map<string, string> {
  const body = /struct headers_t \{([^}]*)\}/.exec(src)![1];
  return new Map([...body.matchAll(/(\w+) (\w+);/g)].map((m) => [m[2], m[1]]));
}

/** Member names in the deparser's emit order. */
export function emitOrder(src: string): string[] {
  return [...applyOf(src, 'DcbDeparser').matchAll(/packet\.emit\(hdr\.(\w+)\);/g)].map((m) => m[1]);
}

/** Translates a P4 expression into JavaScript over BigInt with names looked up through `get`. */
function evaluate(expr: string, get: (name: string) => bigint): bigint {
  const token = /(\d+)w(0x[0-9a-fA-F]+|\d+)|(0x[0-9a-fA-F]+|\d+)|\((?:bit|int)<\d+>\)|([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)|(\s+|[^\sA-Za-z_\d])/gy;
  let js = '';
  const names: string[] = [];
  for (let m = token.exec(expr); m; m = token.exec(expr)) {
    if (m[2] !== undefined) js += `${BigInt(m[2])}n`;
    else if (m[3] !== undefined) js += `${BigInt(m[3])}n`;
    else if (m[4] !== undefined) {
      if (m[4] === 'true' || m[4] === 'false') js += m[4];
      else {
        names.push(m[4]);
        js += `v[${names.length - 1}]`;
      }
    } else if (m[5] !== undefined) js += m[5];
    // casts match no group and are dropped: every value here fits its type
  }
  const values = names.map(get);
  const r = new Function('v', `return (${js});`)(values) as bigint | boolean;
  return typeof r === 'boolean' ? (r ? 1n : 0n) : r;
}

/** Runs `action name(args)` on the scope; registers are the names the program declares. */
export function runAction(src: string, name: string, scope: Scope, args: bigint[] = []): void {
  const { params, body } = actionOf(src, name);
  const consts = constants(src);
  const registers = new Set([...src.matchAll(/register<bit<\d+>>\(\d+\) (\w+);/g)].map((m) => m[1]));
  const locals = new Map<string, bigint>(params.map((p, i) => [p, args[i]]));
  const get = (n: string): bigint => {
    const v = locals.get(n) ?? consts.get(n) ?? scope.fields.get(n);
    if (v === undefined) throw new Error(`${name}: ${n} read before it is set`);
    if (v === LEAK) throw new Error(`${name}: computes with ${n}, a byte of the original packet`);
    return v;
  };
  const set = (n: string, v: bigint) => (n.includes('.') ? scope.fields.set(n, v) : locals.set(n, v));
  const reg = (r: string) => scope.registers.get(r) ?? scope.registers.set(r, new Map()).get(r)!;
  for (const raw of body.split(';')) {
    const st = raw.trim();
    let m: RegExpExecArray | null;
    if (!st) continue;
    if ((m = /^(?:bit|int)<\d+> (\w+)(?: = ([\s\S]+))?$/.exec(st))) locals.set(m[1], m[2] ? evaluate(m[2], get) : 0n);
    else if ((m = /^(\w+)\.read\((\w+), ([\s\S]+)\)$/.exec(st)) && registers.has(m[1])) set(m[2], reg(m[1]).get(evaluate(m[3], get)) ?? 0n);
    else if ((m = /^(\w+)\.write\(([^,]+), ([\s\S]+)\)$/.exec(st)) && registers.has(m[1])) reg(m[1]).set(evaluate(m[2], get), evaluate(m[3], get));
    else if ((m = /^hdr\.(\w+)\.(setValid|setInvalid)\(\)$/.exec(st))) m[2] === 'setValid' ? scope.valid.add(m[1]) : scope.valid.delete(m[1]);
    else if ((m = /^truncate\(([\s\S]+)\)$/.exec(st))) scope.truncate = Number(evaluate(m[1], get));
    else if ((m = /^([\w.]+) = ([\s\S]+)$/.exec(st))) set(m[1], evaluate(m[2], get));
    else throw new Error(`${name}: statement the interpreter does not know: ${st}`);
  }
}

/**
 * The bytes the deparser emits for the scope's valid headers, then the unparsed payload (LEAK
 * bytes), cut to the truncate length. A byte holding any bit of a LEAK field is LEAK.
 */
export function serialise(src: string, scope: Scope, payloadBytes: number): Value[] {
  const layouts = headerLayouts(src);
  const members = headerMembers(src);
  const bits: (0 | 1 | 'L')[] = [];
  for (const h of emitOrder(src)) {
    if (!scope.valid.has(h)) continue;
    for (const [field, width] of layouts.get(members.get(h)!)!) {
      const v = scope.fields.get(`hdr.${h}.${field}`) ?? LEAK;
      for (let i = width - 1; i >= 0; i--) bits.push(v === LEAK ? 'L' : Number((v >> BigInt(i)) & 1n) as 0 | 1);
    }
  }
  if (bits.length % 8) throw new Error('headers are not a whole number of bytes');
  const bytes: Value[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    const b = bits.slice(i, i + 8);
    bytes.push(b.includes('L') ? LEAK : BigInt(b.reduce<number>((a, x) => a * 2 + (x as number), 0)));
  }
  for (let i = 0; i < payloadBytes; i++) bytes.push(LEAK);
  return scope.truncate === undefined ? bytes : bytes.slice(0, scope.truncate);
}
