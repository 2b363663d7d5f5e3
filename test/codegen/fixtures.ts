// Configs used by the codegen tests: the docs/design.md §5 example port, and variants. Every fixture
// is written as config input (what a user's YAML holds) and reaches codegen only through the
// config parser (`parsed`), the one path the CLI takes too.
import fc from 'fast-check';
import type { z } from 'zod';
import { parseConfig, type configSchema, type DcbConfig } from '../../host/config/index.js';
import { cumulativeRound } from '../../codegen/ir.js';
import { headroomFromModel } from '../../codegen/index.js';

/** A config as written in a YAML/JSON file (the parser's input side). */
export type ConfigInput = z.input<typeof configSchema>;

/** The normalised config `dcbkit validate` prints: what buildIr and generate take. */
export function parsed(input: ConfigInput): DcbConfig {
  return parseConfig(input).config;
}

/** docs/design.md §5 example: 100G, 300 m, MTU 9216; TCs 0..2 ETS 40/40/20, TC 3..7 strict; PFC on priority 3. */
export function exampleInput() {
  return {
    port: { name: 'Ethernet0', speed: '100G', mtu: 9216, cable: '300m', mac: '02:00:00:00:00:01' },
    ets: {
      willing: false,
      prio_tc: [0, 0, 1, 1, 2, 2, 3, 3],
      tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'],
      bw: [40, 40, 20, 0, 0, 0, 0, 0],
    },
    pfc: { enable: [3], willing: false, mbc: false, cap: 8, pause_time: 65535, headroom: 'auto' },
    app: [
      { selector: 'ethertype', protocol: 0x8906, priority: 3 },
      { selector: 'dscp', protocol: 26, priority: 3 },
    ],
    qcn: { cp: { priorities: [3], q_eq: 26000, w: 2 }, rp: { profile: 'qau-pc' } },
  } satisfies ConfigInput;
}

/** Priorities 2 and 3 each in a TC of their own so PFC on 3 is clean; ECN on TC 3. */
export function losslessInput() {
  return {
    ...exampleInput(),
    ets: {
      willing: false,
      prio_tc: [0, 1, 2, 3, 4, 5, 6, 7],
      tsa: ['ets', 'ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict'],
      bw: [10, 20, 30, 40, 0, 0, 0, 0],
    },
    pfc: { ...exampleInput().pfc, enable: [3, 4] },
  } satisfies ConfigInput;
}

export const exampleConfig = (): DcbConfig => parsed(exampleInput());
export const losslessConfig = (): DcbConfig => parsed(losslessInput());

/** The project's headroom model (host/analysis/headroom.ts); docs/design.md §4.1: 100G, 300 m, MTU 9216 -> 111,992 B. */
export const testHeadroom = headroomFromModel;

/**
 * Random valid config inputs: prio -> TC map, TSA per TC, integer ETS bandwidths summing to 100,
 * PFC on whole TCs (so no TC mixes lossless and lossy priorities), DSCP APP entries, ECN on some
 * priorities, and a speed/cable/MTU the headroom model knows.
 */
export const arbConfigInput: fc.Arbitrary<ConfigInput> = fc
  .record({
    prioTc: fc.array(fc.integer({ min: 0, max: 7 }), { minLength: 8, maxLength: 8 }),
    ets: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    raw: fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 8, maxLength: 8 }),
    pfcTcs: fc.subarray([0, 1, 2, 3, 4, 5, 6, 7]),
    mtu: fc.integer({ min: 1500, max: 9216 }),
    speed: fc.constantFrom('10G', '25G', '40G', '100G', '400G'),
    cable: fc.integer({ min: 0, max: 2000 }),
    dscp: fc.uniqueArray(fc.record({ protocol: fc.integer({ min: 0, max: 63 }), priority: fc.integer({ min: 0, max: 7 }) }), { selector: (a) => a.protocol, maxLength: 6 }),
    cp: fc.subarray([0, 1, 2, 3, 4, 5, 6, 7], { maxLength: 3 }),
  })
  .map(({ prioTc, ets, raw, pfcTcs, mtu, speed, cable, dscp, cp }): ConfigInput => {
    const bwIn = raw.map((r, t) => (ets[t] ? r : 0));
    const bw = bwIn.some((b) => b > 0) ? cumulativeRound(bwIn, 100) : bwIn;
    return {
      port: { name: 'Ethernet0', speed, mtu, cable: `${cable}m`, mac: '02:00:00:00:00:01' },
      ets: { prio_tc: prioTc, tsa: ets.map((e, t) => (e && bw[t] > 0 ? 'ets' : 'strict')), bw },
      pfc: { enable: prioTc.flatMap((tc, p) => (pfcTcs.includes(tc) ? [p] : [])) },
      app: dscp.map((d) => ({ selector: 'dscp', protocol: d.protocol, priority: d.priority })),
      qcn: { cp: { priorities: cp } },
    };
  });

/** arbConfigInput through the parser. */
export const arbConfig: fc.Arbitrary<DcbConfig> = arbConfigInput.map(parsed);
