// `dcbkit versions`: the toolchain a result was produced with (also embedded in bench and manifests).
import type { CommandModule } from 'yargs';
import { toolVersions } from '../core/versions.js';

export const versionCommand: CommandModule<object, { json?: boolean }> = {
  command: 'versions',
  describe: 'print the versions of dcbkit, Node, V8 and the AssemblyScript compiler',
  builder: (y) => y.option('json', { type: 'boolean', describe: 'one JSON document on stdout' }) as never,
  handler: (args) => {
    const v = toolVersions();
    if (args.json) process.stdout.write(JSON.stringify(v) + '\n');
    else for (const [k, val] of Object.entries(v)) process.stdout.write(`${k}: ${val}\n`);
  },
};
