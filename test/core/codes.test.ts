// host/core/codes.ts is the host's one copy of the core's shared codes (assembly/layout.ts): every value
// equals the core's exported constant of the same name.
import { describe, expect, it } from 'vitest';
import { CORE_CODES, TSA_CODE, TSA_NAMES, tsaNameOf } from '../../host/core/codes.js';
import { Core } from '../../host/core/loader.js';

describe('host codes', () => {
  it('equal the core exports they mirror', () => {
    const core = new Core('release');
    for (const [name, value] of Object.entries(CORE_CODES)) expect(core.constant(name), name).toBe(value);
  });

  it('map TSA names and codes both ways', () => {
    for (const n of TSA_NAMES) expect(tsaNameOf(TSA_CODE[n])).toBe(n);
    expect(tsaNameOf(3)).toBeUndefined();
  });
});
