// `dcbkit vectors <kernel> --stimulus <file|->`: golden vectors as JSON Lines, one line per input
// event with the kernel state after it (docs/design.md §5). The stimulus is validated in full before
// anything is printed, so invalid input gives exit 2 and no partial output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { InputError, fsReason } from '../errors.js';
import { parseOrThrow } from '../problems.js';
import { vectorKernels } from '../vectors/index.js';
import { packageRoot } from '../loader.js';

export function readStimulus(source: string): unknown {
  let text: string;
  try {
    text = source === '-' ? readFileSync(0, 'utf8') : readFileSync(source, 'utf8');
  } catch (e) {
    throw new InputError({ path: '--stimulus', rule: `cannot read ${source}: ${fsReason(e)}` });
  }
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

export const vectorsCommand: CommandModule<object, { kernel: string; stimulus?: string; example?: boolean }> = {
  command: 'vectors <kernel>',
  describe: 'golden vectors: one JSON line per input event with the kernel state after it',
  builder: (y) =>
    y
      .positional('kernel', { type: 'string', describe: 'qcn-rp | qcn-cp | ets | pfc | credit', demandOption: true })
      .option('stimulus', { type: 'string', nargs: 1, requiresArg: true, describe: 'stimulus JSON file, or - for stdin' })
      .option('example', { type: 'boolean', describe: 'print a sample stimulus of the kernel (examples/vectors/KERNEL.json) instead' })
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
    const lines = generateVectors(args.kernel, readStimulus(args.stimulus));
    process.stdout.write(lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : ''));
  },
};
