// fast-check generators of valid DCBX TLVs and LLDPDUs (any value the codecs accept).
import fc from 'fast-check';
import type { CeeTlv } from '../../host/dcbx/cee.js';
import type { CetTlv } from '../../host/dcbx/cet.js';
import type { AppTlv, EtsCfgTlv, EtsRecTlv, PfcTlv, Tsa } from '../../host/dcbx/ieee.js';
import { selectorName, tsaName } from '../../host/dcbx/ieee.js';
import type { LldpTlv, Lldpdu } from '../../host/dcbx/lldpdu.js';
import { macArb } from '../frames/arbitraries.js';

const prio = fc.integer({ min: 0, max: 7 });
const prioSet = fc.uniqueArray(prio, { maxLength: 8 }).map((a) => a.sort((x, y) => x - y));
const tables = fc.record({
  prio_tc: fc.array(prio, { minLength: 8, maxLength: 8 }),
  bw: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 8, maxLength: 8 }),
  tsa: fc.array(fc.integer({ min: 0, max: 255 }).map((c): Tsa => tsaName(c)), { minLength: 8, maxLength: 8 }),
});
export const etsCfgArb: fc.Arbitrary<EtsCfgTlv> = fc
  .record({ willing: fc.boolean(), cbs: fc.boolean(), max_tcs: fc.integer({ min: 1, max: 8 }), t: tables })
  .map(({ t, ...h }) => ({ type: 'ets_cfg' as const, ...h, ...t }));
export const etsRecArb: fc.Arbitrary<EtsRecTlv> = tables.map((t) => ({ type: 'ets_rec' as const, ...t }));
export const pfcTlvArb: fc.Arbitrary<PfcTlv> = fc.record({ type: fc.constant('pfc' as const), willing: fc.boolean(), mbc: fc.boolean(), cap: fc.integer({ min: 0, max: 8 }), enable: prioSet });
export const appTlvArb: fc.Arbitrary<AppTlv> = fc
  .array(fc.record({ selector: fc.integer({ min: 0, max: 7 }).map(selectorName), protocol: fc.integer({ min: 0, max: 0xffff }), priority: prio }), { maxLength: 30 })
  .map((app) => ({ type: 'app' as const, app }));

const header = fc.record({ oper_version: fc.integer({ min: 0, max: 255 }), max_version: fc.integer({ min: 0, max: 255 }), enable: fc.boolean(), willing: fc.boolean(), error: fc.boolean(), subtype: fc.integer({ min: 0, max: 255 }) });
export const ceeArb: fc.Arbitrary<CeeTlv> = fc
  .record({
    control: fc.record({ oper_version: fc.integer({ min: 0, max: 255 }), max_version: fc.integer({ min: 0, max: 255 }), seq: fc.nat({ max: 0xffffffff }), ack: fc.nat({ max: 0xffffffff }) }),
    pg: fc.option(fc.record({ h: header, prio_pgid: fc.array(fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7, 15), { minLength: 8, maxLength: 8 }), pg_bw: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 8, maxLength: 8 }), num_tcs: fc.integer({ min: 0, max: 255 }) }), { nil: undefined }),
    pfc: fc.option(fc.record({ h: header, enable_prios: prioSet, num_tcs: fc.integer({ min: 0, max: 255 }) }), { nil: undefined }),
    app: fc.option(fc.record({ h: header, app: fc.array(fc.record({ protocol: fc.integer({ min: 0, max: 0xffff }), selector: fc.constantFrom<'ethertype' | 'port' | number>('ethertype', 'port', 2, 3), oui: fc.integer({ min: 0, max: (1 << 22) - 1 }), priorities: prioSet }), { maxLength: 6 }) }), { nil: undefined }),
    order: fc.shuffledSubarray([2, 3, 4]),
  })
  .map(({ control, pg, pfc, app, order }) => {
    const t: CeeTlv = { type: 'cee', control, order: [1] };
    for (const k of order) {
      if (k === 2 && pg) { t.pg = { ...pg.h, prio_pgid: pg.prio_pgid, pg_bw: pg.pg_bw, num_tcs: pg.num_tcs }; t.order.push(2); }
      if (k === 3 && pfc) { t.pfc = { ...pfc.h, enable_prios: pfc.enable_prios, num_tcs: pfc.num_tcs }; t.order.push(3); }
      if (k === 4 && app) { t.app = { ...app.h, app: app.app }; t.order.push(4); }
    }
    return t;
  });
export const cetArb: fc.Arbitrary<CetTlv> = fc.record({
  type: fc.constant('cet' as const), oui: fc.constant('0adcb0'), supported: fc.boolean(), channels: fc.boolean(), ce_tag: fc.boolean(),
  priorities: prioSet, unit: fc.integer({ min: 0, max: 0xffff }), aging_us: fc.nat({ max: 0xffffffff }), counter_bits: fc.integer({ min: 0, max: 255 }),
});
const rawArb = fc.record({
  type: fc.constant('raw' as const),
  // port description, system name, system description: free text, so any bytes are well formed
  tlv_type: fc.constantFrom(4, 5, 6),
  hex: fc.array(fc.integer({ min: 0x20, max: 0x7e }), { minLength: 1, maxLength: 20 }).map((b) => Buffer.from(b).toString('hex')),
});

/** The DCBX TLVs of one LLDPDU: each kind at most once, in a random order, plus raw TLVs. */
export const tlvListArb: fc.Arbitrary<LldpTlv[]> = fc
  .record({
    dcbx: fc.tuple(fc.option(etsCfgArb, { nil: undefined }), fc.option(etsRecArb, { nil: undefined }), fc.option(pfcTlvArb, { nil: undefined }), fc.option(appTlvArb, { nil: undefined }), fc.option(ceeArb, { nil: undefined }), fc.option(cetArb, { nil: undefined })),
    raw: fc.array(rawArb, { maxLength: 2 }),
    seed: fc.nat(),
  })
  .map(({ dcbx, raw, seed }) => {
    const list: LldpTlv[] = [...dcbx.filter((t): t is NonNullable<typeof t> => t !== undefined), ...raw];
    // deterministic shuffle from the drawn seed
    let s = seed || 1;
    for (let i = list.length - 1; i > 0; i--) {
      s = (s * 1103515245 + 12345) >>> 0;
      const j = s % (i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  });

export const lldpduArb: fc.Arbitrary<Lldpdu> = fc.record({
  dst: fc.constant('01:80:c2:00:00:0e'),
  src: macArb.map((m) => (parseInt(m.slice(0, 2), 16) & 0xfe).toString(16).padStart(2, '0') + m.slice(2)), // unicast
  chassis: macArb.map((id) => ({ subtype: 4, id })),
  port: fc.stringMatching(/^[A-Za-z][A-Za-z0-9/]{0,15}$/).map((id) => ({ subtype: 5, id })),
  ttl: fc.integer({ min: 0, max: 0xffff }),
  tlvs: tlvListArb,
  end: fc.constant(true),
});
