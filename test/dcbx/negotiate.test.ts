// DCBX negotiation: lldpad's IEEE rules (intel/openlldp lldp_8021qaz.c), the CEE control and feature
// state machines (§6.2), LLDP timers and TTL ageing, on the event-driven simulation.
import { describe, expect, it } from 'vitest';
import type { DcbxPortConfig } from '../../host/dcbx/advertise.js';
import { ieeeLldpdu } from '../../host/dcbx/advertise.js';
import type { CeeTlv } from '../../host/dcbx/cee.js';
import { decodeLldpdu, encodeLldpdu } from '../../host/dcbx/lldpdu.js';
import { compareMac, resolveIeee } from '../../host/dcbx/negotiate-ieee.js';
import { simulate, type SimNode } from '../../host/dcbx/simulate.js';

const S = 1e12; // ps per second
const US = 1e6;

function port(mac: string, o: { willing?: boolean; pfc?: number[]; rec?: boolean; app?: DcbxPortConfig['app'] } = {}): DcbxPortConfig {
  return {
    port: { name: 'Ethernet0', mac },
    ets: {
      willing: o.willing ?? false, max_tcs: 8,
      prio_tc: [0, 0, 1, 1, 2, 2, 3, 3], tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'], bw: [40, 40, 20, 0, 0, 0, 0, 0],
      ...(o.rec ? { recommendation: { prio_tc: [0, 1, 2, 3, 4, 5, 6, 7], tsa: ['ets', 'ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict'], bw: [25, 25, 25, 25, 0, 0, 0, 0] } } : {}),
    },
    pfc: { enable: o.pfc ?? [3], willing: o.willing ?? false, mbc: false, cap: 8 },
    app: o.app ?? [],
  };
}
const pair = (a: DcbxPortConfig, b: DcbxPortConfig): SimNode[] => [{ name: 'a', cfg: a }, { name: 'b', cfg: b }];
const LOW = '02:00:00:00:00:01';
const HIGH = '02:00:00:00:00:02';

describe('IEEE 802.1Qaz resolution (lldpad ets_sm / pfc_sm)', () => {
  it('the DCBX white paper: a willing port with PFC on 3,4 meets a non-willing peer on 6,7, reports the mismatch and adopts 6,7', () => {
    const r = simulate(pair(port(LOW, { willing: true, pfc: [3, 4] }), port(HIGH, { pfc: [6, 7] })), { duration_ps: 100 * S });
    expect(r.agents.a.operational.pfc.enable).toEqual([6, 7]);
    expect(r.agents.b.operational.pfc.enable).toEqual([6, 7]);
    expect(r.agents.a.state.pfc).toBe('RX_RECOMMEND');
    expect(r.agents.a.mismatches).toEqual([]);
    // first LLDPDUs cross at t = 1 us (link delay): a detects, adopts; b saw a's 3,4 once
    expect(r.log.filter((e) => e.event === 'detect' && e.agent === 'a')).toEqual([{ t_ps: US, agent: 'a', event: 'detect', feature: 'pfc', local: [3, 4], peer: [6, 7] }]);
    expect(r.log.find((e) => e.event === 'adopt')).toMatchObject({ t_ps: US, agent: 'a' });
    expect(r.log.find((e) => e.event === 'mismatch')).toMatchObject({ t_ps: US, agent: 'b', local: [6, 7], peer: [3, 4] });
    // a's adopted PFC reaches b 1 us after a sends it at 1 us: from then on b sees no mismatch
    expect(r.agents.b.mismatches).toEqual([]);
    expect(r.settled_ps).toBe(2 * US);
    // the five states of the DCBX white paper in order, for the willing side's first look at its peer
    const seq = r.log.filter((e) => e.agent === 'a' && e.event === 'transition' && e.t_ps === US).map((e) => e.to);
    expect(seq.slice(0, 5)).toEqual(['COLLECT_LOCAL', 'ADVERTISE', 'COLLECT_PEER', 'UPDATE_LOCAL', 'MONITOR']);
  });

  it('both willing: the numerically lower source MAC adopts the peer (either way round)', () => {
    for (const [macA, macB, adopter] of [[LOW, HIGH, 'a'], [HIGH, LOW, 'b']] as const) {
      const r = simulate(pair(port(macA, { willing: true, pfc: [3, 4] }), port(macB, { willing: true, pfc: [6, 7] })), { duration_ps: 10 * S });
      const winner = adopter === 'a' ? [6, 7] : [3, 4];
      expect(r.agents.a.operational.pfc.enable).toEqual(winner);
      expect(r.agents.b.operational.pfc.enable).toEqual(winner);
      expect(r.agents[adopter].state.pfc).toBe('RX_RECOMMEND');
    }
    expect(compareMac('02:00:00:00:00:01', '02:00:00:00:00:02')).toBeLessThan(0);
    expect(compareMac('0a:00:00:00:00:00', '02:ff:ff:ff:ff:ff')).toBeGreaterThan(0);
  });

  it('neither willing: the PFC mismatch persists and is reported on both sides', () => {
    const r = simulate(pair(port(LOW, { pfc: [3, 4] }), port(HIGH, { pfc: [6, 7] })), { duration_ps: 100 * S });
    expect(r.agents.a.mismatches).toMatchObject([{ feature: 'pfc', local: [3, 4], peer: [6, 7] }]);
    expect(r.agents.b.mismatches).toMatchObject([{ feature: 'pfc', local: [6, 7], peer: [3, 4] }]);
    expect(r.log.filter((e) => e.event === 'mismatch').length).toBe(2); // once each, not at every refresh
  });

  it('ETS is asymmetric: a willing port takes the peer Recommendation, and keeps its own without one', () => {
    const withRec = simulate(pair(port(LOW, { willing: true }), port(HIGH, { rec: true })), { duration_ps: 10 * S });
    expect(withRec.agents.a.operational.ets).toEqual({ prio_tc: [0, 1, 2, 3, 4, 5, 6, 7], tsa: ['ets', 'ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict'], bw: [25, 25, 25, 25, 0, 0, 0, 0] });
    expect(withRec.agents.a.state.ets).toBe('RX_RECOMMEND');
    expect(withRec.agents.b.operational.ets.bw).toEqual([40, 40, 20, 0, 0, 0, 0, 0]);
    const noRec = simulate(pair(port(LOW, { willing: true }), port(HIGH, { willing: false })), { duration_ps: 10 * S });
    expect(noRec.agents.a.state.ets).toBe('INIT');
    expect(noRec.agents.a.operational.ets.bw).toEqual([40, 40, 20, 0, 0, 0, 0, 0]);
  });

  it('APP entries of the peer are merged whatever the willing bits', () => {
    const fcoe = { selector: 1, protocol: 0x8906, priority: 3 };
    const roce = { selector: 'dgram', protocol: 4791, priority: 4 };
    const r = simulate(pair(port(LOW, { app: [fcoe] }), port(HIGH, { app: [roce, fcoe] })), { duration_ps: 10 * S });
    expect(r.agents.a.operational.app).toEqual([{ selector: 'ethertype', protocol: 0x8906, priority: 3 }, { selector: 'dgram', protocol: 4791, priority: 4 }]);
  });

  it('after adopting the peer PFC a port still advertises its own MBC (a capability), and runs the peer one', () => {
    const a = { ...port(LOW, { willing: true, pfc: [3] }), pfc: { enable: [3], willing: true, mbc: false, cap: 8 } };
    const b = { ...port(HIGH, { pfc: [5] }), pfc: { enable: [5], willing: false, mbc: true, cap: 8 } };
    const r = simulate(pair(a, b), { duration_ps: 10 * S });
    expect(r.agents.a.operational.pfc).toEqual({ enable: [5], mbc: true }); // what a programs (lldpad: remote mbc)
    const lastA = decodeLldpdu(r.lldpdus.filter((p) => p.from === 'a').at(-1)!.bytes).tlvs.find((t) => t.type === 'pfc');
    expect(lastA).toMatchObject({ enable: [5], mbc: false, willing: true });
  });

  it('the APP TLV advertises the operational table: local entries, then the peer entries merged', () => {
    const fcoe = { selector: 1, protocol: 0x8906, priority: 3 };
    const roce = { selector: 'dgram', protocol: 4791, priority: 4 };
    const r = simulate(pair(port(LOW, { app: [fcoe] }), port(HIGH, { app: [roce] })), { duration_ps: 10 * S });
    const appOf = (who: string) => decodeLldpdu(r.lldpdus.filter((p) => p.from === who).at(-1)!.bytes).tlvs.find((t) => t.type === 'app');
    expect(appOf('a')).toEqual({ type: 'app', app: [{ selector: 'ethertype', protocol: 0x8906, priority: 3 }, { selector: 'dgram', protocol: 4791, priority: 4 }] });
    expect(appOf('b')).toEqual({ type: 'app', app: [{ selector: 'dgram', protocol: 4791, priority: 4 }, { selector: 'ethertype', protocol: 0x8906, priority: 3 }] });
    // a port without local entries advertises what it learned; before a peer it sends no APP TLV
    const q = simulate(pair(port(LOW), port(HIGH, { app: [roce] })), { duration_ps: 10 * S });
    const aPdus = q.lldpdus.filter((p) => p.from === 'a').map((p) => decodeLldpdu(p.bytes).tlvs.find((t) => t.type === 'app'));
    expect(aPdus[0]).toBeUndefined();
    expect(aPdus.at(-1)).toEqual({ type: 'app', app: [{ selector: 'dgram', protocol: 4791, priority: 4 }] });
  });

  it("back to local config when the peer's PFC TLV disappears", () => {
    const a = port(LOW, { willing: true, pfc: [3] });
    const peer = decodeLldpdu(encodeLldpdu(ieeeLldpdu(port(HIGH, { pfc: [5] }))));
    expect(resolveIeee(a, peer).operational.pfc.enable).toEqual([5]);
    const without = { ...peer, tlvs: peer.tlvs.filter((t) => t.type !== 'pfc') };
    expect(resolveIeee(a, without)).toMatchObject({ state: { pfc: 'INIT' }, operational: { pfc: { enable: [3] } } });
  });

  it('TTL ageing: after the link goes down the neighbour ages out TTL seconds after its last LLDPDU and the port reverts', () => {
    const r = simulate(pair(port(LOW, { willing: true, pfc: [3, 4] }), port(HIGH, { pfc: [6, 7] })), {
      duration_ps: 200 * S,
      events: [{ t_ps: 10 * S, type: 'link_down', link: 0 }],
    });
    // b's last delivered LLDPDU left at 3 s + 1 us (fast transmissions at 1 us, 1 s, 2 s, 3 s after
    // the neighbour appeared) and arrived 1 us later; TTL 120 s -> a ages b out at 123 s + 2 us
    const lastFromB = r.lldpdus.filter((p) => p.from === 'b' && p.delivered).at(-1)!;
    expect(lastFromB.t_ps).toBe(3 * S + US);
    expect(r.log.find((e) => e.event === 'aged_out' && e.agent === 'a')!.t_ps).toBe(123 * S + 2 * US);
    expect(r.log.find((e) => e.event === 'revert' && e.agent === 'a')!.t_ps).toBe(123 * S + 2 * US);
    expect(r.agents.a.operational.pfc.enable).toEqual([3, 4]);
    expect(r.agents.a.peer).toBeNull();
  });

  it('a TTL-0 LLDPDU (shutdown) deletes the neighbour at once', () => {
    const r = simulate(pair(port(LOW, { willing: true, pfc: [3, 4] }), port(HIGH, { pfc: [6, 7] })), {
      duration_ps: 20 * S,
      events: [{ t_ps: 10 * S, type: 'shutdown', agent: 'b' }],
    });
    expect(r.log.find((e) => e.event === 'aged_out' && e.agent === 'a')).toMatchObject({ t_ps: 10 * S + US, reason: 'peer shut down (TTL 0)' });
    expect(r.agents.a.operational.pfc.enable).toEqual([3, 4]);
  });
});

describe('LLDP timers', () => {
  it('fast transmissions then msgTxInterval, as 802.1AB txFast/msgFastTx/msgTxInterval give', () => {
    const r = simulate(pair(port(LOW, { willing: true, pfc: [3, 4] }), port(HIGH, { pfc: [6, 7] })), { duration_ps: 100 * S });
    // start: one LLDPDU at 0; the new neighbour at 1 us restarts txFast = 4: 1 us, +1 s, +2 s, +3 s;
    // then every 30 s: 33 s, 63 s, 93 s (each + 1 us)
    const times = r.lldpdus.filter((p) => p.from === 'a').map((p) => p.t_ps);
    expect(times).toEqual([0, US, S + US, 2 * S + US, 3 * S + US, 33 * S + US, 63 * S + US, 93 * S + US]);
  });
  it('is deterministic: the same inputs give the same LLDPDUs, byte for byte', () => {
    const run = () => simulate(pair(port(LOW, { willing: true, pfc: [3, 4] }), port(HIGH, { pfc: [6, 7] })), { duration_ps: 60 * S, mode: 'cee' });
    const x = run();
    const y = run();
    expect(x.lldpdus.map((p) => [p.t_ps, Buffer.from(p.bytes).toString('hex')])).toEqual(y.lldpdus.map((p) => [p.t_ps, Buffer.from(p.bytes).toString('hex')]));
  });
});

describe('CEE DCBX 1.01 (control and feature state machines)', () => {
  const ceeOf = (bytes: Uint8Array) => decodeLldpdu(bytes).tlvs.find((t): t is CeeTlv => t.type === 'cee')!;

  it('SeqNo/AckNo handshake: each side acknowledges the other and a willing PFC adopts', () => {
    const r = simulate(pair(port(LOW, { willing: true, pfc: [3, 4] }), port(HIGH, { pfc: [6, 7] })), { duration_ps: 60 * S, mode: 'cee' });
    expect(r.agents.a.operational.pfc.enable).toEqual([6, 7]);
    expect(r.agents.a.state).toMatchObject({ pfc: 'adopted', pg: 'adopted' });
    expect(r.agents.b.state).toMatchObject({ pfc: 'local' });
    // every LLDPDU acknowledges the peer's SeqNo it last saw: the final ones carry SeqNo = AckNo of the other side
    const last = (who: string) => ceeOf(r.lldpdus.filter((p) => p.from === who).at(-1)!.bytes).control;
    expect(last('a').ack).toBe(last('b').seq);
    expect(last('b').ack).toBe(last('a').seq);
    // the first LLDPDU of each side: SeqNo 1 (initial configuration), AckNo 0 (nothing seen yet)
    const first = ceeOf(r.lldpdus[0].bytes).control;
    expect([first.seq, first.ack]).toEqual([1, 0]);
  });

  it('a first peer TLV that leaves every Error bit clear does not bump SeqNo (nothing advertised changed)', () => {
    const r = simulate(pair(port(LOW, { willing: true, pfc: [3] }), port(HIGH, { pfc: [3] })), { duration_ps: 60 * S, mode: 'cee' });
    const seqs = (who: string) => [...new Set(r.lldpdus.filter((p) => p.from === who).map((p) => ceeOf(p.bytes).control.seq))];
    expect(seqs('a')).toEqual([1]);
    expect(seqs('b')).toEqual([1]);
    const last = (who: string) => ceeOf(r.lldpdus.filter((p) => p.from === who).at(-1)!.bytes).control;
    expect([last('a').ack, last('b').ack]).toEqual([1, 1]);
  });

  it('both not willing and PFC differs: Error set in the advertised PFC feature, no MAC tie-break', () => {
    const r = simulate(pair(port(LOW, { pfc: [3, 4] }), port(HIGH, { pfc: [6, 7] })), { duration_ps: 60 * S, mode: 'cee' });
    expect(r.agents.a.state.pfc).toBe('mismatch');
    expect(r.agents.a.operational.pfc.enable).toEqual([3, 4]);
    expect(r.agents.b.operational.pfc.enable).toEqual([6, 7]);
    const lastA = ceeOf(r.lldpdus.filter((p) => p.from === 'a').at(-1)!.bytes);
    expect(lastA.pfc).toMatchObject({ error: true, enable: true });
    expect(lastA.pg).toMatchObject({ error: false }); // PG is always compatible (asymmetric)
  });

  it('a DSCP APP entry cannot be advertised in CEE (exit-2 class error naming the field)', () => {
    expect(() => simulate(pair(port(LOW, { app: [{ selector: 'dscp', protocol: 26, priority: 3 }] }), port(HIGH)), { duration_ps: S, mode: 'cee' })).toThrow(/app\[0\]\.selector: CEE DCBX has no DSCP selector/);
  });
});

describe('a chain of agents', () => {
  it('relays the upstream PFC hop by hop: A (not willing, 3,4) - B (willing, relay) - C (willing)', () => {
    const r = simulate(
      [
        { name: 'A', cfg: port('02:00:00:00:00:10', { pfc: [3, 4] }) },
        { name: 'B', cfg: port('02:00:00:00:00:20', { willing: true, pfc: [0] }), relay: true },
        { name: 'C', cfg: port('02:00:00:00:00:30', { willing: true, pfc: [7] }) },
      ],
      { duration_ps: 60 * S },
    );
    expect(Object.keys(r.agents)).toEqual(['A>B', 'B>A', 'B>C', 'C>B']);
    for (const a of ['B>A', 'B>C', 'C>B']) expect(r.agents[a].operational.pfc.enable).toEqual([3, 4]);
    // B>A adopts at 1 us, B>C re-advertises at once, C>B hears it 1 us later
    expect(r.log.find((e) => e.event === 'adopt' && e.agent === 'C>B')!.t_ps).toBe(2 * US);
    expect(r.agents['C>B'].mismatches).toEqual([]);
  });
});
