// `dcbkit schema config|scenario|device [--out FILE]`: the JSON Schema (draft 2020-12) of a document's input, for
// editors (YAML language server, VS Code) and external tools. Written atomically with --out.
import type { CommandModule } from 'yargs';
import { InputError } from '../errors/errors.js';
import { configJsonSchema } from '../config/json-schema.js';
import { writeFileAtomic } from '../io/output.js';
import { scenarioJsonSchema } from '../scenario/scenario.js';
import { deviceJsonSchema } from '../documents/kinds.js';

const schemas: Record<string, () => unknown> = { config: configJsonSchema, scenario: scenarioJsonSchema, device: deviceJsonSchema };

export const schemaCommand: CommandModule<object, { kind: string; out?: string }> = {
  command: 'schema <kind>',
  describe: `print (or write with --out) the JSON Schema of a document kind: ${Object.keys(schemas).join(' | ')}`,
  builder: (y) =>
    y
      .positional('kind', { type: 'string', demandOption: true, describe: Object.keys(schemas).join(' | ') })
      .option('out', { type: 'string', describe: 'write the schema to FILE instead of stdout' }) as never,
  handler: (args) => {
    const make = Object.hasOwn(schemas, args.kind) ? schemas[args.kind] : undefined;
    if (!make) throw new InputError({ path: '<kind>', rule: `unknown schema "${args.kind}"; one of ${Object.keys(schemas).join(', ')}` });
    const text = JSON.stringify(make(), null, 2) + '\n';
    if (args.out) writeFileAtomic(args.out, text, '--out');
    else process.stdout.write(text);
  },
};
