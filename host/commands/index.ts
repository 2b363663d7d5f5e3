// The CLI's commands, one module each. Add a command by importing its module and listing it here.
import type { CommandModule } from 'yargs';
import { benchCommand } from './bench.js';
import { headroomCommand } from './headroom.js';
import { vectorsCommand } from './vectors.js';
import { versionCommand } from './version.js';
import { framesCommand } from './frames.js';
import { runCommandModule } from './run.js';
import { sweepCommand } from './sweep.js';
import { validateCommand } from './validate.js';
import { schemaCommand } from './schema.js';
import { codegenCommand } from './codegen.js';
import { dcbxCommand } from './dcbx.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const commands: CommandModule<any, any>[] = [
  versionCommand,
  vectorsCommand,
  benchCommand,
  framesCommand,
  headroomCommand,
  runCommandModule,
  sweepCommand,
  validateCommand,
  schemaCommand,
  codegenCommand,
  dcbxCommand,
];
