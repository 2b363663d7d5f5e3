// zod issues -> `path: rule` lines (host/errors/problems.ts): every line names the field, and zod's generic
// wording ("Invalid input: expected array, received undefined") becomes the rule it stands for.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../../host/errors/errors.js';
import { parseOrThrow } from '../../host/errors/problems.js';

const schema = z.strictObject({
  params: z.strictObject({ line_bps: z.number().optional() }).default({}),
  ets: z.strictObject({ prio_tc: z.array(z.number()) }),
  mode: z.enum(['pfc', 'pause']).optional(),
  events: z.array(z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('arrive'), bytes: z.number().int().min(64, 'a frame is at least 64 B') }),
    z.strictObject({ type: z.literal('depart') }),
  ])).default([]),
});

function lines(doc: unknown, against: z.ZodType = schema): string[] {
  try {
    parseOrThrow(against, doc);
  } catch (e) {
    if (e instanceof InputError) return e.problems.map((p) => `${p.path}: ${p.rule}`);
    throw e;
  }
  throw new Error('expected an InputError');
}

describe('zod issues as path: rule', () => {
  it('an unknown key is named in the path, one line per key, with the keys allowed there', () => {
    expect(lines({ params: { line_bsp: 1, speeed: 2 }, ets: { prio_tc: [] } })).toEqual([
      'params.line_bsp: unknown key; allowed keys here: line_bps',
      'params.speeed: unknown key; allowed keys here: line_bps',
    ]);
  });

  it('a missing field is "required", a wrong type says what it got', () => {
    expect(lines({})).toEqual(['ets: required (object)']);
    expect(lines({ ets: { prio_tc: 'none' } })).toEqual(['ets.prio_tc: must be array, got string']);
  });

  it('an enum or discriminator lists the allowed values', () => {
    expect(lines({ ets: { prio_tc: [] }, mode: 'both' })).toEqual(['mode: must be one of pfc, pause']);
    expect(lines({ ets: { prio_tc: [] }, events: [{ type: 'leave' }] })).toEqual(['events[0].type: must be one of arrive, depart']);
  });

  it("keeps the schema's own messages", () => {
    expect(lines({ ets: { prio_tc: [] }, events: [{ type: 'arrive', bytes: 10 }] })).toEqual(['events[0].bytes: a frame is at least 64 B']);
  });
});

describe('zod bounds, unions and misspellings in words', () => {
  const s = z.strictObject({
    seed: z.number().int().min(0).max(0xffffffff).optional(),
    list: z.array(z.number()).max(2).optional(),
    duration: z.union([z.number(), z.string()]),
  });
  const rules = (doc: unknown) => lines(doc, s);

  it('says the tightest broken bound once, without zod wording', () => {
    expect(rules({ seed: 1e300, duration: '1us' })).toEqual(['seed: must be at most 4294967295']);
    expect(rules({ seed: -1, duration: '1us' })).toEqual(['seed: must be at least 0']);
    expect(rules({ list: [1, 2, 3], duration: '1us' })).toEqual(['list: must have at most 2 entries']);
  });

  it('a union left out is required; a key misspelt next to it is said once, with the key meant', () => {
    expect(rules({})).toEqual(['duration: required (number or string)']);
    expect(rules({ duraton: 5 })).toEqual(['duraton: unknown key; did you mean duration? (allowed keys here: seed, list, duration)']);
    // far from any missing key: no guess
    expect(rules({ colour: 5 })).toEqual(['duration: required (number or string)', 'colour: unknown key; allowed keys here: seed, list, duration']);
  });
});
