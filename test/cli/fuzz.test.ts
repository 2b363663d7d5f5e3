// CLI fuzz test (issue 10; gen, completion and sweep-merge since 2026-11-24, audit since 2026-11-26): random bytes, random JSON and YAML (valid documents with wrong values,
// huge numbers, deep nesting, unicode, NUL) and random option values into every command that reads
// a file or a value. Every case must exit 0 or 2, never print a stack trace or "internal error",
// and after a failure leave no file behind (every --out / --pcap points into an empty folder that
// is checked again). The cases run as an unprivileged user (nobody when the tests run as root, else
// the tests' own user) in a private temporary folder, so that a path escaping it fails with a
// permission error instead of overwriting a system file: one long-lived process
// (test/cli/as-user.mjs) runs them through main() (host/cli/main.ts, built); sweep, which starts worker
// threads, is spawned a few times, as the same user. One seed: the same cases every run. The count
// of cases per command is printed at the end and quoted in docs/config.md ("CLI fuzz test").
import { execFile, spawn } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { packageRoot } from '../../host/core/loader.js';
import { xorshift32 } from '../fuzz.js';
import { packageFor, releasePackageCopy, type CliResult } from '../helpers.js';
import { buildIr } from '../../codegen/ir.js';
import { defaultDevice } from '../../codegen/device.js';
import { headroomFromModel } from '../../codegen/index.js';
import { sonicTables } from '../../codegen/sonic.js';
import { parseConfig } from '../../host/config/index.js';

// DCBKIT_FUZZ_SEED explores other cases; the default keeps every run identical.
const SEED = Number(process.env.DCBKIT_FUZZ_SEED ?? 20261123);
const next = xorshift32(SEED);
const pick = <T>(list: readonly T[]): T => list[next() % list.length];
const chance = (p: number): boolean => next() / 2 ** 32 < p;

const work = mkdtempSync(join(tmpdir(), 'dcbkit-cli-fuzz-'));
/** Outputs go only here; after each failing case it must be empty again. */
const outs = join(work, 'outs');
mkdirSync(outs);
const cwdBefore = readdirSync(process.cwd()).sort();

// Who runs the cases: nobody when the tests run as root, else the tests' own (unprivileged) user.
// `work` (mode 0700) is theirs alone besides root's; the inputs the test writes there are readable.
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
if (asRoot) {
  chownSync(work, NOBODY, NOBODY);
  chownSync(outs, NOBODY, NOBODY);
}
chmodSync(work, 0o700);
/** `node ARGS` as the case user: through setpriv (util-linux) when root, directly otherwise. */
const asCaseUser = (nodeArgs: string[]): [string, string[]] =>
  asRoot ? ['setpriv', ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
const caseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, LANG: 'C.UTF-8', TMPDIR: work };

/** The package as the case user reads it (test/helpers.ts packageFor). */
const caseRoot = asRoot ? packageFor(NOBODY) : packageRoot();

const CASE_MARK = '\u0001dcbkit-case\u0001';
/** The long-lived process that runs the in-process cases as the case user (test/cli/as-user.mjs). */
const runner = (() => {
  const [cmd, args] = asCaseUser([join(caseRoot, 'test', 'cli', 'as-user.mjs')]);
  const child = spawn(cmd, args, { cwd: work, env: caseEnv, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: ((r: CliResult) => void)[] = [];
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (line.startsWith(CASE_MARK)) waiting.shift()!(JSON.parse(line.slice(CASE_MARK.length)) as CliResult);
    }
  });
  child.on('exit', (code) => {
    for (const w of waiting.splice(0)) w({ status: -1, stdout: '', stderr: `the case runner exited (${code})` });
  });
  return {
    run: (args: string[]) => new Promise<CliResult>((done) => {
      waiting.push(done);
      child.stdin.write(JSON.stringify(args) + '\n');
    }),
    stop: () => child.stdin.end(),
  };
})();
/** `dcbkit ...args` in its own process (sweep starts worker threads), as the case user, in `work`. */
function spawnCase(args: string[]): Promise<CliResult> {
  const [cmd, argv] = asCaseUser([join(caseRoot, 'dist', 'host', 'cli', 'main.js'), ...args]);
  return new Promise((done) => {
    const child = execFile(cmd, argv, { cwd: work, env: caseEnv, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => done({ status: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
    child.stdin!.end();
  });
}

afterAll(() => {
  runner.stop();
  rmSync(work, { recursive: true, force: true });
  releasePackageCopy(caseRoot);
});

// ---------------------------------------------------------------------------------------------
// Values

/** Stands for a number JSON.stringify cannot write (1e400, 2^64): replaced in the text afterwards. */
const RAW = (text: string) => `\u0001RAW:${text}\u0001`;
const unRaw = (text: string) => text.replace(/"?\u0001RAW:([^\u0001]*)\u0001"?/g, '$1');

function deep(depth: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = chance(0.5) ? [v] : { k: v };
  return v;
}

const NASTY_STRINGS = [
  '', ' ', '-1', '0', '-0', '1e400', 'NaN', 'Infinity', '-Infinity', '9'.repeat(400), '0x', '0xZZ', '1e9999G', '100Q', '-3m',
  '💥💥', 'ｆｕｌｌ', 'a\u0000b', '\u0000', '\u202egnp', '\ud800', 'x'.repeat(5000), '../../../etc/passwd', '%s%n', '${HOME}',
  '3:', ':', '3:1,3:1', '8:1', '0:65536', 'ff:ff:ff:ff:ff:ff', '01:00:00:00:00:00', 'G', '1.5.5', '__proto__', 'constructor', 'toString',
];

/** A wrong, odd or extreme value of any JSON type. */
function nastyValue(): unknown {
  switch (next() % 10) {
    case 0: return pick([RAW('1e400'), RAW('-1e400'), RAW('18446744073709551616'), RAW('1e21'), RAW('-0'), RAW('4.9e-324')]);
    case 1: return pick([-1, 0, 0.5, 2 ** 31, 2 ** 32, 2 ** 53 + 2, -(2 ** 53), 1e300, 65536, 16385, 63, 64, 7, 8]);
    case 2: case 3: return pick(NASTY_STRINGS);
    case 4: return pick([true, false, null]);
    case 5: return pick([[], {}, [1, 2, 3], ['a'], { a: 1 }]);
    case 6: return deep(1 + (next() % 3000));
    case 7: return Array.from({ length: next() % 40 }, () => pick([0, 1, 'x', null]));
    case 8: return String.fromCodePoint(...Array.from({ length: 1 + (next() % 12) }, () => next() % 0x2ffff));
    default: return next() % 2 === 0 ? next() : -(next() % 1000);
  }
}

/**
 * JSON.stringify, falling back to a loop for nesting too deep for V8's recursive one (whose stack
 * limit differs from process to process: a 3,000-deep case passed alone and overflowed in CI). The
 * text is the same either way, so the cases do not depend on the process.
 */
function jsonText(v: unknown): string | undefined {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  const out: string[] = [];
  // Work items: a value to write, or a literal piece of text (closing brackets, commas, keys).
  const todo: ({ value: unknown } | { text: string })[] = [{ value: v }];
  while (todo.length) {
    const item = todo.pop()!;
    if ('text' in item) { out.push(item.text); continue; }
    const x = item.value;
    if (Array.isArray(x)) {
      const parts: ({ value: unknown } | { text: string })[] = [{ text: '[' }];
      x.forEach((e, i) => { if (i) parts.push({ text: ',' }); parts.push(e === undefined || typeof e === 'function' ? { text: 'null' } : { value: e }); });
      parts.push({ text: ']' });
      todo.push(...parts.reverse());
    } else if (x !== null && typeof x === 'object') {
      const entries = Object.entries(x).filter(([, e]) => e !== undefined && typeof e !== 'function');
      const parts: ({ value: unknown } | { text: string })[] = [{ text: '{' }];
      entries.forEach(([k, e], i) => { parts.push({ text: `${i ? ',' : ''}${JSON.stringify(k)}:` }, { value: e }); });
      parts.push({ text: '}' });
      todo.push(...parts.reverse());
    } else {
      out.push(JSON.stringify(x) ?? 'null');
    }
  }
  return out.join('');
}

/** A command-line value: mostly wrong, sometimes plausible. */
function nastyArg(plausible: readonly string[] = []): string {
  if (plausible.length && chance(0.35)) return pick(plausible);
  const v = nastyValue();
  return typeof v === 'string' ? unRaw(v) : unRaw(jsonText(v) ?? 'undefined');
}

// ---------------------------------------------------------------------------------------------
// Documents

type Json = unknown;
const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] => v !== null && typeof v === 'object';

function paths(v: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (isContainer(v)) {
    for (const [k, c] of Object.entries(v)) {
      const p = [...at, Array.isArray(v) ? Number(k) : k];
      out.push(p);
      paths(c, p, out);
    }
  }
  return out;
}

/** A copy of `doc` with 1..3 values replaced, keys removed, added or misspelt. `keep` names keys left alone. */
function mutate(doc: Json, keep: readonly string[] = []): Json {
  const copy = structuredClone(doc);
  for (let n = 1 + (next() % 3); n > 0; n--) {
    const all = paths(copy).filter((p) => !keep.includes(String(p[p.length - 1])));
    if (!all.length) break;
    const p = pick(all);
    const parent = p.slice(0, -1).reduce<Json>((o, k) => (isContainer(o) ? (o as Record<string, unknown>)[k] : undefined), copy);
    if (!isContainer(parent)) continue;
    const key = p[p.length - 1];
    // an own property even for `__proto__`, as JSON.parse makes it
    const set = (k: PropertyKey, v: unknown) => Object.defineProperty(parent, k, { value: v, enumerable: true, writable: true, configurable: true });
    const obj = parent as Record<string, unknown>;
    switch (next() % 6) {
      case 0: delete obj[key]; break;
      case 1: if (!Array.isArray(parent)) set(`${String(key)}x`, obj[key]); delete obj[key]; break;
      case 2: if (!Array.isArray(parent)) set(pick(['bogus', '💥', '', '__proto__', String(key).toUpperCase()]), nastyValue()); break;
      default: set(key, nastyValue());
    }
  }
  return copy;
}

function asText(doc: Json): string {
  if (chance(0.5)) return unRaw(jsonText(doc) ?? 'null');
  try {
    return unRaw(stringifyYaml(doc, { aliasDuplicateObjects: false }));
  } catch {
    return unRaw(jsonText(doc) ?? 'null');
  }
}

const BILLION_LAUGHS = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n' +
  Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`).join('\n') + '\n';

/** Text of a document to read: mostly a mutated `base`, else bytes, garbage, deep nesting or alias bombs. */
function documentText(base: Json, keep: readonly string[] = []): string | Uint8Array {
  switch (next() % 12) {
    case 0: return Uint8Array.from({ length: next() % 400 }, () => next() & 0xff);
    case 1: return String.fromCodePoint(...Array.from({ length: next() % 200 }, () => pick([0, 9, 10, 13, 0x22, 0x7b, 0x5b, 0x3a, 0x2d, next() % 0x10ffff]))).replace(/[\ud800-\udfff]/g, '?');
    case 2: { const d = 1 + (next() % 20000); return chance(0.5) ? '['.repeat(d) + ']'.repeat(d) : '{"a":'.repeat(d) + '1' + '}'.repeat(d); }
    case 4: return asText(base); // the happy path too: its outputs must appear, and be cleaned up
    case 3: return pick([BILLION_LAUGHS, '', '---\n...\n', '- 1\n- 2\n', 'null', '"just a string"', '42', 'a: b: c', '{', '\ufeff{}', 'a: 1\na: 2\n', '!!binary AAAA', 'x: !!js/function "f"']);
    default: return asText(mutate(base, keep));
  }
}

let fileCount = 0;
function writeInput(content: string | Uint8Array, ext = pick(['.yaml', '.json', '.yml', '', '.txt'])): string {
  const path = join(work, `in-${fileCount++}${ext}`);
  writeFileSync(path, content);
  return path;
}

const root = packageRoot();
const readJson = (p: string): Json => parseYaml(readFileSync(join(root, p), 'utf8'));
const CONFIGS = ['examples/configs/converged.yaml', 'examples/configs/roce.yaml', 'examples/configs/cee-pg.yaml', 'examples/configs/mixed-tc.yaml'].map(readJson);
const DEVICES = ['examples/codegen/device-2port.yaml', 'examples/codegen/device-4q.yaml'].map(readJson);
// A short run: the fuzz keeps duration and sample as they are (a valid but huge duration is a long
// run, not a crash; run budgets are checked elsewhere) and gives them only invalid values.
const SCENARIO = { ...(readJson('examples/sim-tiny/scenario.yaml') as Record<string, unknown>), duration: '20us', sample: '2us' };
const SCENARIO_KEEP = ['duration', 'sample', 'start', 'stop', 'interval', 'on_time', 'off_time', 'detection_time', 'restoration_time', 'poll_interval', 'timer'];
const BAD_TIMES = ['-1us', 'soon', '', '1e400us', -1, null, {}, [], 'NaN', '💥', RAW('1e400'), '20 parsecs'];
const ETS = { prio_tc: [0, 0, 1, 1, 2, 2, 3, 3], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 40, 20, 0, 0, 0, 0, 0] };
const STIMULI: Record<string, Json> = {
  'qcn-rp': { seed: 1, params: {}, events: [{ t_ps: 0, type: 'cnm', qf: 40 }, { t_ps: 1_200_000, type: 'tx', bytes: 1500, backlog: 0 }, { t_ps: 15_000_000_000, type: 'tick' }] },
  'qcn-cp': { params: { q_eq: 26000, w: 2, quantiser: 'linear' }, events: [{ type: 'enq', bytes: 60000, src: 3 }, { type: 'enq', bytes: 1500, src: 1 }, { type: 'deq', bytes: 1500 }] },
  ets: { max_frame: 1518, ets: ETS, events: [{ type: 'enq', prio: 0, bytes: 1500 }, { type: 'enq', prio: 2, bytes: 1000 }, { type: 'block', tcs: [0] }, { type: 'tx' }, { type: 'tx' }] },
  pfc: {
    params: { speed: '100G', enable: [3], xoff: 3000, xon: 1500, headroom: 6000, pause_time: 100 },
    events: [{ t_ps: 0, type: 'arrive', prio: 3, bytes: 1500 }, { t_ps: 700_000, type: 'tick' }, { t_ps: 800_000, type: 'depart', prio: 3, bytes: 1500 },
      { t_ps: 900_000, type: 'rx_pfc', enable_vector: 8, time: [0, 0, 0, 100, 0, 0, 0, 0] }],
  },
  credit: {
    params: { k: 16, unit: 64, buffer_bytes: 6400, aging_ps: 1_000_000 },
    events: [{ t_ps: 0, type: 'grant_tx' }, { t_ps: 10, type: 'grant_rx' }, { t_ps: 20, type: 'send', bytes: 1500 }, { t_ps: 40, type: 'data_rx', bytes: 1500 }, { t_ps: 90, type: 'tick' }],
  },
};

// ---------------------------------------------------------------------------------------------
// Running and judging one case

/** Runs `dcbkit ...args` in the case runner (one process, as the case user), capturing what it writes. */
function inProcess(args: string[]): Promise<CliResult> {
  return runner.run(args);
}

interface Tally { cases: number; ok: number; bad: number }
const tally = new Map<string, Tally>();
const failures: string[] = [];
let outCount = 0;
/** A fresh output path inside `outs` (not created). */
const outPath = (ext = '') => join(outs, `o${outCount++}${ext}`);
/**
 * An output path for --out / --pcap: mostly a fresh one, else an odd one that still lies inside
 * `outs` (an odd value must never reach a real file: `../../../etc/passwd` relative to the
 * working directory would be one).
 */
function outArg(ext = ''): string {
  if (chance(0.8)) return outPath(ext);
  const odd = nastyArg().replace(/[/\\]/g, '_').slice(0, 200);
  return pick(['', join(outs, 'a\u0000b'), join(outs, /^\.*$/.test(odd) ? `_${odd}` : odd)]);
}

function judge(command: string, args: string[], r: CliResult, results: readonly number[] = [0, 2]): void {
  const t = tally.get(command) ?? { cases: 0, ok: 0, bad: 0 };
  tally.set(command, t);
  t.cases++;
  const shown = `dcbkit ${args.map((a) => JSON.stringify(a.length > 80 ? a.slice(0, 77) + '...' : a)).join(' ')}`;
  const fail = (why: string) => failures.push(`${shown}\n    ${why}\n    ${r.stderr.split('\n').slice(0, 4).join('\n    ')}`);
  if (!results.includes(r.status)) fail(`exit ${r.status}`);
  else if (r.status === 2) t.bad++;
  else t.ok++;
  if (/internal error|\n\s+at .+:\d+:\d+\)?\n/.test(r.stderr)) fail('stack trace or internal error on stderr');
  if (r.status === 2) {
    const left = readdirSync(outs);
    if (left.length) fail(`left behind after a failure: ${left.join(', ')}`);
    if (args.includes('--json')) {
      try {
        const doc = JSON.parse(r.stdout) as { problems?: unknown[] };
        if (!Array.isArray(doc.problems) || doc.problems.length === 0) fail('--json: stdout is not {"problems": [...]}');
      } catch {
        fail('--json: stdout is not one JSON document');
      }
    } else if (r.stdout !== '') fail('output on stdout after a failure');
    if (r.stderr.trim() === '') fail('exit 2 without a message');
  }
  for (const f of readdirSync(outs)) rmSync(join(outs, f), { recursive: true, force: true });
}

async function fuzz(command: string, count: number, makeArgs: () => string[], results: readonly number[] = [0, 2]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const args = makeArgs();
    judge(command, args, await inProcess(args), results);
  }
}

const maybe = (p: number, ...words: string[]): string[] => (chance(p) ? words : []);

// ---------------------------------------------------------------------------------------------

describe('CLI fuzz', () => {
  it('runs the cases as an unprivileged user in a private folder: an escaping path is a permission error, not a write', async () => {
    expect((await inProcess(['versions'])).status).toBe(0); // the runner works at all
    if (asRoot) expect(readFileSync('/proc/self/status', 'utf8')).toMatch(/^Uid:\s+0\b/m); // the test itself is root...
    const escape = `${'../'.repeat(12)}etc/dcbkit-fuzz-escape-${process.pid}.pcap`;
    const r = await inProcess(['frames', 'pfc', '--pause', '3:65535', '--pcap', escape]);
    expect(existsSync(`/etc/dcbkit-fuzz-escape-${process.pid}.pcap`)).toBe(false); // ...the case user may not write there
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/^--pcap: .*(permission denied|EACCES)/im);
    expect(statSync(work).mode & 0o777).toBe(0o700);
    if (asRoot) expect(statSync(work).uid).toBe(NOBODY);
  });

  it('validate, schema, examples: any document or value exits 0 or 2 with problems, nothing else', async () => {
    await fuzz('validate', 400, () => {
      const base = pick([...CONFIGS, ...CONFIGS, SCENARIO, ...DEVICES]);
      return ['validate', writeInput(documentText(base)), ...maybe(0.3, '--kind', nastyArg(['config', 'scenario', 'device'])), ...maybe(0.3, '--json')];
    });
    await fuzz('schema', 40, () => ['schema', nastyArg(['config', 'scenario', 'device']), ...maybe(0.5, '--out', outArg('.json'))]);
    await fuzz('examples', 10, () => ['examples', ...maybe(0.5, '--json'), ...maybe(0.5, nastyArg())]);
  }, 600_000);

  it('vectors: random stimuli for every kernel', async () => {
    for (const kernel of Object.keys(STIMULI)) {
      await fuzz(`vectors ${kernel}`, 80, () => ['vectors', kernel, '--stimulus', writeInput(documentText(STIMULI[kernel]), '.json')]);
    }
    await fuzz('vectors ?', 10, () => ['vectors', nastyArg(Object.keys(STIMULI)), '--stimulus', writeInput(documentText(STIMULI.ets))]);
  }, 600_000);

  it('headroom and frames: random option values', async () => {
    await fuzz('headroom', 150, () => [
      'headroom', '--speed', nastyArg(['100G', '25G', '400G', '800G']), '--cable', nastyArg(['300m', '2km', '0m']),
      ...maybe(0.6, '--mtu', nastyArg(['9216', '1500'])), ...maybe(0.3, '--lossless-mtu', nastyArg(['1500', '9216'])),
      ...maybe(0.3, '--interface-delay', nastyArg(['1024'])), ...maybe(0.3, '--profile', nastyArg(['ieee', 'sonic'])), ...maybe(0.4, '--json'),
    ]);
    const output = () => (chance(0.5) ? ['--pcap', outArg('.pcap')] : maybe(0.5, '--json'));
    await fuzz('frames pfc', 80, () => ['frames', 'pfc', '--pause', nastyArg(['3:65535,4:4660', '0:0']), ...maybe(0.3, '--src', nastyArg(['02:00:00:00:00:01'])), ...maybe(0.2, '--fcs'), ...output()]);
    await fuzz('frames pause', 50, () => ['frames', 'pause', '--time', nastyArg(['65535', '0']), ...maybe(0.3, '--dst', nastyArg()), ...output()]);
    await fuzz('frames cnm', 60, () => [
      'frames', 'cnm', '--qf', nastyArg(['40', '63']), '--dst', nastyArg(['02:00:00:00:00:02']),
      ...maybe(0.3, '--cpid', nastyArg(['0011223344556677'])), ...maybe(0.3, '--qoff', nastyArg(['-5'])), ...maybe(0.3, '--qdelta', nastyArg(['3'])),
      ...maybe(0.3, '--prio', nastyArg(['3'])), ...maybe(0.3, '--vlan', nastyArg(['100', '4095'])), ...output(),
    ]);
    await fuzz('frames ce', 60, () => [
      'frames', 'ce', ...(chance(0.5) ? ['--grant', '--cl', nastyArg(['3:100,4:7'])] : ['--sync', '--tbs', nastyArg(['3:48']), ...maybe(0.5, '--request', nastyArg(['3:2']))]),
      ...maybe(0.3, '--channel', nastyArg(['7', '65535'])), ...output(),
    ]);
  }, 600_000);

  it('dcbx encode, decode and negotiate: random configs, captures and hex', async () => {
    const pcap = outPath('.pcap');
    expect((await inProcess(['dcbx', 'encode', join(caseRoot, 'examples/configs/converged.yaml'), '--pcap', pcap])).status).toBe(0);
    const capture = readFileSync(pcap);
    rmSync(pcap);
    const mutatedCapture = (): Uint8Array => {
      const b = Uint8Array.from(capture);
      for (let n = 1 + (next() % 4); n > 0; n--) b[next() % b.length] ^= 1 << (next() % 8);
      return chance(0.3) ? b.subarray(0, next() % b.length) : b;
    };
    await fuzz('dcbx encode', 60, () => [
      'dcbx', 'encode', writeInput(documentText(pick(CONFIGS))), ...maybe(0.3, '--src', nastyArg(['02:00:00:00:00:09'])),
      ...maybe(0.3, '--mode', nastyArg(['ieee', 'cee'])), ...(chance(0.4) ? ['--pcap', outPath('.pcap')] : maybe(0.5, '--json')),
    ]);
    await fuzz('dcbx decode', 120, () => chance(0.3)
      ? ['dcbx', 'decode', '--hex', nastyArg([capture.subarray(40).toString('hex'), '0180c2000001']), ...maybe(0.5, '--json')]
      : ['dcbx', 'decode', writeInput(chance(0.6) ? mutatedCapture() : documentText(pick(CONFIGS)), '.pcap'), ...maybe(0.5, '--json'), ...maybe(0.2, '--fcs')]);
    await fuzz('dcbx negotiate', 40, () => [
      // roce.yaml's MAC differs from the others' (the two ends of a link need distinct MACs)
      'dcbx', 'negotiate', writeInput(documentText(pick([CONFIGS[0], CONFIGS[2], CONFIGS[3]]))), writeInput(chance(0.5) ? asText(CONFIGS[1]) : documentText(CONFIGS[1])),
      ...maybe(0.3, '--duration', nastyArg(['5', '1'])), ...maybe(0.3, '--mode', nastyArg(['ieee', 'cee'])), ...maybe(0.5, '--json'),
    ]);
  }, 600_000);

  it('codegen: random configs and devices, every target', async () => {
    await fuzz('codegen', 100, () => [
      'codegen', writeInput(documentText(pick(CONFIGS))), ...maybe(0.5, '--device', writeInput(documentText(pick(DEVICES)))),
      '--target', pick(['sonic', 'p4', 'linux', 'c-header', 'lldp', 'dpdk', 'all']), '--out', outArg(), ...maybe(0.3, '--json'),
    ]);
  }, 600_000);

  it('run and analyze deadlock: random scenarios (short runs: duration and sample only get invalid values)', async () => {
    await fuzz('run', 80, () => {
      const doc = chance(0.15) ? { ...SCENARIO, [pick(['duration', 'sample'])]: pick(BAD_TIMES) } : SCENARIO;
      return ['run', writeInput(documentText(doc, SCENARIO_KEEP)), ...(chance(0.5) ? ['--out', outPath()] : ['--json'])];
    });
    // exit 1 means "a cycle was found" for analyze deadlock, a result like 0
    await fuzz('analyze deadlock', 60, () => ['analyze', 'deadlock', writeInput(documentText(SCENARIO)), ...maybe(0.5, '--json')], [0, 1, 2]);
  }, 600_000);

  it('sweep (spawned: it starts worker threads): random parameters and scenarios', async () => {
    const sweepBase = { ...(readJson('test/fixtures/sweep-tiny.yaml') as Record<string, unknown>), duration: '20us', sample: '2us' };
    const PARAMS = ['seed=1,2', 'nope.path=1', 'duration=', '=1', 'links[0].speed=1e400G', 'seed=💥', 'seed', 'traffic.flows.0.rate=1G,2G', 'defaults.link.speed=7G,10G', 'hosts=1'];
    const cases = Array.from({ length: 8 }, (_, i) => {
      const file = writeInput(i < 4 ? stringifyYaml(sweepBase) : documentText(sweepBase, SCENARIO_KEEP), '.yaml');
      if (i < 2) return ['sweep', file, '--param', 'seed=1,2', '--jobs', '1', '--out', outPath(), ...maybe(0.5, '--json')];
      return ['sweep', file, '--param', pick(PARAMS), ...maybe(0.5, '--param', pick(PARAMS)), '--jobs', '1', '--out', outPath(), ...maybe(0.3, '--metric', nastyArg(['throughput_bps']))]
        .map((a) => a.replace(/\u0000/g, '')); // argv of a process cannot hold NUL
    });
    // one at a time: each judged before the next writes into `outs`
    for (const args of cases) judge('sweep', args, await spawnCase(args));
  }, 600_000);

  it('gen clos, completion and sweep-merge: random flags, and damaged shard outputs', async () => {
    await fuzz('gen clos', 120, () => [
      'gen', nastyArg(['clos']), '--k', nastyArg(['4', '2', '6']), '--flows', nastyArg(['3', '1', '16']), '--duration', nastyArg(['5us', '1us']),
      ...maybe(0.3, '--seed', nastyArg(['7'])), ...maybe(0.3, '--speed', nastyArg(['100G', '25G'])),
      ...maybe(0.3, '--pattern', nastyArg(['random', 'permutation', 'incast'])), ...maybe(0.1, nastyArg()),
    ]);
    // Plausible flags: what gen prints, validate accepts.
    for (let i = 0; i < 10; i++) {
      const k = pick([2, 4, 6]);
      const pattern = pick(['random', 'permutation', 'incast']);
      const hosts = (k * k * k) / 4;
      const flows = 1 + (next() % (pattern === 'random' ? 3 * hosts : pattern === 'permutation' ? hosts : hosts - 1));
      const g = await inProcess(['gen', 'clos', '--k', String(k), '--flows', String(flows), '--duration', '5us', '--pattern', pattern, '--seed', String(next())]);
      expect(g.status, g.stderr).toBe(0);
      const v = await inProcess(['validate', writeInput(g.stdout, '.yaml')]);
      expect(v.status, v.stderr).toBe(0);
    }
    // yargs prints the script with console.log (vitest shows it); a few cases: it used to exit the process.
    await fuzz('completion', 5, () => ['completion', ...maybe(0.7, nastyArg(['bash', 'zsh']))]);
    // sweep-merge over the two shards of a real sweep, one of them damaged each time: its run.json
    // or a point summary mutated, truncated, replaced by noise, or removed.
    const sweepBase = { ...(readJson('test/fixtures/sweep-tiny.yaml') as Record<string, unknown>), duration: '20us', sample: '2us' };
    const scenario = writeInput(stringifyYaml(sweepBase), '.yaml');
    const shards = [0, 1].map((i) => join(work, `in-shard${i}`));
    for (const [i, dir] of shards.entries()) {
      const r = await spawnCase(['sweep', scenario, '--param', 'seed=1,2,3', '--jobs', '1', '--shard', `${i}/2`, '--out', dir]);
      expect(r.status, r.stderr).toBe(0);
    }
    let damaged = 0;
    const damage = (): string => {
      const dir = join(work, `in-damaged${damaged++}`);
      cpSync(shards[0], dir, { recursive: true });
      const file = join(dir, chance(0.5) ? 'run.json' : pick(['points/0.summary.json', 'points/2.summary.json']));
      const text = readFileSync(file, 'utf8');
      switch (next() % 4) {
        case 0: writeFileSync(file, documentText(JSON.parse(text) as Json)); break;
        case 1: writeFileSync(file, text.slice(0, next() % text.length)); break;
        case 2: writeFileSync(file, Uint8Array.from({ length: next() % 64 }, () => next() % 256)); break;
        default: rmSync(file);
      }
      return dir;
    };
    await fuzz('sweep-merge', 80, () => {
      const dirs = chance(0.8) ? [damage(), shards[1]] : [pick([...shards, work, join(work, 'nope'), nastyArg()]), ...maybe(0.5, shards[1])];
      return ['sweep-merge', ...(chance(0.5) ? dirs : dirs.reverse()), '--out', outArg(), ...maybe(0.3, '--json')];
    });
  }, 600_000);

  // last, so the cases before it draw the same numbers as before it was added
  it('audit: random configs against random CONFIG_DB dumps, and odd device flags', async () => {
    // the tables codegen writes for roce.yaml, then mutated; exit 1 (differences found) is a result like 0
    const dump = sonicTables(buildIr(parseConfig(CONFIGS[1]).config, defaultDevice, { headroom: headroomFromModel })) as unknown as Json;
    await fuzz('audit', 100, () => {
      const config = writeInput(chance(0.6) ? asText(CONFIGS[1]) : documentText(pick(CONFIGS)));
      const dumpText = chance(0.8) ? unRaw(jsonText(mutate(dump)) ?? 'null') : documentText(dump);
      const source = chance(0.85)
        ? ['--sonic', writeInput(dumpText, '.json')]
        : pick([['--linux', nastyArg()], ['--sonic-redis', `unix:${join(work, 'none.sock')}`], ['--sonic-redis', pick(['', 'localhost', ':1', 'x:99999', 'unix:'])], [], ['--sonic', writeInput('{}'), '--linux', 'lo']]);
      return ['audit', config, ...source, ...maybe(0.3, '--json')];
    }, [0, 1, 2]);
  }, 600_000);

  afterAll(() => {
    const rows = [...tally].map(([c, t]) => `| ${c} | ${t.cases} | ${t.ok} | ${t.bad} |`);
    const total = [...tally.values()].reduce((s, t) => s + t.cases, 0);
    process.stdout.write(`\nCLI fuzz (seed ${SEED}): ${total} cases\n| command | cases | result (exit 0, or 0/1 for analyze) | exit 2 |\n|---|---|---|---|\n${rows.join('\n')}\n`);
  });

  it('found no crash, stack trace, stray output or leftover file', () => {
    expect(tally.size).toBeGreaterThan(10); // the cases above ran
    expect(failures.slice(0, 20).join('\n')).toBe('');
    expect(existsSync(outs) && readdirSync(outs)).toEqual([]);
    // nothing was written beside the inputs either, nor in the working directory
    expect(readdirSync(work).filter((f) => !f.startsWith('in-') && f !== 'outs')).toEqual([]);
    expect(readdirSync(process.cwd()).sort()).toEqual(cwdBefore);
  });
});
