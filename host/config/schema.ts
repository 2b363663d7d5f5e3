/**
 * The DCB configuration of one port (docs/design.md §5; IEEE 802.1Qaz ETS/DCBX, 802.1Qbb PFC, 802.1Qau QCN,
 * CEE DCBX 1.01 priority groups, the IBM credit-based flow control proposal) as a zod 4 schema.
 *
 * Public API (import from `host/config/index.js`):
 * - `parseConfig(obj)` -> `{ config, warnings }`: validates a parsed YAML/JSON object and returns the
 *   normalised `DcbConfig` (speed in bit/s, cable in metres, MACs lower case, app selectors as number
 *   and name, every default filled, `ets` always present) plus warnings (`Problem[]`). Throws
 *   `InputError` with one `path: rule` problem per broken rule.
 * - `loadConfig(path)` reads YAML or JSON from a file (or `-` for stdin) and calls parseConfig.
 * - `configSchema` (zod); `configJsonSchema()` in json-schema.ts (JSON Schema 2020-12 of the input).
 * - `etsFromPg(pg)`, `pgFromEts(ets)`: the two views of the scheduler (docs/config.md "ets and pg").
 * - `flowControlOf(config, prio)`: 'pfc' | 'credit' | 'pause' | 'lossy' for a priority (the
 *   simulator's flow-control mode names).
 * - Types: DcbConfig, PortConfig, EtsConfig, EtsTables, PgConfig, PfcConfig, PfcWatchdogConfig,
 *   PauseConfig, AppEntry, QcnConfig, QcnCpConfig, QcnRpConfig, CreditConfig.
 *
 * Invariants of a normalised config: all tables have 8 entries; priorities, TCs 0..7; ETS bandwidths
 * sum to 100 over ETS TCs (or there is no ETS TC) and are 0 elsewhere; PFC, credit and PAUSE never
 * claim the same priority; `pfc.headroom` stays 'auto' or bytes (consumers call computeHeadroom from
 * host/analysis/headroom.ts for 'auto'); parseConfig(JSON of a normalised config) gives the same config.
 */
import { z } from 'zod';
import {
  bool, cable, intIn, mac, mustBe, oneOf, oui, priority, prioritySet, protocolId, show, speed, strictObject, table8,
} from './fields.js';
import { MTU_MAX, MTU_MIN } from '../units/units.js';
import { TSA_NAMES, tsaNameOf, type TsaName } from '../core/codes.js';
import { interfaceName } from './fields.js';
import { InputError, type Problem } from '../errors/errors.js';
import { formatPath } from '../errors/problems.js';
import { configWarnings } from './warnings.js';
import { fromNvidia, nvidiaBlockProblems, nvidiaDcqcnSchema, NVIDIA_TO_MODEL, type DcqcnModelParams } from './nvidia-dcqcn.js';
import { ALPHA_BITS_DEFAULT, ALPHA_BITS_MAX, ALPHA_BITS_MIN } from '../core/kernels/qcn-rp.js';
import type {
  AppSelectorName, PortConfig, EtsTables, EtsConfig, PgConfig, PfcWatchdogConfig, PfcConfig, PauseConfig, AppEntry, QcnCpConfig, QcnRpQauPc, QcnRpDcqcn, QcnRpConfig, QcnConfig, CreditConfig, DcbConfig,
} from './types.js';
export type * from './types.js';


// ---------------------------------------------------------------------------------------------
// Defaults (docs/config.md lists them with the reasons).

export const DEFAULT_PORT = { name: 'Ethernet0', speed: 100e9, mtu: 9216, cable: 300, mac: '02:00:00:00:00:01' } as const;
/** 802.1Q legacy strict priority (Table 8-5 for 8 TCs: priority 1 below priority 0). */
export const DEFAULT_ETS_TABLES: EtsTables = {
  prio_tc: [1, 0, 2, 3, 4, 5, 6, 7],
  tsa: ['strict', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict', 'strict'],
  bw: [0, 0, 0, 0, 0, 0, 0, 0],
};
export const DEFAULT_CREDIT_OUI = '0A-DC-B0';
const PS_PER_US = 1_000_000;

/**
 * Every parse here asks for zod's interpreted parse. By default zod compiles a parser for each
 * object schema's shape with `new Function` on its first parse: code that the bundle's V8 code
 * cache cannot hold, compiled anew in every process, which reads one config or a few.
 */
const INTERPRETED = { jitless: true } as const;

export const APP_SELECTORS: Record<AppSelectorName, 1 | 2 | 3 | 4 | 5> = { ethertype: 1, stream: 2, dgram: 3, any: 4, dscp: 5 };
export const APP_SELECTOR_NAMES: Record<number, AppSelectorName> = { 1: 'ethertype', 2: 'stream', 3: 'dgram', 4: 'any', 5: 'dscp' };
/**
 * Other names users write for selectors 2..4, after the protocols 802.1Qaz Table D-9 lists for them:
 * 2 = a TCP or SCTP well-known port, 3 = UDP or DCCP, 4 = TCP, SCTP, UDP or DCCP (any port). The
 * normalised config keeps the canonical name (stream, dgram, any) in selector_name.
 */
export const APP_SELECTOR_ALIASES: Record<string, 2 | 3 | 4> = { tcp: 2, sctp: 2, udp: 3, dccp: 3, port: 4 };
const SELECTOR_WORDS = 'ethertype, stream (or tcp, sctp), dgram (or udp, dccp), any (or port), dscp (or 1..5)';

/** The selector code (1..5) a name, an alias or a number stands for; undefined when none. */
export function appSelectorCode(v: string | number): 1 | 2 | 3 | 4 | 5 | undefined {
  const code = typeof v === 'number' ? v
    : Object.hasOwn(APP_SELECTORS, v) ? APP_SELECTORS[v as AppSelectorName]
      : Object.hasOwn(APP_SELECTOR_ALIASES, v) ? APP_SELECTOR_ALIASES[v] : undefined;
  return code !== undefined && Number.isInteger(code) && code >= 1 && code <= 5 ? (code as 1 | 2 | 3 | 4 | 5) : undefined;
}
/** An APP TLV is 5 + 3n octets and its length field has 9 bits: n <= (511 - 5) / 3. */
export const MAX_APP_ENTRIES = 168;

// ---------------------------------------------------------------------------------------------
// Field schemas.

const tsa = () =>
  z
    .union([z.string(), z.number()], { error: mustBe('one of strict, cbs, ets, vendor (or 0, 1, 2, 255)') })
    .transform((v, ctx): TsaName => {
      const name = typeof v === 'number' ? tsaNameOf(v) : TSA_NAMES.find((n) => n === v);
      if (!name) {
        ctx.addIssue({ code: 'custom', message: `must be one of strict, cbs, ets, vendor (or 0, 1, 2, 255), got ${show(v)}` });
        return z.NEVER;
      }
      return name;
    });

const tc = () => intIn(0, 7, 'a TC');
const percent = () => intIn(0, 100, 'a whole percentage');

const etsTablesShape = {
  prio_tc: table8(tc(), 'priority'),
  tsa: table8(tsa(), 'TC'),
  bw: table8(percent(), 'TC'),
};

/**
 * One set of ETS tables on its own (prio_tc, tsa, bw) with the same rules as a config's `ets`, for
 * what takes ETS tables without a whole config (`vectors ets`): one ETS validator, not two.
 */
export const etsTablesSchema = strictObject(etsTablesShape).superRefine((t, ctx) => checkEtsTables(ctx, t, [], 8));

const portSchema = strictObject({
  name: interfaceName().default(DEFAULT_PORT.name),
  speed: speed().default(DEFAULT_PORT.speed),
  mtu: intIn(MTU_MIN, MTU_MAX, 'a frame size in bytes').default(DEFAULT_PORT.mtu),
  cable: cable().default(DEFAULT_PORT.cable),
  mac: mac().default(DEFAULT_PORT.mac),
});

const etsSchema = strictObject({
  willing: bool().default(false),
  cbs: bool().optional(),
  max_tcs: intIn(1, 8, 'a TC count').default(8),
  ...etsTablesShape,
  recommendation: strictObject(etsTablesShape).optional(),
});

const pgid = () =>
  z.number({ error: mustBe('a PGID 0..7 or 15 (strict)') }).superRefine((v, ctx) => {
    if (!Number.isInteger(v) || v < 0 || v > 15) ctx.addIssue({ code: 'custom', message: `must be a PGID 0..7 or 15 (strict), got ${show(v)}` });
    else if (v >= 8 && v <= 14) ctx.addIssue({ code: 'custom', message: `PGID ${v} is reserved (8..14); use 0..7 or 15 (strict)` });
  });

const pgSchema = strictObject({
  willing: bool().default(false),
  prio_pgid: table8(pgid(), 'priority'),
  pg_bw: table8(percent(), 'PGID'),
});

const watchdogSchema = strictObject({
  enable: bool().default(false),
  detection_ms: intIn(100, 5000, 'a time in ms').default(200),
  restoration_ms: intIn(100, 60000, 'a time in ms').default(200),
  poll_ms: intIn(1, 1000, 'a time in ms').default(200),
  action: oneOf(['drop', 'forward', 'alert']).default('drop'),
});

const I32_MAX = 0x7fffffff;

const pfcSchema = strictObject({
  enable: prioritySet().default([]),
  willing: bool().default(false),
  mbc: bool().default(false),
  cap: intIn(0, 8, 'a count').default(8),
  pause_time: intIn(2, 65535, 'a number of quanta').default(65535),
  headroom: z
    .union([z.literal('auto'), z.number()], { error: mustBe('"auto" or a number of bytes') })
    .pipe(z.union([z.literal('auto'), intIn(0, I32_MAX, 'a number of bytes')]))
    .default('auto'),
  xoff: intIn(0, I32_MAX, 'a number of bytes').optional(),
  xon: intIn(0, I32_MAX, 'a number of bytes').optional(),
  watchdog: watchdogSchema.default({ enable: false, detection_ms: 200, restoration_ms: 200, poll_ms: 200, action: 'drop' }),
});

const pauseSchema = strictObject({
  enable: bool().default(false),
  pause_time: intIn(2, 65535, 'a number of quanta').default(65535),
});

const appEntrySchema = strictObject({
  selector: z
    .union([z.string(), z.number()], { error: mustBe(`one of ${SELECTOR_WORDS}`) })
    .transform((v, ctx) => {
      const code = appSelectorCode(v);
      if (code === undefined) {
        ctx.addIssue({ code: 'custom', message: `must be one of ${SELECTOR_WORDS}, got ${show(v)}` });
        return z.NEVER;
      }
      return code;
    }),
  selector_name: oneOf(['ethertype', 'stream', 'dgram', 'any', 'dscp']).optional(),
  protocol: protocolId(),
  priority: priority(),
}).transform((e, ctx): AppEntry => {
  const name = APP_SELECTOR_NAMES[e.selector];
  if (e.selector_name !== undefined && e.selector_name !== name) {
    ctx.addIssue({ code: 'custom', path: ['selector_name'], message: `${e.selector_name} does not match selector ${e.selector} (${name})` });
  }
  const p = e.protocol;
  if (e.selector === 1 && p !== 0 && p < 0x600) {
    ctx.addIssue({ code: 'custom', path: ['protocol'], message: `an ethertype must be 0 (default priority) or 0x0600..0xFFFF, got 0x${p.toString(16).padStart(4, '0').toUpperCase()}` });
  }
  if (e.selector === 5 && p > 63) {
    ctx.addIssue({ code: 'custom', path: ['protocol'], message: `a DSCP must be 0..63, got ${p}` });
  }
  return { selector: e.selector, selector_name: name, protocol: p, priority: e.priority };
});

const cpSchema = strictObject({
  priorities: prioritySet().default([]),
  q_eq: intIn(100, I32_MAX, 'a number of bytes').default(26000),
  w: intIn(1, 16, 'an integer').default(2),
  quantiser: oneOf(['linear', 'msb']).default('linear'),
  kmin: intIn(0, I32_MAX, 'a number of bytes').default(5000),
  kmax: intIn(1, I32_MAX, 'a number of bytes').default(200000),
  pmax: intIn(1, 100, 'a whole percentage').default(1),
});

const bps = () => z.number({ error: mustBe('a rate in bit/s') }).pipe(intIn(1, 1.6e12, 'a rate in bit/s'));
const ps = () => z.number({ error: mustBe('a time in ps') }).pipe(intIn(1, Number.MAX_SAFE_INTEGER, 'a time in ps'));

// Defaults: qau-pc from the 802.1Q MIB (docs/design.md §4.5); dcqcn from Zhu et al. 2015 (reference §3).
export const rpQauPcSchema = strictObject({
  profile: z.literal('qau-pc'),
  line_bps: bps().optional(),
  bc_bytes: intIn(1, I32_MAX, 'a number of bytes').default(150000),
  timer_ps: ps().default(15_000 * PS_PER_US),
  th: intIn(1, 255, 'a count').default(5),
  ai_bps: bps().default(5e6),
  hai_bps: bps().default(50e6),
  gd_shift: intIn(1, 16, 'a shift').default(7),
  // the cut's floor as a fraction of 2^gd_shift (802.1Qau's 50 % is 64 over 2^7)
  min_dec_num: intIn(1, 2 ** 16, 'a numerator over 2^gd_shift').default(64),
  min_bps: bps().default(5e6),
  extra_fast_recovery: bool().default(true),
}).superRefine((rp, ctx) => {
  if (rp.min_dec_num > 2 ** rp.gd_shift) issue(ctx, ['min_dec_num'], `must be at most 2^gd_shift = ${2 ** rp.gd_shift} (it is a numerator over 2^gd_shift), got ${rp.min_dec_num}`);
});

/** A fraction of one that the core's 24-bit fixed point holds exactly (k / 2^24). */
const q24Fraction = (what: string) =>
  z.number({ error: mustBe(`${what}, a number 0..1`) }).min(0, { error: mustBe(`${what}, a number 0..1`) }).max(1, { error: mustBe(`${what}, a number 0..1`) })
    .refine((v) => Number.isInteger(v * 2 ** 24), { error: (iss) => `must be a multiple of 2^-24 (the core's finest fixed point), got ${show(iss.input)}` });

/** The dcqcn model's own keys (Zhu et al. 2015; ConnectX options at the values that leave the paper's algorithm). */
const DCQCN_MODEL_DEFAULTS = {
  bc_bytes: 10_000_000, timer_ps: 55 * PS_PER_US, th: 5, ai_bps: 40e6, hai_bps: 200e6, min_bps: 5e6,
  g: 1 / 256, alpha_timer_ps: 55 * PS_PER_US, cnp_interval_ps: 50 * PS_PER_US, alpha_init: 1, alpha_cut_shift: 1,
  min_dec_pct: 0, first_cnp_bps: 0, clamp_tgt_rate: true, clamp_tgt_rate_after_time_inc: false,
} as const;

const rpDcqcnInput = strictObject({
  profile: z.literal('dcqcn'),
  line_bps: bps().optional(),
  bc_bytes: intIn(1, I32_MAX, 'a number of bytes').optional(),
  timer_ps: ps().optional(),
  th: intIn(1, 255, 'a count').optional(),
  ai_bps: bps().optional(),
  hai_bps: bps().optional(),
  min_bps: bps().optional(),
  g_shift: intIn(1, 16, 'a shift').optional(),
  g: q24Fraction('the alpha gain g').optional(),
  alpha_timer_ps: ps().optional(),
  cnp_interval_ps: intIn(0, Number.MAX_SAFE_INTEGER, 'a time in ps').optional(),
  alpha_bits: intIn(ALPHA_BITS_MIN, ALPHA_BITS_MAX, 'a number of fraction bits').default(ALPHA_BITS_DEFAULT),
  alpha_init: q24Fraction('the initial alpha').optional(),
  alpha_cut_shift: intIn(0, 6, 'a shift').optional(),
  min_dec_pct: intIn(0, 100, 'a percentage').optional(),
  first_cnp_bps: intIn(0, 1.6e12, 'a rate in bit/s (0: none)').optional(),
  clamp_tgt_rate: bool().optional(),
  clamp_tgt_rate_after_time_inc: bool().optional(),
  nvidia: nvidiaDcqcnSchema.optional(),
});

/**
 * dcqcn input -> the resolved parameters: every model key filled, from the key itself, else the
 * NVIDIA block (docs/qcn.md), else the paper's default; g_shift becomes g; the NVIDIA block is
 * consumed (so a printed config parses back to itself).
 */
export const rpDcqcnSchema = rpDcqcnInput.transform((s, ctx): QcnRpDcqcn => {
  const { nvidia, g_shift, profile, ...model } = s;
  if (g_shift !== undefined && model.g !== undefined) issue(ctx, ['g_shift'], 'sets the same gain as g; give one');
  const given: Record<string, unknown> = { ...model, ...(g_shift !== undefined ? { g_shift } : {}) };
  let fromNic: Partial<DcqcnModelParams> = {};
  if (nvidia) {
    for (const p of nvidiaBlockProblems(nvidia)) issue(ctx, ['nvidia', p.key], p.rule);
    for (const [name, key] of Object.entries(NVIDIA_TO_MODEL)) {
      const alsoModel = key === 'g_shift' ? ['g_shift', 'g'] : key === 'alpha_init' ? ['alpha_init'] : [key];
      const clash = alsoModel.find((k) => given[k] !== undefined);
      if ((nvidia as Record<string, unknown>)[name] !== undefined && clash) issue(ctx, ['nvidia', name], `sets the same parameter as qcn.rp.${clash}; give one`);
    }
    const { g_q24, alpha_init_q24, ...rest } = fromNvidia(nvidia);
    fromNic = { ...rest, g: g_q24 / 2 ** 24, alpha_init: alpha_init_q24 / 2 ** 24 } as Partial<DcqcnModelParams>;
  }
  const defined = Object.fromEntries(Object.entries(model).filter(([, v]) => v !== undefined));
  const g = g_shift !== undefined ? 2 ** -g_shift : undefined;
  return { profile, ...DCQCN_MODEL_DEFAULTS, ...fromNic, ...(g !== undefined ? { g } : {}), ...defined } as QcnRpDcqcn;
});

/**
 * The reaction-point parameters of `profile` at their defaults on a port of `lineBps`: what a node
 * runs when the fabric's QCN profile is not the one of its own qcn.rp (its values are for the other
 * algorithm; host/scenario/scenario.ts).
 */
export function rpDefaults(profile: QcnRpConfig['profile'], lineBps: number): QcnRpConfig {
  const rp = profile === 'qau-pc' ? rpQauPcSchema : rpDcqcnSchema;
  const { profile: p, ...rest } = rp.parse({ profile }, INTERPRETED);
  return { profile: p, line_bps: lineBps, ...rest } as QcnRpConfig;
}

const rpSchema = z
  .looseObject({ profile: z.unknown() })
  .optional()
  .transform((v) => v ?? { profile: 'qau-pc' })
  .pipe(
    z.discriminatedUnion('profile', [rpQauPcSchema, rpDcqcnSchema], {
      error: (iss: { input?: unknown }) => {
        const p = (iss.input as { profile?: unknown } | undefined)?.profile;
        return `must be qau-pc or dcqcn, got ${show(p)}`;
      },
    }),
  );

const qcnSchema = strictObject({
  cp: cpSchema.default(() => cpSchema.parse({}, INTERPRETED)),
  rp: rpSchema,
});

const creditSchema = strictObject({
  priorities: prioritySet().default([]),
  unit: intIn(64, 16384, 'a number of bytes').default(64),
  aging_us: intIn(1, 1_000_000_000, 'a time in us').default(100),
  counter_bits: intIn(8, 31, 'a bit width').default(16),
  oui: oui().default(DEFAULT_CREDIT_OUI),
});

const appListSchema = z
  .array(appEntrySchema, { error: mustBe('a list of {selector, protocol, priority} entries') })
  .max(MAX_APP_ENTRIES, { error: (iss: { input?: unknown }) => `at most ${MAX_APP_ENTRIES} entries fit in an APP TLV, got ${Array.isArray(iss.input) ? iss.input.length : '?'}` });

/** The shape of the input, every field checked on its own (before the cross-field rules). */
export const configShapeSchema = strictObject({
  port: portSchema.default(() => portSchema.parse({}, INTERPRETED)),
  ets: etsSchema.optional(),
  pg: pgSchema.optional(),
  pfc: pfcSchema.default(() => pfcSchema.parse({}, INTERPRETED)),
  pause: pauseSchema.default(() => pauseSchema.parse({}, INTERPRETED)),
  app: appListSchema.default([]),
  qcn: qcnSchema.default(() => qcnSchema.parse({}, INTERPRETED)),
  credit: creditSchema.default(() => creditSchema.parse({}, INTERPRETED)),
});

type Shape = z.output<typeof configShapeSchema>;

// ---------------------------------------------------------------------------------------------
// The two scheduler views. ETS: priority -> TC -> TSA/bandwidth. CEE PG: priority -> PGID -> PG%,
// PGID 15 = strict. Consistency between them is semantic (same grouping, same shares).

/**
 * The ETS tables equivalent to a CEE PG config: PGIDs in use (a priority or bandwidth) become ETS TCs
 * 0..k-1 in PGID order; PGID 15 priorities get their own strict TCs above them in priority order (a
 * higher priority, a higher TC), or share one strict TC k when there are not enough TCs left.
 * Unused TCs are strict with 0 %. Returns undefined when 8 PGs plus strict priorities need 9 TCs.
 */
export function etsFromPg(pg: Pick<PgConfig, 'prio_pgid' | 'pg_bw'>): EtsTables | undefined {
  const groups = [...Array(8).keys()].filter((g) => pg.prio_pgid.includes(g) || pg.pg_bw[g] > 0);
  const strictPrios = [...Array(8).keys()].filter((p) => pg.prio_pgid[p] === 15);
  const k = groups.length;
  if (strictPrios.length > 0 && k >= 8) return undefined;
  const tsa: TsaName[] = Array(8).fill('strict');
  const bw = Array(8).fill(0);
  groups.forEach((g, i) => {
    tsa[i] = 'ets';
    bw[i] = pg.pg_bw[g];
  });
  const ownTcs = k + strictPrios.length <= 8;
  const prio_tc = pg.prio_pgid.map((g, p) => (g === 15 ? (ownTcs ? k + strictPrios.indexOf(p) : k) : groups.indexOf(g)));
  return { prio_tc, tsa, bw };
}

/**
 * The CEE PG view of ETS tables: a priority in an ETS TC t gets PGID t with PG% = bw[t]; a priority in
 * a strict, CBS or vendor TC gets PGID 15 (CEE has no other non-bandwidth class). The result passes
 * the consistency rule when given next to `ets`.
 */
export function pgFromEts(ets: EtsTables): Pick<PgConfig, 'prio_pgid' | 'pg_bw'> {
  const prio_pgid = ets.prio_tc.map((t) => (ets.tsa[t] === 'ets' ? t : 15));
  // With every priority strict, CEE wants no PG% at all (the ETS shares would serve nobody).
  const anyLimited = prio_pgid.some((g) => g !== 15);
  const pg_bw = ets.bw.map((b, t) => (anyLimited && ets.tsa[t] === 'ets' ? b : 0));
  return { prio_pgid, pg_bw };
}

/** The flow control that keeps a priority lossless, or 'lossy' (names as in the scenario's flow_control). */
export function flowControlOf(config: DcbConfig, prio: number): 'pfc' | 'credit' | 'pause' | 'lossy' {
  if (config.pause.enable) return 'pause';
  if (config.pfc.enable.includes(prio)) return 'pfc';
  if (config.credit.priorities.includes(prio)) return 'credit';
  return 'lossy';
}

// ---------------------------------------------------------------------------------------------
// Normalisation: defaults that depend on other fields.

function normalise(s: Shape): DcbConfig {
  const port: PortConfig = s.port;
  let ets: EtsConfig;
  if (s.ets) {
    ets = { willing: s.ets.willing, cbs: s.ets.cbs ?? s.ets.tsa.includes('cbs'), max_tcs: s.ets.max_tcs, prio_tc: s.ets.prio_tc, tsa: s.ets.tsa, bw: s.ets.bw };
    if (s.ets.recommendation) ets.recommendation = s.ets.recommendation;
  } else if (s.pg) {
    const t = etsFromPg(s.pg) ?? DEFAULT_ETS_TABLES; // the impossible case is reported by the rules
    ets = { willing: s.pg.willing, cbs: false, max_tcs: 8, ...structuredClone(t) };
  } else {
    ets = { willing: false, cbs: false, max_tcs: 8, ...structuredClone(DEFAULT_ETS_TABLES) };
  }
  const { watchdog, ...pfcRest } = s.pfc;
  const pfc: PfcConfig = {
    ...pfcRest,
    // 4 and 2 maximum frames: a shallow ingress queue whose hysteresis still refills the link.
    xoff: s.pfc.xoff ?? 4 * port.mtu,
    xon: s.pfc.xon ?? 2 * port.mtu,
    watchdog,
  };
  const { profile, ...rpRest } = s.qcn.rp;
  const rp = { profile, line_bps: port.speed, ...rpRest } as QcnRpConfig;
  const qcn: QcnConfig = { cp: s.qcn.cp, rp };
  const tail = { pfc, pause: s.pause, app: s.app, qcn, credit: s.credit };
  // pg (only when given) sits right after ets, so a printed config reads in the input's order.
  return s.pg ? { port, ets, pg: s.pg, ...tail } : { port, ets, ...tail };
}

// ---------------------------------------------------------------------------------------------
// Cross-field rules (errors). Each names the path of the field to change.

type Ctx = z.core.$RefinementCtx<DcbConfig>;

function issue(ctx: z.core.$RefinementCtx<unknown>, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: 'custom', path, message });
}

function checkEtsTables(ctx: z.core.$RefinementCtx<unknown>, t: EtsTables, base: string[], maxTcs: number): void {
  t.prio_tc.forEach((tcOfPrio, p) => {
    if (tcOfPrio >= maxTcs) issue(ctx, [...base, 'prio_tc', p], `TC ${tcOfPrio} is out of range: max_tcs is ${maxTcs} (TCs 0..${maxTcs - 1})`);
  });
  let sum = 0;
  let anyEts = false;
  t.tsa.forEach((name, tcIdx) => {
    if (name === 'ets') {
      anyEts = true;
      sum += t.bw[tcIdx];
      if (tcIdx >= maxTcs && t.bw[tcIdx] > 0) {
        issue(ctx, [...base, 'bw', tcIdx], `TC ${tcIdx} is beyond max_tcs ${maxTcs}; its bandwidth must be 0, got ${t.bw[tcIdx]}`);
      }
    } else if (t.bw[tcIdx] !== 0) {
      issue(ctx, [...base, 'bw', tcIdx], `TC ${tcIdx} has TSA ${name}; its bandwidth must be 0, got ${t.bw[tcIdx]}`);
    }
  });
  if (anyEts && sum !== 100) issue(ctx, [...base, 'bw'], `bandwidths of ETS TCs sum to ${sum}, must be 100`);
}

function checkPg(ctx: Ctx, pg: PgConfig): void {
  let sum = 0;
  pg.pg_bw.forEach((b) => (sum += b));
  const anyLimited = pg.prio_pgid.some((g) => g !== 15);
  if (anyLimited && sum !== 100) issue(ctx, ['pg', 'pg_bw'], `bandwidths of PGIDs 0..7 sum to ${sum}, must be 100`);
  if (!anyLimited && sum !== 0) issue(ctx, ['pg', 'pg_bw'], `every priority is in PGID 15 (strict), so the bandwidths must all be 0; they sum to ${sum}`);
  if (etsFromPg(pg) === undefined) {
    issue(ctx, ['pg', 'pg_bw'], 'all 8 PGIDs have bandwidth and some priorities are in PGID 15: that needs 9 traffic classes, at most 8 exist');
  }
}

/**
 * ets and pg given together must describe the same scheduler (docs/config.md "ets and pg"): the same
 * strict priorities, the same grouping of the others and the same shares. Reports the first
 * difference only: one disagreement usually shows up on every priority of the group.
 */
function checkPgMatchesEts(ctx: Ctx, pg: PgConfig, ets: EtsTables): void {
  const isEts = (p: number) => ets.tsa[ets.prio_tc[p]] === 'ets';
  for (let p = 0; p < 8; p++) {
    const g = pg.prio_pgid[p];
    const t = ets.prio_tc[p];
    if ((g === 15) !== !isEts(p)) {
      return issue(ctx, ['pg', 'prio_pgid', p], g === 15
        ? `priority ${p} is in PGID 15 (strict) but ets puts it in TC ${t} with TSA ets`
        : `priority ${p} is in PGID ${g} (bandwidth-limited) but ets puts it in TC ${t} with TSA ${ets.tsa[t]}`);
    }
    if (g === 15) continue;
    if (pg.pg_bw[g] !== ets.bw[t]) {
      return issue(ctx, ['pg', 'pg_bw', g], `PGID ${g} has ${pg.pg_bw[g]} % but ets gives TC ${t} of priority ${p} ${ets.bw[t]} %`);
    }
    for (let q = 0; q < p; q++) {
      if (!isEts(q)) continue;
      const samePg = pg.prio_pgid[q] === g;
      const sameTc = ets.prio_tc[q] === t;
      if (samePg !== sameTc) {
        return issue(ctx, ['pg', 'prio_pgid', p], samePg
          ? `priorities ${q} and ${p} share PGID ${g} but ets puts them in TCs ${ets.prio_tc[q]} and ${t}`
          : `priorities ${q} and ${p} share TC ${t} in ets but are in PGIDs ${pg.prio_pgid[q]} and ${g}`);
      }
    }
  }
}

function sameTables(a: EtsTables, b: EtsTables | undefined): boolean {
  return b !== undefined && JSON.stringify([a.prio_tc, a.tsa, a.bw]) === JSON.stringify([b.prio_tc, b.tsa, b.bw]);
}

function crossRules(c: DcbConfig, ctx: Ctx): void {
  // An ets derived from pg repeats the pg's problems; those are reported once, on pg.
  const etsIsPg = c.pg !== undefined && sameTables(c.ets, etsFromPg(c.pg));
  if (!etsIsPg) checkEtsTables(ctx, c.ets, ['ets'], c.ets.max_tcs);
  if (c.ets.recommendation) checkEtsTables(ctx, c.ets.recommendation, ['ets', 'recommendation'], c.ets.max_tcs);
  if (c.ets.tsa.includes('cbs') && !c.ets.cbs) {
    issue(ctx, ['ets', 'cbs'], `TC ${c.ets.tsa.indexOf('cbs')} uses TSA cbs, so cbs (credit-based shaper supported) must be true`);
  }
  if (c.pg) {
    checkPg(ctx, c.pg);
    // A derived ets matches by construction; this catches a hand-written ets that disagrees.
    if (etsFromPg(c.pg) !== undefined) checkPgMatchesEts(ctx, c.pg, c.ets);
  }

  const pfc = c.pfc;
  if (pfc.enable.length > pfc.cap) {
    issue(ctx, ['pfc', 'enable'], `${pfc.enable.length} priorities have PFC but pfc.cap is ${pfc.cap}`);
  }
  if (pfc.xon >= pfc.xoff) issue(ctx, ['pfc', 'xon'], `must be below pfc.xoff (${pfc.xoff} bytes), got ${pfc.xon}`);
  c.credit.priorities.forEach((p, i) => {
    if (pfc.enable.includes(p)) {
      issue(ctx, ['credit', 'priorities', i], `priority ${p} already has PFC; a priority uses one flow control (remove it from pfc.enable or here)`);
    }
  });
  if (c.pause.enable && (pfc.enable.length > 0 || c.credit.priorities.length > 0)) {
    issue(ctx, ['pause', 'enable'], '802.3x PAUSE stops the whole port and excludes PFC and credit flow control; empty pfc.enable and credit.priorities or disable pause');
  }
  if (c.credit.unit > c.port.mtu) {
    issue(ctx, ['credit', 'unit'], `must not exceed port.mtu (${c.port.mtu} bytes), got ${c.credit.unit}`);
  }
  if (c.credit.oui === '00-80-C2' || c.credit.oui === '00-1B-21') {
    issue(ctx, ['credit', 'oui'], `${c.credit.oui} belongs to the IEEE 802.1 / CEE TLVs; use your own OUI or a locally administered CID such as ${DEFAULT_CREDIT_OUI}`);
  }
  if (c.qcn.cp.kmin >= c.qcn.cp.kmax) {
    issue(ctx, ['qcn', 'cp', 'kmin'], `must be below qcn.cp.kmax (${c.qcn.cp.kmax} bytes), got ${c.qcn.cp.kmin}`);
  }
  const rp = c.qcn.rp;
  if (rp.line_bps > c.port.speed) issue(ctx, ['qcn', 'rp', 'line_bps'], `must not exceed port.speed (${c.port.speed} bit/s), got ${rp.line_bps}`);
  if (rp.min_bps > rp.line_bps) issue(ctx, ['qcn', 'rp', 'min_bps'], `must not exceed qcn.rp.line_bps (${rp.line_bps} bit/s), got ${rp.min_bps}`);

  const seen = new Map<string, number>();
  c.app.forEach((e, i) => {
    const key = `${e.selector}/${e.protocol}/${e.priority}`;
    const first = seen.get(key);
    if (first !== undefined) issue(ctx, ['app', i], `repeats app[${first}] (${e.selector_name} ${e.protocol} -> priority ${e.priority})`);
    else seen.set(key, i);
  });
}

/**
 * The full config schema: input shape -> normalised DcbConfig (defaults filled) -> cross-field rules.
 * Its JSON Schema (input side) is `configJsonSchema()` (json-schema.ts).
 */
export const configSchema = configShapeSchema
  .transform(normalise)
  .pipe(z.custom<DcbConfig>(() => true).superRefine(crossRules));

// ---------------------------------------------------------------------------------------------
// Parsing with `path: rule` problems.

/** Words zod's own issues the way the rest of the config messages read. */
function errorMap(iss: { code?: string; inst?: unknown; input?: unknown; expected?: string }): string | undefined {
  if (iss.code === 'unrecognized_keys') {
    const shape = (iss.inst as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def?.shape;
    return shape ? `unknown key; allowed keys: ${Object.keys(shape).join(', ')}` : 'unknown key';
  }
  if (iss.code === 'invalid_type' && iss.input === undefined) return 'is required';
  if (iss.code === 'invalid_type') return `must be ${iss.expected ?? 'another type'}, got ${show(iss.input)}`;
  return undefined;
}

/** zod issues -> problems, with one problem per unknown key (`pfc.enabled: unknown key; ...`). */
export function configProblems(error: z.ZodError): Problem[] {
  const out: Problem[] = [];
  for (const iss of error.issues) {
    const base = formatPath(iss.path as PropertyKey[]);
    if (iss.code === 'unrecognized_keys') {
      for (const key of iss.keys) out.push({ path: base ? `${base}.${key}` : key, rule: iss.message });
    } else {
      out.push({ path: base, rule: iss.message });
    }
  }
  // intIn words every broken bound the same way: say each problem once.
  return [...new Map(out.map((p) => [`${p.path}\u0000${p.rule}`, p])).values()];
}

export interface ParsedConfig {
  /** normalised: speed in bit/s, cable in metres, selectors as numbers and names, defaults filled */
  config: DcbConfig;
  /** legal but probably unintended settings, as `path: rule` */
  warnings: Problem[];
}

/** Validates a parsed YAML/JSON value as a DCB config. Throws InputError listing every problem. */
export function parseConfig(obj: unknown): ParsedConfig {
  const r = configSchema.safeParse(obj, { error: errorMap, ...INTERPRETED });
  if (!r.success) throw new InputError(configProblems(r.error).map((p) => (p.path ? p : { path: 'config', rule: p.rule })));
  const given = obj as { ets?: unknown; pg?: unknown };
  return { config: r.data, warnings: configWarnings(r.data, { ets: given.ets !== undefined, pg: given.pg !== undefined }) };
}
