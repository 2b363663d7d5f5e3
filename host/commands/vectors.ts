// `dcbkit vectors <kernel> --stimulus <file|->`: golden vectors as JSON Lines, one line per input
// event with the kernel state after it (docs/design.md §5). The stimulus is validated in full before
// anything is printed, so invalid input gives exit 2 and no partial output.
import { readFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { InputError, fsReason } from '../errors.js';
import { parseOrThrow } from '../problems.js';
import { vectorKernels } from '../vectors/index.js';

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
  return k.run(parseOrThrow(k.stimulus, stimulus));
}

export const vectorsCommand: CommandModule<object, { kernel: string; stimulus: string }> = {
  command: 'vectors <kernel>',
  describe: 'golden vectors: one JSON line per input event with the kernel state after it',
  builder: (y) =>
    y
      .positional('kernel', { type: 'string', describe: 'qcn-rp | qcn-cp | ets | pfc | credit', demandOption: true })
      .option('stimulus', { type: 'string', nargs: 1, demandOption: true, requiresArg: true, describe: 'stimulus JSON file, or - for stdin' }) as never,
  handler: (args) => {
    findKernel(args.kernel);
    const lines = generateVectors(args.kernel, readStimulus(args.stimulus));
    process.stdout.write(lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : ''));
  },
};
