// parseConfig and parseOrThrow ask zod for its interpreted parse (`jitless`): no parser compiled
// with `new Function` for a document that a process reads once. The two paths must give the same
// output and the same problems, and the option must stay in effect.
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';

const CONFIGS = 'examples/configs';
const configFiles = [
  ...readdirSync(CONFIGS).filter((f) => /\.(ya?ml|json)$/.test(f)).map((f) => join(CONFIGS, f)),
  ...readdirSync(join(CONFIGS, 'invalid')).map((f) => join(CONFIGS, 'invalid', f)),
];
const scenarioFiles = readdirSync('examples')
  .map((d) => join('examples', d, 'scenario.yaml'))
  .filter((f) => existsSync(f));

function readDoc(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  return path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
}

/** A parse's outcome in comparable form: the value, or each issue's code, path and message. */
function outcome(schema: z.ZodType, doc: unknown, jitless: boolean): unknown {
  const r = schema.safeParse(structuredClone(doc), { jitless });
  if (r.success) return { data: r.data };
  return { issues: r.error.issues.map((i) => ({ code: i.code, path: i.path, message: i.message })) };
}

/** How many functions `work` builds from source (`new Function`, which zod's compiled parsers use). */
function functionsBuiltBy(work: () => void): number {
  const real = globalThis.Function;
  let built = 0;
  globalThis.Function = new Proxy(real, {
    construct(target, args) {
      built++;
      return Reflect.construct(target, args) as object;
    },
  });
  try {
    work();
  } finally {
    globalThis.Function = real;
  }
  return built;
}

describe('zod without compiled parsers', () => {
  it('parses no config and no scenario with new Function', async () => {
    // fresh modules, so that no earlier compiled-path parse has built a parser already
    vi.resetModules();
    const { parseConfig } = await import('../host/config/schema.js');
    const { parseOrThrow } = await import('../host/errors/problems.js');
    const { scenarioSchema } = await import('../host/scenario/scenario-schema.js');
    const docs = configFiles.filter((f) => !f.includes('invalid')).map(readDoc);
    const scenarios = scenarioFiles.map(readDoc);
    const built = functionsBuiltBy(() => {
      for (const d of docs) parseConfig(d);
      for (const s of scenarios) parseOrThrow(scenarioSchema, s);
    });
    expect(docs.length).toBeGreaterThan(3);
    expect(scenarios.length).toBeGreaterThan(5);
    expect(built).toBe(0);
  });

  it('the compiled path (zod default) did build parsers, so the count above can fail', async () => {
    vi.resetModules();
    const { configSchema } = await import('../host/config/schema.js');
    const built = functionsBuiltBy(() => {
      expect(configSchema.safeParse(readDoc(join(CONFIGS, 'converged.json'))).success).toBe(true);
    });
    expect(built).toBeGreaterThan(0);
  });

  it('every example config and scenario: the same output or the same problems either way', async () => {
    const { configSchema } = await import('../host/config/schema.js');
    const { scenarioSchema } = await import('../host/scenario/scenario-schema.js');
    for (const f of configFiles) {
      const doc = readDoc(f);
      expect(outcome(configSchema, doc, true), f).toEqual(outcome(configSchema, doc, false));
    }
    for (const f of scenarioFiles) {
      const doc = readDoc(f);
      expect(outcome(scenarioSchema, doc, true), f).toEqual(outcome(scenarioSchema, doc, false));
    }
  });

  it('random sections grafted onto a valid config: the same output or problems either way', async () => {
    const { configSchema } = await import('../host/config/schema.js');
    const base = readDoc(join(CONFIGS, 'converged.json')) as Record<string, unknown>;
    const section = fc.constantFrom('port', 'ets', 'pg', 'pfc', 'pause', 'qcn', 'credit', 'app', 'lldp', 'unknown_key');
    fc.assert(
      fc.property(section, fc.jsonValue({ maxDepth: 3 }), fc.boolean(), (key, value, nested) => {
        const doc = structuredClone(base);
        const old = doc[key];
        // nested: the value replaces one key inside the section, so the section's own shape is kept
        if (nested && old && typeof old === 'object' && !Array.isArray(old)) {
          const inner = Object.keys(old);
          (old as Record<string, unknown>)[inner[0] ?? 'x'] = value;
        } else {
          doc[key] = value;
        }
        expect(outcome(configSchema, doc, true)).toEqual(outcome(configSchema, doc, false));
      }),
      { numRuns: 300, seed: 36 },
    );
  });
});
