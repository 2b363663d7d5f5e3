// `dcbkit vectors <kernel> --stimulus <file|-> | --random N [--seed S] [--config CONFIG [--device D]
// [--port NAME] [--tc N | --priority P]] [--format jsonl|memh --out DIR] [--stimulus-out FILE] |
// --example`: golden vectors
// as JSON Lines, one line per input event with the kernel state after it (docs/design.md §5), or as
// $readmemh words with a manifest, a SystemVerilog package, a decoder and a replay Makefile
// (host/vectors/memh.ts, docs/rtl.md); --example prints a sample stimulus. With --config the
// ets/pfc/qcn-cp parameters come from the config's register image (host/vectors/from-config.ts),
// qcn-rp/credit's from its IR (host/vectors/from-ir.ts), for the TC or priority selected; --random
// draws a valid stimulus (host/vectors/random.ts) and prints its coverage line on stderr. The
// stimulus is validated in full before anything is printed or written, so invalid input gives exit
// 2 and no partial output; the memh directory is written as a whole or not at all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { InputError, fsReason } from '../errors/errors.js';
import { readInputText } from '../io/input.js';
import { VECTORS_OUTPUT, checkOutDir, checkOutFile, writeFileAtomic, writeTreeAtomic } from '../io/output.js';
import { Core } from '../core/loader.js';
import { parseOrThrow } from '../errors/problems.js';
import { vectorKernels } from '../vectors/index.js';
import { packageRoot } from '../core/loader.js';
import { memhFiles } from '../vectors/memh.js';
import { replayMakefile } from '../vectors/makefile.js';
import { registerView, type ConfigSource, type RegisterView } from '../vectors/from-config.js';
import { RANDOM_MAX_EVENTS, Rand, coverageLine } from '../vectors/random.js';
import type { InstanceSelector, VectorKernel } from '../vectors/registry.js';

export function readStimulus(source: string): unknown {
  const text = readInputText(source, '--stimulus');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError({ path: '--stimulus', rule: `not valid JSON: ${/call stack/i.test((e as Error).message) ? 'nested too deeply' : (e as Error).message}` });
  }
}

function findKernel(kernel: string) {
  const k = vectorKernels.find((v) => v.name === kernel);
  if (!k) {
    throw new InputError({ path: '<kernel>', rule: `unknown kernel "${kernel}"; one of ${vectorKernels.map((v) => v.name).join(', ')}` });
  }
  return k;
}

/** Where a kernel's configuration comes from besides the stimulus: a config's register image. */
export interface ConfigOptions {
  config?: string;
  device?: string;
  port?: string;
  /** The one TC (qcn-cp) or priority (qcn-rp, credit) the kernel models; default the lowest the config enables. */
  tc?: number;
  priority?: number;
}

/** A random stimulus of `events` events from `seed` (`--random N --seed S`). */
export interface RandomSpec {
  events: number;
  seed: number;
}

/** A run prepared from a stimulus or a random spec, with the config's keys in place. */
export interface PreparedRun {
  kernel: VectorKernel;
  /** The stimulus as run (configuration keys included): replaying it with --stimulus alone gives the same vectors. */
  stimulus: unknown;
  source?: ConfigSource;
  random?: RandomSpec;
}

/**
 * The stimulus the kernel runs: as given (or drawn from `random`), with its configuration keys
 * replaced by those read from the register image of `opts.config`, and the source the manifest records.
 */
export function prepareRun(kernel: string, given: unknown, opts: ConfigOptions = {}, random?: RandomSpec): PreparedRun {
  const k = findKernel(kernel);
  let fixed: Record<string, unknown> | undefined;
  let source: ConfigSource | undefined;
  let instance: number | undefined;
  if (opts.config === undefined) {
    const stray = (['device', 'port', 'tc', 'priority'] as const).find((f) => opts[f] !== undefined);
    if (stray) throw new InputError({ path: `--${stray}`, rule: `selects the ${stray === 'tc' ? 'TC' : stray} of --config; give --config too` });
  } else {
    if (!k.fromRegisters) throw new InputError({ path: '--config', rule: `kernel ${kernel} takes no config; --config configures ${vectorKernels.filter((v) => v.fromRegisters).map((v) => v.name).join(', ')}` });
    const wrong = (['tc', 'priority'] as const).find((f) => opts[f] !== undefined && k.select?.flag !== f);
    if (wrong) throw new InputError({ path: `--${wrong}`, rule: `kernel ${kernel} models no single ${wrong === 'tc' ? 'TC' : 'priority'}${k.select ? `; it takes --${k.select.flag}` : ''}` });
    const view = registerView(opts.config, opts.device, opts.port);
    if (k.select) instance = selectInstance(kernel, k.select, view, opts[k.select.flag]);
    fixed = k.fromRegisters(view, instance);
    source = k.select ? { ...view.source, [k.select.flag]: instance } : view.source;
  }
  if (random) {
    if (!k.random) throw new InputError({ path: '--random', rule: `kernel ${kernel} has no random generator; --random draws ${vectorKernels.filter((v) => v.random).map((v) => v.name).join(', ')}` });
    const drawn = k.random(new Rand(random.seed), random.events, fixed);
    return { kernel: k, stimulus: k.bindEvents && instance !== undefined ? k.bindEvents(drawn, instance) : drawn, source, random };
  }
  if (!fixed) return { kernel: k, stimulus: given, source };
  const obj = given !== null && typeof given === 'object' && !Array.isArray(given) ? (given as Record<string, unknown>) : {};
  const bound = k.bindEvents && instance !== undefined ? k.bindEvents(obj, instance) : obj;
  return { kernel: k, stimulus: { ...bound, ...fixed }, source };
}

/** The instance `--tc` / `--priority` names, checked against what the config enables; default the lowest enabled. */
function selectInstance(kernel: string, sel: InstanceSelector, view: RegisterView, given: number | undefined): number {
  const what = sel.flag === 'tc' ? 'TC' : 'priority';
  const enabled = sel.enabled(view);
  if (given === undefined) {
    if (!enabled.length) throw new InputError({ path: '--config', rule: `gives kernel ${kernel} no ${what}: every ${what} ${sel.lacks}` });
    return enabled[0];
  }
  if (!Number.isInteger(given) || given < 0 || given > 7) throw new InputError({ path: `--${sel.flag}`, rule: `must be a ${what} 0..7, got ${String(given)}` });
  if (!enabled.includes(given)) throw new InputError({ path: `--${sel.flag}`, rule: `${what} ${given} ${sel.lacks}; ${enabled.length ? `the config enables ${enabled.join(', ')}` : 'the config enables none'}` });
  return given;
}

/** Runs a prepared stimulus: the validated stimulus, the lines, the core and the coverage counts. */
export function runPrepared(p: PreparedRun) {
  const k = p.kernel;
  const s = parseOrThrow(k.stimulus, p.stimulus, '', `${k.name} stimulus`);
  const core = new Core('release');
  const lines = k.run(s, core);
  const coverage = p.random && k.coverage ? coverageLine(k.name, p.random.seed, p.random.events, lines.length, k.coverage(s, lines)) : undefined;
  return { s, lines, core, coverage };
}

/** Library form: stimulus in (validated here), output lines out. */
export function generateVectors(kernel: string, stimulus: unknown, opts: ConfigOptions = {}, random?: RandomSpec): object[] {
  return runPrepared(prepareRun(kernel, stimulus, opts, random)).lines;
}

/** Where each kernel's stimulus and output lines are documented. */
export const STIMULUS_DOCS: Record<string, string> = {
  'qcn-rp': 'docs/qcn.md', 'qcn-cp': 'docs/qcn.md', ets: 'docs/ets.md', pfc: 'docs/pfc.md', credit: 'docs/credit.md',
};

/** The sample stimulus of `kernel`, as shipped in examples/vectors/KERNEL.json. */
export function exampleStimulus(kernel: string): string {
  findKernel(kernel);
  return readFileSync(join(packageRoot(), 'examples', 'vectors', `${kernel}.json`), 'utf8');
}

const documented = () => Object.entries(STIMULUS_DOCS).map(([k, d]) => `${k} ${d}`).join(', ');

/** Library form of `--format memh`: the files of the output directory (name -> contents). */
export function generateMemh(kernel: string, stimulus: unknown, opts: ConfigOptions = {}, random?: RandomSpec): Map<string, string> {
  return memhOf(prepareRun(kernel, stimulus, opts, random));
}

function memhOf(p: PreparedRun): Map<string, string> {
  const { s, lines, core, coverage } = runPrepared(p);
  const extra = { ...(p.source ? { source: p.source } : {}), ...(coverage ? { coverage } : {}) };
  const files = memhFiles(p.kernel.name, p.kernel.memh(s, lines, core), lines, extra);
  const makefile = replayMakefile(p.kernel.name, packageRoot());
  if (makefile) files.set('Makefile', makefile);
  files.set('decode_memh.py', readFileSync(join(packageRoot(), 'rtl', 'decode_memh.py'), 'utf8'));
  return files;
}

/** --random N and --seed S as a spec (or undefined without --random). */
function randomSpec(n: unknown, seed: unknown): RandomSpec | undefined {
  if (n === undefined) {
    if (seed !== undefined) throw new InputError({ path: '--seed', rule: 'seeds --random; give --random N too' });
    return undefined;
  }
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > RANDOM_MAX_EVENTS) throw new InputError({ path: '--random', rule: `must be a whole number of events 1..${RANDOM_MAX_EVENTS}, got ${String(n)}` });
  const sd = seed ?? 1;
  if (typeof sd !== 'number' || !Number.isInteger(sd) || sd < 0 || sd > 0xffffffff) throw new InputError({ path: '--seed', rule: `must be a whole number 0..4294967295, got ${String(sd)}` });
  return { events: n, seed: sd };
}

export const vectorsCommand: CommandModule<object, { kernel: string; stimulus?: string; example?: boolean; format: string; out?: string; config?: string; device?: string; port?: string; tc?: number; priority?: number; random?: number; seed?: number; 'stimulus-out'?: string }> = {
  command: 'vectors <kernel>',
  describe: 'golden vectors: one JSON line per input event with the kernel state after it',
  builder: (y) =>
    y
      .positional('kernel', { type: 'string', describe: 'qcn-rp | qcn-cp | ets | pfc | credit', demandOption: true })
      .option('stimulus', { type: 'string', nargs: 1, requiresArg: true, describe: 'stimulus JSON file, or - for stdin' })
      .option('example', { type: 'boolean', describe: 'print a sample stimulus of the kernel (examples/vectors/KERNEL.json) instead' })
      .option('format', { type: 'string', nargs: 1, requiresArg: true, default: 'jsonl', describe: 'jsonl (JSON Lines on stdout) | memh (stimulus.memh, expected.memh, config.memh, manifest.json, dcbkit_<kernel>_pkg.sv, decode_memh.py and for ets/pfc a replay Makefile in --out)' })
      .option('out', { type: 'string', nargs: 1, requiresArg: true, describe: 'output directory of --format memh' })
      .option('config', { type: 'string', nargs: 1, requiresArg: true, describe: 'DCB config whose parameters replace the stimulus\'s own: ets, pfc, qcn-cp read from its register image (codegen --target c-header), qcn-rp and credit from its qcn.rp / credit sections (no register block)' })
      .option('device', { type: 'string', nargs: 1, requiresArg: true, describe: 'device description of --config (as codegen --device)' })
      .option('port', { type: 'string', nargs: 1, requiresArg: true, describe: 'port of --config whose PFC thresholds, speed and cable are used (default: the first)' })
      .option('tc', { type: 'number', nargs: 1, requiresArg: true, describe: 'qcn-cp with --config: the TC whose congestion point is modelled (default: the lowest with one)' })
      .option('priority', { type: 'number', nargs: 1, requiresArg: true, describe: 'qcn-rp / credit with --config: the priority whose reaction point / credit loop is modelled (default: the lowest in qcn.cp.priorities / credit.priorities)' })
      .option('random', { type: 'number', nargs: 1, requiresArg: true, describe: 'draw a valid random stimulus of N events instead of --stimulus; prints a coverage line on stderr' })
      .option('seed', { type: 'number', nargs: 1, requiresArg: true, describe: 'seed of --random (default 1): the same seed gives the same stimulus' })
      .option('stimulus-out', { type: 'string', nargs: 1, requiresArg: true, describe: 'also write the stimulus as run (config keys included) to FILE: --stimulus FILE replays it' })
      .epilogue(`Stimulus formats and output fields: ${documented()}. Start from a sample: dcbkit vectors KERNEL --example > s.json`) as never,
  handler: (args) => {
    findKernel(args.kernel);
    if (args.example) {
      if (args.stimulus !== undefined) throw new InputError({ path: '--example', rule: 'prints a sample stimulus; give it without --stimulus' });
      process.stdout.write(exampleStimulus(args.kernel));
      return;
    }
    const random = randomSpec(args.random, args.seed);
    if (random && args.stimulus !== undefined) throw new InputError({ path: '--random', rule: 'draws the stimulus; give it without --stimulus' });
    if (!random && args.stimulus === undefined) {
      throw new InputError({ path: '--stimulus', rule: `required (stimulus JSON file, or - for stdin; format in ${STIMULUS_DOCS[args.kernel]}; \`dcbkit vectors ${args.kernel} --example\` prints a sample; or --random N --seed S)` });
    }
    if (args.format !== 'jsonl' && args.format !== 'memh') throw new InputError({ path: '--format', rule: `must be jsonl or memh, got "${args.format}"` });
    if (args.format === 'memh' && args.out === undefined) throw new InputError({ path: '--out', rule: '--format memh writes a directory: give --out DIR' });
    if (args.format !== 'memh' && args.out !== undefined) throw new InputError({ path: '--out', rule: 'only with --format memh (JSON Lines go to stdout)' });
    if (args.format === 'memh') checkOutDir(args.out!, VECTORS_OUTPUT);
    if (args['stimulus-out'] !== undefined) checkOutFile(args['stimulus-out'], '--stimulus-out');
    const run = prepareRun(args.kernel, random ? undefined : readStimulus(args.stimulus!), args, random);
    let coverage: string | undefined;
    if (args.format === 'memh') {
      const files = memhOf(run);
      coverage = (JSON.parse(files.get('manifest.json')!) as { coverage?: string }).coverage;
      writeTreeAtomic(args.out!, files, VECTORS_OUTPUT);
    } else {
      const r = runPrepared(run);
      coverage = r.coverage;
      process.stdout.write(r.lines.map((l) => JSON.stringify(l)).join('\n') + (r.lines.length ? '\n' : ''));
    }
    if (args['stimulus-out'] !== undefined) writeFileAtomic(args['stimulus-out'], JSON.stringify(run.stimulus) + '\n', '--stimulus-out');
    if (coverage) process.stderr.write(`${coverage}\n`);
  },
};
