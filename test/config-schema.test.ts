// The config module as a library: normalisation, YAML/JSON equivalence, the scheduler views, the
// JSON Schema export, and fast-check properties (random valid configs survive parse -> JSON -> parse).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import {
  configJsonSchema, etsFromPg, flowControlOf, loadConfig, parseConfig, parseDocumentText, pgFromEts,
  type DcbConfig, type EtsTables, type TsaName,
} from '../host/config/index.js';
import { InputError } from '../host/errors/errors.js';

describe('normalisation', () => {
  it('an empty config is the documented defaults (802.1Q strict priority, no PFC)', () => {
    const { config, warnings } = parseConfig({});
    expect(warnings).toEqual([]);
    expect(config.port).toEqual({ name: 'Ethernet0', speed: 100e9, mtu: 9216, cable: 300, mac: '02:00:00:00:00:01' });
    expect(config.ets).toEqual({
      willing: false, cbs: false, max_tcs: 8,
      prio_tc: [1, 0, 2, 3, 4, 5, 6, 7],
      tsa: ['strict', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'],
      bw: [0, 0, 0, 0, 0, 0, 0, 0],
    });
    // xoff = 4 x 9216 = 36864 B, xon = 2 x 9216 = 18432 B
    expect(config.pfc).toEqual({
      enable: [], willing: false, mbc: false, cap: 8, pause_time: 65535, headroom: 'auto', xoff: 36864, xon: 18432,
      watchdog: { enable: false, detection_ms: 200, restoration_ms: 200, poll_ms: 200, action: 'drop' },
    });
    expect(config.pause).toEqual({ enable: false, pause_time: 65535 });
    expect(config.app).toEqual([]);
    expect(config.qcn.cp).toEqual({ priorities: [], q_eq: 26000, w: 2, quantiser: 'linear', kmin: 5000, kmax: 200000, pmax: 1 });
    // 802.1Q MIB defaults (docs/design.md §4.5): BC 150000 B, T 15 ms, TH 5, R_AI 5 Mb/s, R_HAI 50 Mb/s, Gd 1/128
    expect(config.qcn.rp).toEqual({
      profile: 'qau-pc', line_bps: 100e9, bc_bytes: 150000, timer_ps: 15_000_000_000, th: 5, ai_bps: 5e6, hai_bps: 50e6,
      gd_shift: 7, min_dec_num: 64, min_bps: 5e6, extra_fast_recovery: true,
    });
    expect(config.credit).toEqual({ priorities: [], unit: 64, aging_us: 100, counter_bits: 16, oui: '0A-DC-B0' });
    expect('pg' in config).toBe(false);
  });

  it('normalises units and spellings', () => {
    const { config } = parseConfig({
      port: { speed: '2.5G', cable: '1.5km', mac: '02-AB-CD-EF-00-01' },
      pfc: { enable: [6, 1, 3] },
      app: [{ selector: 'ethertype', protocol: '0x8906', priority: 3 }, { selector: 3, protocol: 4791, priority: 3 }],
      ets: { prio_tc: [0, 0, 0, 0, 0, 0, 0, 0], tsa: [2, 0, 0, 0, 0, 0, 0, 255], bw: [100, 0, 0, 0, 0, 0, 0, 0] },
    });
    expect(config.port.speed).toBe(2_500_000_000); // 8e12 / 2.5e9 = 3200 ps per byte
    expect(['100G', '100g', '100 G', '100Gbps', '100Gb/s', '100GbE', '100000M', '100Gbit'].map((v) => parseConfig({ port: { speed: v } }).config.port.speed))
      .toEqual(Array(8).fill(100e9));
    expect(['300m', '300 m', '0.3km'].map((v) => parseConfig({ port: { cable: v } }).config.port.cable)).toEqual([300, 300, 300]);
    expect(config.port.cable).toBe(1500);
    expect(config.port.mac).toBe('02:ab:cd:ef:00:01');
    expect(config.pfc.enable).toEqual([1, 3, 6]);
    expect(config.ets.tsa).toEqual(['ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict', 'vendor']);
    expect(config.app).toEqual([
      { selector: 1, selector_name: 'ethertype', protocol: 0x8906, priority: 3 },
      { selector: 3, selector_name: 'dgram', protocol: 4791, priority: 3 },
    ]);
  });

  it('app selectors: tcp/sctp are stream (2), udp/dccp dgram (3), port any (4), normalised to one name (802.1Qaz Table D-9)', () => {
    const given = ['tcp', 'sctp', 'stream', 2, 'udp', 'dccp', 'dgram', 3, 'port', 'any', 4];
    const { config } = parseConfig({ app: given.map((selector, i) => ({ selector, protocol: 1000 + i, priority: 1 })) });
    expect(config.app.map((e) => [e.selector, e.selector_name])).toEqual([
      [2, 'stream'], [2, 'stream'], [2, 'stream'], [2, 'stream'], [3, 'dgram'], [3, 'dgram'], [3, 'dgram'], [3, 'dgram'],
      [4, 'any'], [4, 'any'], [4, 'any'],
    ]);
    // an alias given next to the canonical selector_name is the same selector
    expect(parseConfig({ app: [{ selector: 'udp', selector_name: 'dgram', protocol: 4791, priority: 3 }] }).config.app[0].selector).toBe(3);
    // the same entry written with an alias and with its name is a repeat
    expect(() => parseConfig({ app: [{ selector: 'tcp', protocol: 3260, priority: 4 }, { selector: 'stream', protocol: 3260, priority: 4 }] }))
      .toThrow('app[1]: repeats app[0] (stream 3260 -> priority 4)');
    const schema = configJsonSchema() as { properties: { app: { items: { properties: { selector: { anyOf: { enum?: string[] }[] } } } } } };
    expect(schema.properties.app.items.properties.selector.anyOf[0].enum).toEqual(['ethertype', 'stream', 'dgram', 'any', 'dscp', 'tcp', 'sctp', 'udp', 'dccp', 'port']);
  });

  it('pfc.xoff/xon default from the MTU and qcn line rate from the port', () => {
    const { config } = parseConfig({ port: { mtu: 1500, speed: '25G' }, qcn: { rp: { profile: 'dcqcn' } } });
    expect([config.pfc.xoff, config.pfc.xon]).toEqual([6000, 3000]);
    expect(config.qcn.rp).toMatchObject({ profile: 'dcqcn', line_bps: 25e9, timer_ps: 55_000_000, g: 1 / 256, cnp_interval_ps: 50_000_000, alpha_bits: 20 });
  });

  it('YAML and JSON spellings of the converged example give the same normalised config', () => {
    const fromYaml = loadConfig('examples/configs/converged.yaml').config;
    const fromJson = loadConfig('examples/configs/converged.json').config;
    expect(fromJson).toEqual(fromYaml);
    const yamlText = readFileSync('examples/configs/converged.yaml', 'utf8');
    const asJson = JSON.stringify(parseYaml(yamlText));
    expect(parseConfig(parseDocumentText(asJson, 'x.json', 'json')).config).toEqual(fromYaml);
    // Reinemo et al. 2010, Table 1: LAN {0,3,4,5} 40 %, SAN {1,6} 40 %, IPC {2,7} 20 %
    expect(fromYaml.ets.prio_tc).toEqual([0, 1, 2, 0, 0, 0, 1, 2]);
    expect(fromYaml.ets.bw.slice(0, 3)).toEqual([40, 40, 20]);
    expect(fromYaml.pfc.enable).toEqual([1, 6]);
  });

  it('flowControlOf tells which mechanism keeps a priority lossless', () => {
    const { config } = parseConfig({ pfc: { enable: [3] }, credit: { priorities: [5] } });
    expect([0, 3, 5].map((p) => flowControlOf(config, p))).toEqual(['lossy', 'pfc', 'credit']);
    expect(flowControlOf(parseConfig({ pause: { enable: true } }).config, 0)).toBe('pause');
  });

  it('throws InputError, never anything else, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        try {
          parseConfig(v);
        } catch (e) {
          expect(e).toBeInstanceOf(InputError);
          expect((e as InputError).problems.length).toBeGreaterThan(0);
          for (const p of (e as InputError).problems) expect(p.path).not.toBe('');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('ets and pg', () => {
  it('derives ets from the Wadekar et al., ETS rev 1.01 PG tables', () => {
    // T1: prio_pgid 1 1 0 0 1 1 1 15; T2: PGID 0 50 %, PGID 1 50 %.
    // PGIDs 0 and 1 -> TCs 0 and 1 (ets, 50 % each); priority 7 (PGID 15) -> its own strict TC 2.
    const pg = { prio_pgid: [1, 1, 0, 0, 1, 1, 1, 15], pg_bw: [50, 50, 0, 0, 0, 0, 0, 0] };
    expect(etsFromPg(pg)).toEqual({
      prio_tc: [1, 1, 0, 0, 1, 1, 1, 2],
      tsa: ['ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'],
      bw: [50, 50, 0, 0, 0, 0, 0, 0],
    });
    const { config } = parseConfig({ pg: { ...pg, willing: true } });
    expect(config.ets.prio_tc).toEqual([1, 1, 0, 0, 1, 1, 1, 2]);
    expect(config.ets.willing).toBe(true);
    expect(config.pg).toEqual({ willing: true, ...pg });
  });

  it('PGID 15 priorities share one strict TC when they do not fit in their own', () => {
    // 5 PGs use TCs 0..4; 3 strict priorities would need TCs 5..7 -> they fit: 5 + 3 = 8
    expect(etsFromPg({ prio_pgid: [0, 1, 2, 3, 4, 15, 15, 15], pg_bw: [20, 20, 20, 20, 20, 0, 0, 0] })!.prio_tc).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // 7 PGs (one with bandwidth only) use TCs 0..6; 2 strict priorities -> both in TC 7
    expect(etsFromPg({ prio_pgid: [0, 1, 2, 3, 4, 5, 15, 15], pg_bw: [10, 10, 10, 10, 10, 10, 40, 0] })!.prio_tc).toEqual([0, 1, 2, 3, 4, 5, 7, 7]);
  });

  it('all-strict PG (the CEE legacy default) maps to strict TCs in priority order', () => {
    const t = etsFromPg({ prio_pgid: [15, 15, 15, 15, 15, 15, 15, 15], pg_bw: [0, 0, 0, 0, 0, 0, 0, 0] })!;
    expect(t.prio_tc).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(t.tsa.every((x) => x === 'strict')).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Random valid configs.

/** n non-negative integers summing to total. */
function splitArb(n: number, total: number): fc.Arbitrary<number[]> {
  return fc.array(fc.integer({ min: 0, max: total }), { minLength: n - 1, maxLength: n - 1 }).map((cuts) => {
    const s = [0, ...cuts.sort((a, b) => a - b), total];
    return s.slice(1).map((v, i) => v - s[i]);
  });
}

const etsTablesArb: fc.Arbitrary<EtsTables> = fc
  .record({
    prio_tc: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 8, maxLength: 8 }),
    tsa: fc.array(fc.constantFrom<TsaName>('ets', 'strict', 'vendor', 'ets'), { minLength: 8, maxLength: 8 }),
  })
  .chain(({ prio_tc, tsa }) => {
    const etsTcs = tsa.map((t, i) => (t === 'ets' ? i : -1)).filter((i) => i >= 0);
    return (etsTcs.length ? splitArb(etsTcs.length, 100) : fc.constant([])).map((shares) => {
      const bw = Array(8).fill(0);
      etsTcs.forEach((t, i) => (bw[t] = shares[i]));
      return { prio_tc, tsa, bw };
    });
  });

const pgArb = fc
  .array(fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 15, 15), { minLength: 8, maxLength: 8 })
  .chain((prio_pgid) => {
    const used = [...new Set(prio_pgid.filter((g) => g !== 15))];
    return (used.length ? splitArb(used.length, 100) : fc.constant([])).map((shares) => {
      const pg_bw = Array(8).fill(0);
      used.forEach((g, i) => (pg_bw[g] = shares[i]));
      return { willing: false, prio_pgid, pg_bw };
    });
  });

const appArb = fc.oneof(
  fc.record({ selector: fc.constantFrom('ethertype', 1), protocol: fc.oneof(fc.constant(0), fc.integer({ min: 0x600, max: 0xffff })), priority: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ selector: fc.constantFrom('stream', 'dgram', 'any', 2, 3, 4), protocol: fc.integer({ min: 0, max: 65535 }), priority: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ selector: fc.constantFrom('dscp', 5), protocol: fc.integer({ min: 0, max: 63 }), priority: fc.integer({ min: 0, max: 7 }) }),
);

const macArb = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 6, maxLength: 6 }).map((o) => {
  o[0] = (o[0] & 0xfe) | 0x02; // unicast, locally administered, never all zeros
  return o.map((b) => b.toString(16).padStart(2, '0')).join(':');
});

const configArb = fc
  .record({
    speed: fc.constantFrom('10G', '25G', '40G', '100G', '400G', '800G', '2.5G', '50Gbit'),
    mtu: fc.integer({ min: 1500, max: 9216 }),
    cable: fc.oneof(fc.integer({ min: 0, max: 2000 }).map((m) => `${m}m`), fc.integer({ min: 0, max: 100 }).map((k) => `${k}km`), fc.constant(0)),
    mac: macArb,
    scheduler: fc.oneof(etsTablesArb.map((t) => ({ ets: { willing: false, ...t } })), pgArb.map((pg) => ({ pg })), fc.constant({})),
    lossless: fc.shuffledSubarray([0, 1, 2, 3, 4, 5, 6, 7]),
    nPfc: fc.integer({ min: 0, max: 8 }),
    app: fc.array(appArb, { maxLength: 6 }),
    profile: fc.constantFrom('qau-pc', 'dcqcn'),
    headroom: fc.oneof(fc.constant('auto' as const), fc.integer({ min: 0, max: 1 << 20 })),
  })
  .map((r) => {
    // split the lossless priorities between PFC and credit: a priority uses one flow control
    const pfc = r.lossless.slice(0, Math.min(r.nPfc, r.lossless.length));
    const credit = r.lossless.slice(pfc.length);
    // distinct (selector, protocol, priority) entries only: repeats are an error
    const seen = new Set<string>();
    const app = r.app.filter((e) => {
      const k = `${typeof e.selector === 'number' ? e.selector : { ethertype: 1, stream: 2, dgram: 3, any: 4, dscp: 5 }[e.selector]}/${e.protocol}/${e.priority}`;
      return !seen.has(k) && (seen.add(k), true);
    });
    return {
      port: { speed: r.speed, mtu: r.mtu, cable: r.cable, mac: r.mac },
      ...r.scheduler,
      pfc: { enable: pfc, headroom: r.headroom },
      app,
      qcn: { rp: { profile: r.profile } },
      credit: { priorities: credit },
    };
  });

/**
 * A normalised config as a user would write it: it keeps the port's speed (bit/s) and cable (m) as
 * bare numbers, which an input must carry with their unit (docs/units.md).
 */
function asInput(c: DcbConfig): unknown {
  const doc = JSON.parse(JSON.stringify(c));
  doc.port.speed = `${c.port.speed / 1e9}G`;
  doc.port.cable = `${c.port.cable}m`;
  return doc;
}

describe('properties of random valid configs', () => {
  it('parse -> JSON -> parse gives the identical normalised config (and YAML text too)', () => {
    fc.assert(
      fc.property(configArb, (raw) => {
        const first = parseConfig(raw).config;
        const json = JSON.stringify(first);
        const again = parseConfig(asInput(JSON.parse(json))).config;
        expect(JSON.stringify(again)).toBe(json);
        expect(parseConfig(parseDocumentText(JSON.stringify(asInput(first)), 'c.yaml', 'yaml')).config).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });

  it('the normalised scheduler keeps the ETS invariants', () => {
    fc.assert(
      fc.property(configArb, (raw) => {
        const c: DcbConfig = parseConfig(raw).config;
        expect(c.ets.prio_tc.every((t) => t >= 0 && t < c.ets.max_tcs)).toBe(true);
        const etsSum = c.ets.bw.reduce((s, b, t) => s + (c.ets.tsa[t] === 'ets' ? b : 0), 0);
        expect(etsSum === 100 || !c.ets.tsa.includes('ets')).toBe(true);
        c.ets.bw.forEach((b, t) => c.ets.tsa[t] !== 'ets' && expect(b).toBe(0));
        expect(c.pfc.enable.filter((p) => c.credit.priorities.includes(p))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('pgFromEts gives a pg that is accepted next to its ets', () => {
    fc.assert(
      fc.property(etsTablesArb, (t) => {
        const pg = pgFromEts(t);
        const { config } = parseConfig({ ets: t, pg });
        expect(config.ets.prio_tc).toEqual(t.prio_tc);
        expect(config.pg).toEqual({ willing: false, ...pg });
      }),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// JSON Schema export: a small validator for the keywords z.toJSONSchema emits here, so the test
// checks that the schema accepts the examples and rejects what the CLI rejects structurally.

type Schema = Record<string, unknown>;
function accepts(schema: Schema, v: unknown): boolean {
  if (schema.anyOf) return (schema.anyOf as Schema[]).some((s) => accepts(s, v));
  if (schema.oneOf) return (schema.oneOf as Schema[]).filter((s) => accepts(s, v)).length === 1;
  if ('const' in schema && v !== schema.const) return false;
  if (schema.enum && !(schema.enum as unknown[]).includes(v)) return false;
  const types = schema.type === undefined ? undefined : ([] as string[]).concat(schema.type as string);
  if (types) {
    const t = Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) return false;
  }
  if (typeof v === 'number') {
    if (typeof schema.minimum === 'number' && v < schema.minimum) return false;
    if (typeof schema.maximum === 'number' && v > schema.maximum) return false;
  }
  if (typeof v === 'string' && typeof schema.minLength === 'number' && v.length < schema.minLength) return false;
  if (typeof v === 'string' && typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(v)) return false;
  if (Array.isArray(v)) {
    if (typeof schema.minItems === 'number' && v.length < schema.minItems) return false;
    if (typeof schema.maxItems === 'number' && v.length > schema.maxItems) return false;
    if (schema.items && !v.every((x) => accepts(schema.items as Schema, x))) return false;
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const k of (schema.required ?? []) as string[]) if (!(k in v)) return false;
    for (const [k, x] of Object.entries(v)) {
      if (props[k]) {
        if (!accepts(props[k], x)) return false;
      } else if (schema.additionalProperties === false) return false;
    }
  }
  return true;
}

describe('configJsonSchema', () => {
  const schema = configJsonSchema();

  it('describes the pinned sections, closed to unknown keys', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    const props = schema.properties as Record<string, Schema>;
    expect(Object.keys(props)).toEqual(['port', 'ets', 'pg', 'pfc', 'pause', 'app', 'qcn', 'credit']);
    expect((props.ets.required as string[]).sort()).toEqual(['bw', 'prio_tc', 'tsa']);
    const pfcEnable = (props.pfc.properties as Record<string, Schema>).enable;
    expect(pfcEnable.type).toBe('array');
    expect(pfcEnable.items).toMatchObject({ type: 'integer', minimum: 0, maximum: 7 });
    expect((props.app as Schema).maxItems).toBe(168);
    const prioTc = (props.ets.properties as Record<string, Schema>).prio_tc;
    expect([prioTc.minItems, prioTc.maxItems]).toEqual([8, 8]);
    // the rp union spelled out: one variant per profile, each closed
    const rp = (props.qcn.properties as Record<string, Schema>).rp.anyOf as Schema[];
    expect(rp.map((v) => ((v.properties as Record<string, Schema>).profile as Schema).const)).toEqual(['qau-pc', 'dcqcn']);
    expect(rp.every((v) => v.additionalProperties === false)).toBe(true);
    expect(((props.pg.properties as Record<string, Schema>).prio_pgid.items as Schema).enum).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 15]);
    expect((props.port.properties as Record<string, Schema>).speed.description).toMatch(/Default 100G/);
  });

  it('accepts every random valid config and every normalised config', () => {
    fc.assert(
      fc.property(configArb, (raw) => {
        expect(accepts(schema, raw)).toBe(true);
        expect(accepts(schema, asInput(parseConfig(raw).config))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('accepts every valid example and rejects structural mistakes', () => {
    for (const f of ['converged.yaml', 'converged.json', 'roce.yaml', 'cee-pg.yaml', 'mixed-tc.yaml']) {
      const doc = parseDocumentText(readFileSync(`examples/configs/${f}`, 'utf8'), f, f.endsWith('.json') ? 'json' : 'yaml');
      expect(accepts(schema, doc), f).toBe(true);
    }
    expect(accepts(schema, { pfc: { enabled: [3] } })).toBe(false);
    expect(accepts(schema, { pfc: { enable: [8] } })).toBe(false);
    expect(accepts(schema, { ets: { prio_tc: [0, 0, 0, 0, 0, 0, 0, 0] } })).toBe(false);
    expect(accepts(schema, { port: { speed: 'fast' } })).toBe(false);
    expect(accepts(schema, { port: { mac: '02:00:00:00:00' } })).toBe(false);
    expect(accepts(schema, { qcn: { rp: { profile: 'qau-pc', g_shift: 8 } } })).toBe(false);
    expect(accepts(schema, { pg: { prio_pgid: [0, 0, 0, 0, 0, 0, 0, 9], pg_bw: [100, 0, 0, 0, 0, 0, 0, 0] } })).toBe(false);
  });
});
