// `dcbkit vectors <kernel> --stimulus <file|-> [--format jsonl|memh --out DIR] | --example`: golden
// vectors as JSON Lines, one line per input event with the kernel state after it (docs/design.md
// §5), or as $readmemh words with a manifest and a SystemVerilog package (host/vectors/memh.ts,
// docs/rtl.md); --example prints a sample stimulus. The stimulus is validated in full before
// anything is printed or written, so invalid input gives exit 2 and no partial output; the memh
// directory is written as a whole or not at all.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { InputError } from '../errors.js';
import { readInputText } from '../input.js';
import { VECTORS_OUTPUT, checkOutDir, writeTreeAtomic } from '../io.js';
import { Core } from '../loader.js';
import { parseOrThrow } from '../problems.js';
import { vectorKernels } from '../vectors/index.js';
import { packageRoot } from '../loader.js';
import { memhFiles } from '../vectors/memh.js';

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

/** Library form: stimulus in (validated here), output lines out. */
export function generateVectors(kernel: string, stimulus: unknown): object[] {
  const k = findKernel(kernel);
  return k.run(parseOrThrow(k.stimulus, stimulus, '', `${k.name} stimulus`));
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
export function generateMemh(kernel: string, stimulus: unknown): Map<string, string> {
  const k = findKernel(kernel);
  const s = parseOrThrow(k.stimulus, stimulus, '', `${k.name} stimulus`);
  const core = new Core('release');
  const lines = k.run(s, core);
  return memhFiles(k.name, k.memh(s, lines, core), lines);
}

export const vectorsCommand: CommandModule<object, { kernel: string; stimulus?: string; example?: boolean; format: string; out?: string }> = {
  command: 'vectors <kernel>',
  describe: 'golden vectors: one JSON line per input event with the kernel state after it',
  builder: (y) =>
    y
      .positional('kernel', { type: 'string', describe: 'qcn-rp | qcn-cp | ets | pfc | credit', demandOption: true })
      .option('stimulus', { type: 'string', nargs: 1, requiresArg: true, describe: 'stimulus JSON file, or - for stdin' })
      .option('example', { type: 'boolean', describe: 'print a sample stimulus of the kernel (examples/vectors/KERNEL.json) instead' })
      .option('format', { type: 'string', nargs: 1, requiresArg: true, default: 'jsonl', describe: 'jsonl (JSON Lines on stdout) | memh (stimulus.memh, expected.memh, config.memh, manifest.json, dcbkit_<kernel>_pkg.sv in --out)' })
      .option('out', { type: 'string', nargs: 1, requiresArg: true, describe: 'output directory of --format memh' })
      .epilogue(`Stimulus formats and output fields: ${documented()}. Start from a sample: dcbkit vectors KERNEL --example > s.json`) as never,
  handler: (args) => {
    findKernel(args.kernel);
    if (args.example) {
      if (args.stimulus !== undefined) throw new InputError({ path: '--example', rule: 'prints a sample stimulus; give it without --stimulus' });
      process.stdout.write(exampleStimulus(args.kernel));
      return;
    }
    if (args.stimulus === undefined) {
      throw new InputError({ path: '--stimulus', rule: `required (stimulus JSON file, or - for stdin; format in ${STIMULUS_DOCS[args.kernel]}; \`dcbkit vectors ${args.kernel} --example\` prints a sample)` });
    }
    if (args.format !== 'jsonl' && args.format !== 'memh') throw new InputError({ path: '--format', rule: `must be jsonl or memh, got "${args.format}"` });
    if (args.format === 'memh') {
      if (args.out === undefined) throw new InputError({ path: '--out', rule: '--format memh writes a directory: give --out DIR' });
      checkOutDir(args.out, VECTORS_OUTPUT);
      writeTreeAtomic(args.out, generateMemh(args.kernel, readStimulus(args.stimulus)), VECTORS_OUTPUT);
      return;
    }
    if (args.out !== undefined) throw new InputError({ path: '--out', rule: 'only with --format memh (JSON Lines go to stdout)' });
    const lines = generateVectors(args.kernel, readStimulus(args.stimulus));
    process.stdout.write(lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : ''));
  },
};
