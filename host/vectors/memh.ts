// `dcbkit vectors KERNEL --format memh`: golden vectors as fixed-width hex words that SystemVerilog
// `$readmemh` reads (IEEE 1800-2017 §21.4), with a manifest that says where every field lies.
//
// Each kernel describes its stimulus events, its output lines and its configuration as groups of
// fields (MemhLayout, below); this module packs them. A word's bit 0 is the first field's bit 0;
// fields follow each other upwards without gaps, in the order of the JSON keys. Per group:
//   - a scalar is one field of `width` bits, two's complement when `signed`;
//   - an array of n values is n fields `name[0]` .. `name[n-1]`, upwards;
//   - a list of bit numbers (`bits`, such as the blocked TCs) is one mask field, decoded to the
//     ascending list of its set bits;
//   - a string of a known set (`enum`, such as `type`) is its code in the name -> code table;
//   - an object is its members as `name.member` fields;
//   - a value that can be JSON null (`nullable`) or a key that may be missing (`optional`) has a
//     1-bit companion `name_valid` just below it: 0 means null (or absent), and the value bits are 0.
// Decoding a word with the manifest alone gives back the JSON line exactly (decodeWord, below), so a
// testbench can compare field by field and a script can turn RTL output back into JSON.
// manifest.json: {"generator", "kernel", "word_bits", "config", "stimulus": {"word_bits", "fields"},
// "expected": {...}, "config_word": {...}}, each field {"name", "lsb", "width", "signed", "enum"?,
// "meaning", ...}; config.memh holds the configuration registers as one word, for testbenches that
// take the configuration at run time instead of the package's localparams.
import { InputError } from '../errors/errors.js';

/** One JSON key's fields (see the file comment). */
export interface Group {
  key: string;
  /** Manifest name when it differs from the key (two event types that give one key two shapes). */
  name?: string;
  width: number;
  signed?: boolean;
  count?: number;
  bits?: boolean;
  enum?: readonly string[];
  nullable?: boolean;
  optional?: boolean;
  /** The group belongs to these event types only (with `optional`): other types leave it absent. */
  when?: readonly string[];
  fields?: Group[];
  meaning: string;
}

/** What a kernel packs: its stimulus events, output lines and configuration. */
export interface MemhLayout {
  stimulus: Group[];
  expected: Group[];
  /** The configuration as the stimulus gave it (with defaults filled), for manifest.json. */
  config: Record<string, unknown>;
  /** The configuration registers the DUT needs (derived values included), as one word. */
  configWord: Group[];
  configValues: Record<string, unknown>;
  /** The events to pack, one word each (the validated stimulus, defaults filled). */
  events: object[];
}

export interface ManifestField {
  name: string;
  lsb: number;
  width: number;
  signed: boolean;
  enum?: Record<string, number>;
  meaning: string;
  /** The JSON path of the value (`deficit[3]`, `cnm.qf`, `time`), when it is not the name. */
  json?: string;
  /** Decoded as the ascending list of the set bit numbers. */
  bits?: true;
  /** On a `_valid` field: the JSON path it qualifies, and what 0 means (null, or the key is missing). */
  valid_of?: string;
  invalid?: 'null' | 'absent';
}

export interface WordLayout {
  word_bits: number;
  fields: ManifestField[];
}

/** Flattens groups into fields with their bit positions. */
export function wordLayout(groups: Group[]): WordLayout {
  const fields: ManifestField[] = [];
  let lsb = 0;
  const add = (f: Omit<ManifestField, 'lsb'>) => {
    fields.push({ ...f, lsb });
    lsb += f.width;
  };
  const walk = (gs: Group[], namePrefix: string, jsonPrefix: string) => {
    for (const g of gs) {
      const name = namePrefix + (g.name ?? g.key);
      const json = jsonPrefix + g.key;
      if (g.nullable || g.optional) {
        const what = g.nullable ? 'null' : 'absent';
        add({ name: `${name}_valid`, width: 1, signed: false, meaning: `1 = ${name} holds a value; 0 = ${json} is ${what === 'null' ? 'null' : 'not in the line'} (its bits are 0)`, valid_of: json, invalid: what });
      }
      if (g.fields) {
        walk(g.fields, `${name}.`, `${json}.`);
        continue;
      }
      const base = { width: g.width, signed: !!g.signed, meaning: g.meaning } as const;
      const extra = { ...(g.enum ? { enum: Object.fromEntries(g.enum.map((n, i) => [n, i])) } : {}), ...(g.bits ? { bits: true as const } : {}) };
      if (g.count !== undefined) {
        for (let i = 0; i < g.count; i++) add({ name: `${name}[${i}]`, ...base, ...extra, ...(name !== json ? { json: `${json}[${i}]` } : {}) });
      } else add({ name, ...base, ...extra, ...(name !== json ? { json } : {}) });
    }
  };
  walk(groups, '', '');
  return { word_bits: lsb, fields };
}

const big = (v: number | bigint) => (typeof v === 'bigint' ? v : BigInt(v));

/** Packs one value object into a word; `where` names it in errors (`expected[12]`). */
export function encodeWord(groups: Group[], value: Record<string, unknown>, where: string): bigint {
  let word = 0n;
  let lsb = 0;
  const put = (v: bigint, g: Group, path: string) => {
    const w = BigInt(g.width);
    const lo = g.signed ? -(1n << (w - 1n)) : 0n;
    const hi = g.signed ? (1n << (w - 1n)) - 1n : (1n << w) - 1n;
    if (v < lo || v > hi) {
      throw new InputError({ path: `${where}.${path}`, rule: `${v} does not fit the ${g.width}-bit ${g.signed ? 'signed' : 'unsigned'} memh field; shorten the stimulus or use --format jsonl` });
    }
    word |= (v & ((1n << w) - 1n)) << BigInt(lsb);
    lsb += g.width;
  };
  const scalar = (v: unknown, g: Group, path: string): bigint => {
    if (g.enum) {
      const code = g.enum.indexOf(v as string);
      if (code < 0) throw new InputError({ path: `${where}.${path}`, rule: `"${String(v)}" is not one of ${g.enum.join(', ')}` });
      return BigInt(code);
    }
    if (g.bits) return (v as number[]).reduce((m, b) => m | (1n << BigInt(b)), 0n);
    if (typeof v === 'boolean') return v ? 1n : 0n;
    if (typeof v === 'number' && Number.isInteger(v)) return big(v);
    if (typeof v === 'bigint') return v;
    throw new InputError({ path: `${where}.${path}`, rule: `a memh word holds integers only, got ${JSON.stringify(v)}` });
  };
  const skip = (gs: Group[]) => {
    for (const g of gs) {
      if (g.nullable || g.optional) lsb += 1;
      if (g.fields) skip(g.fields);
      else lsb += g.width * (g.count ?? 1);
    }
  };
  const walk = (gs: Group[], obj: Record<string, unknown>, prefix: string) => {
    for (const g of gs) {
      const v = g.when && !g.when.includes(obj.type as string) ? undefined : obj[g.key];
      const path = prefix + g.key;
      const missing = v === undefined ? g.optional : v === null ? g.nullable : false;
      if (g.nullable || g.optional) put(missing ? 0n : 1n, { ...g, width: 1, signed: false }, `${path}_valid`);
      if (missing) {
        skip([{ ...g, nullable: false, optional: false }]);
        continue;
      }
      if (v === undefined || v === null) throw new InputError({ path: `${where}.${path}`, rule: 'has no value, and the memh layout has no _valid bit for it' });
      if (g.fields) walk(g.fields, v as Record<string, unknown>, `${path}.`);
      else if (g.count !== undefined) {
        const arr = v as unknown[];
        if (!Array.isArray(arr) || arr.length !== g.count) throw new InputError({ path: `${where}.${path}`, rule: `must be a list of ${g.count} values` });
        arr.forEach((x, i) => put(scalar(x, g, `${path}[${i}]`), g, `${path}[${i}]`));
      } else put(scalar(v, g, path), g, path);
    }
  };
  walk(groups, value, '');
  return word;
}

/** The word as $readmemh hex: ceil(bits / 4) digits, most significant first. */
export function hexWord(word: bigint, bits: number): string {
  return word.toString(16).padStart(Math.max(1, Math.ceil(bits / 4)), '0');
}

/** Sets `value` at a JSON path such as `a`, `a[3]` or `a.b`. */
function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const m = /^([^.[]+)(?:\[(\d+)\])?(?:\.(.+))?$/.exec(path);
  if (!m) throw new Error(`bad manifest path ${path}`);
  const [, key, index, rest] = m;
  if (rest !== undefined) {
    if (typeof obj[key] !== 'object' || obj[key] === null) obj[key] = {};
    setPath(obj[key] as Record<string, unknown>, rest, value);
  } else if (index !== undefined) {
    if (!Array.isArray(obj[key])) obj[key] = [];
    (obj[key] as unknown[])[Number(index)] = value;
  } else obj[key] = value;
}

/** Decodes a hex word with a manifest's field list: the JSON object it was packed from. */
export function decodeWord(layout: WordLayout, hex: string): Record<string, unknown> {
  const word = BigInt(`0x${hex}`);
  const out: Record<string, unknown> = {};
  const invalid = new Map<string, 'null' | 'absent'>();
  for (const f of layout.fields) {
    let v = (word >> BigInt(f.lsb)) & ((1n << BigInt(f.width)) - 1n);
    if (f.valid_of !== undefined) {
      if (v === 0n) {
        invalid.set(f.valid_of, f.invalid!);
        if (f.invalid === 'null') setPath(out, f.valid_of, null);
      } else invalid.delete(f.valid_of);
      continue;
    }
    const json = f.json ?? f.name;
    const top = [...invalid.keys()].find((p) => json === p || json.startsWith(`${p}.`) || json.startsWith(`${p}[`));
    if (top !== undefined) continue;
    if (f.signed && v >> BigInt(f.width - 1)) v -= 1n << BigInt(f.width);
    let value: unknown;
    if (f.enum) value = Object.entries(f.enum).find(([, c]) => BigInt(c) === v)?.[0] ?? Number(v);
    else if (f.bits) value = Array.from({ length: f.width }, (_, i) => i).filter((i) => (v >> BigInt(i)) & 1n);
    else value = Number(v);
    setPath(out, json, value);
  }
  return out;
}

/** SystemVerilog keywords that JSON keys of the layouts use; a field of that name gets a `_f` suffix. */
const SV_KEYWORDS = new Set(['type', 'time', 'int', 'byte', 'bit', 'logic', 'event', 'string', 'real', 'wire', 'reg', 'input', 'output', 'module', 'const', 'unique', 'priority']);

/** A manifest name as a SystemVerilog identifier: `deficit[3]` -> `deficit_3`, `cnm.qf` -> `cnm_qf`. */
export function svName(name: string): string {
  const id = name.replace(/\[(\d+)\]/g, '_$1').replace(/\./g, '_');
  return SV_KEYWORDS.has(id) ? `${id}_f` : id;
}

/** A name as a localparam (upper case, so never a keyword): `deficit[3]` -> `DEFICIT_3`. */
function svConst(name: string): string {
  return name.replace(/\[(\d+)\]/g, '_$1').replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
}

/** The packed struct of a word layout: members from the most significant field down. Arrays stay packed arrays. */
function svStruct(typeName: string, layout: WordLayout): string {
  const members: string[] = [];
  const seen = new Set<string>();
  for (const f of [...layout.fields].reverse()) {
    const arr = /^(.*)\[(\d+)\]$/.exec(f.name);
    if (arr) {
      const base = arr[1];
      if (seen.has(base)) continue;
      seen.add(base);
      const n = layout.fields.filter((g) => g.name.startsWith(`${base}[`) && /^\d+\]$/.test(g.name.slice(base.length + 1))).length;
      members.push(`    logic [${n - 1}:0][${f.width - 1}:0] ${svName(base)}; // ${f.meaning}${f.signed ? ' (elements signed)' : ''}`);
    } else {
      members.push(`    logic ${f.signed ? 'signed ' : ''}[${f.width - 1}:0] ${svName(f.name)}; // ${f.meaning}`);
    }
  }
  return `  typedef struct packed {\n${members.join('\n')}\n  } ${typeName};\n`;
}

/** A localparam for one configuration register value (an array as one vector, element 0 lowest). */
function svParam(name: string, value: unknown, g: Group | undefined): string {
  const w = g?.width ?? 64;
  const lit = (v: unknown) => {
    const n = g?.enum ? BigInt(g.enum.indexOf(v as string)) : big(v as number);
    return n < 0n ? `-${w}'sd${-n}` : `${w}'d${n}`;
  };
  const id = svConst(name);
  if (Array.isArray(value)) {
    // one flat vector (element i at bits i*w +: w): Icarus Verilog 11 takes no multi-dimensional localparam
    return `  localparam logic [${value.length * w - 1}:0] ${id} = {${[...value].reverse().map(lit).join(', ')}};`;
  }
  return `  localparam logic ${g?.signed ? 'signed ' : ''}[${w - 1}:0] ${id} = ${lit(value)};`;
}

/** The `dcbkit_<kernel>_pkg.sv` text: word widths, enum codes, packed structs, configuration localparams. */
export function svPackage(kernel: string, layout: MemhLayout, words: { stimulus: WordLayout; expected: WordLayout; config: WordLayout }, expectedCount: number): string {
  const pkg = `dcbkit_${kernel.replace(/-/g, '_')}_pkg`;
  const enums: string[] = [];
  for (const [what, w] of [['STIM', words.stimulus], ['EXP', words.expected]] as const) {
    for (const f of w.fields) {
      if (!f.enum) continue;
      for (const [n, c] of Object.entries(f.enum)) enums.push(`  localparam logic [${f.width - 1}:0] ${what}_${svConst(f.name)}_${svConst(n)} = ${f.width}'d${c};`);
    }
  }
  const params = layout.configWord.map((g) => svParam(g.key, layout.configValues[g.key], g));
  // Field positions for part-selects (word[X_LSB + i * X_W +: X_W] for element i of an array): the
  // portable form for simulators that index packed struct members only by constants (Icarus 11).
  const positions: string[] = [];
  for (const [what, w] of [['STIM', words.stimulus], ['EXP', words.expected], ['CFG', words.config]] as const) {
    for (const f of w.fields) {
      const arr = /^(.*)\[(\d+)\]$/.exec(f.name);
      if (arr && arr[2] !== '0') continue;
      const id = `${what}_${svConst(arr ? arr[1] : f.name)}`;
      positions.push(`  localparam int ${id}_LSB = ${f.lsb};`, `  localparam int ${id}_W = ${f.width};`);
    }
  }
  return `// Generated by dcbkit vectors ${kernel} --format memh: the word layouts of stimulus.memh, expected.memh
// and config.memh (manifest.json has the same fields with their meanings) and this run's configuration.
// Do not edit; regenerate from the stimulus.
package ${pkg};
  // a library of constants: any one testbench uses some of them
  /* verilator lint_off UNUSEDPARAM */
  localparam int STIMULUS_BITS = ${words.stimulus.word_bits};
  localparam int EXPECTED_BITS = ${words.expected.word_bits};
  localparam int CONFIG_BITS = ${words.config.word_bits};
  // words in stimulus.memh and expected.memh: the testbenches size their memories by these and
  // fail unless they compare every expected word
  localparam int STIMULUS_COUNT = ${layout.events.length};
  localparam int EXPECTED_COUNT = ${expectedCount};

  // name -> code of every enum field (the manifest's "enum" tables)
${enums.join('\n')}

  // bit position and width of every field (arrays: of element 0; element i is i * width higher)
${positions.join('\n')}

  // one stimulus.memh word
${svStruct('stimulus_t', words.stimulus)}
  // one expected.memh word
${svStruct('expected_t', words.expected)}
  // the config.memh word
${svStruct('config_t', words.config)}
  // this run's configuration registers (the config.memh word's values)
${params.join('\n')}
  /* verilator lint_on UNUSEDPARAM */
endpackage
`;
}

/** Every file of a memh vectors directory. */
export function memhFiles(kernel: string, layout: MemhLayout, lines: object[], extra: Record<string, unknown> = {}): Map<string, string> {
  const words = { stimulus: wordLayout(layout.stimulus), expected: wordLayout(layout.expected), config: wordLayout(layout.configWord) };
  const pack = (groups: Group[], items: object[], what: string, bits: number) =>
    items.map((x, i) => hexWord(encodeWord(groups, x as Record<string, unknown>, `${what}[${i}]`), bits)).join('\n') + (items.length ? '\n' : '');
  const manifest = {
    generator: 'dcbkit vectors',
    kernel,
    word_bits: { stimulus: words.stimulus.word_bits, expected: words.expected.word_bits, config: words.config.word_bits },
    counts: { stimulus: layout.events.length, expected: lines.length },
    ...extra,
    config: layout.config,
    stimulus: words.stimulus,
    expected: words.expected,
    config_word: words.config,
  };
  return new Map([
    ['stimulus.memh', pack(layout.stimulus, layout.events, 'events', words.stimulus.word_bits)],
    ['expected.memh', pack(layout.expected, lines, 'expected', words.expected.word_bits)],
    ['config.memh', pack(layout.configWord, [layout.configValues], 'config', words.config.word_bits)],
    ['manifest.json', JSON.stringify(manifest, null, 2) + '\n'],
    [`dcbkit_${kernel.replace(/-/g, '_')}_pkg.sv`, svPackage(kernel, layout, words, lines.length)],
  ]);
}
