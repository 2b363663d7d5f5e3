import { describe, expect, it } from 'vitest';
import { Core } from '../../host/core/loader.js';
import { runCli } from '../helpers.js';

describe('core loader', () => {
  it('instantiates both builds with an exported memory and the scratch region inside it', () => {
    for (const flavour of ['release', 'debug'] as const) {
      const core = new Core(flavour);
      const scratch = core.constant('SCRATCH');
      const size = core.constant('SCRATCH_BYTES');
      expect(size).toBe(65536);
      expect(scratch % 16).toBe(0);
      expect(scratch + size).toBeLessThanOrEqual(core.memoryBytes);
    }
  });
});

describe('cli', () => {
  it('reports the toolchain versions as JSON', () => {
    const r = runCli(['versions', '--json']);
    expect(r.status).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v.assemblyscript).toBe('0.28.20');
    expect(v.node).toBe(process.versions.node);
  });

  it('exits 2 on an unknown command and writes nothing on stdout', () => {
    const r = runCli(['no-such-command']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^no-such-command: unknown command \(one of versions, /);
  });
});
