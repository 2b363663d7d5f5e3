// IR: weights (cumulative rounding, byte quanta), maps, PGs, and the problems a device cannot hold.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { buildIr, cumulativeRound } from '../../codegen/ir.js';
import { Core } from '../../host/core/loader.js';
import { EtsHarness } from '../../host/core/ets.js';
import { etsFromPg, type DcbConfig } from '../../host/config/index.js';
import { defaultDevice, parseDevice } from '../../codegen/device.js';
import { generate, TARGET_NAMES } from '../../codegen/index.js';
import { InputError } from '../../host/errors/errors.js';
import { arbConfig, exampleConfig, exampleInput, losslessConfig, losslessInput, parsed, testHeadroom } from './fixtures.js';

const opts = { headroom: testHeadroom };

describe('cumulativeRound (sch_ets offload rounding)', () => {
  test('tc-ets(8) example quanta 3500 3000 2500 offload as 38/34/28 (w_psum differences)', () => {
    // psum 3500 -> floor(350000/9000) = 38; 6500 -> 72 (34); 9000 -> 100 (28)
    expect(cumulativeRound([3500, 3000, 2500], 100)).toEqual([38, 34, 28]);
    expect(cumulativeRound([0, 0], 100)).toEqual([0, 0]);
  });

  test('property: shares sum to the total and each is within 1 of the exact share', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100000 }), { minLength: 1, maxLength: 8 }).filter((a) => a.some((x) => x > 0)), (q) => {
        const w = cumulativeRound(q, 100);
        const sum = q.reduce((a, b) => a + b, 0);
        expect(w.reduce((a, b) => a + b, 0)).toBe(100);
        q.forEach((x, i) => expect(Math.abs(w[i] - (x * 100) / sum)).toBeLessThan(1));
      }),
      { numRuns: 300 },
    );
  });
});

describe('buildIr', () => {
  test('docs/design.md §5 example: maps, weights, quanta, DSCP, PGs', () => {
    const ir = buildIr(exampleConfig(), defaultDevice, opts);
    expect(ir.prioTc).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    expect(ir.tcs.map((t) => t.bwPercent)).toEqual([40, 40, 20, 0, 0, 0, 0, 0]);
    // Q = ceil((9216 + 20) / 20) = 462 B per percent
    expect(ir.quantumUnitBytes).toBe(462);
    expect(ir.tcs.slice(0, 3).map((t) => t.quantumBytes)).toEqual([18480, 18480, 9240]);
    expect(ir.tcs.map((t) => t.used)).toEqual([true, true, true, true, false, false, false, false]);
    expect(ir.dscpTc[26]).toBe(1); // APP dscp 26 -> priority 3 -> TC 1
    expect(ir.dscpTc[0]).toBe(0);
    expect(ir.problems.map((p) => p.rule)).toEqual(['lossless priority 3 shares TC 1 and so its priority group with lossy priority 2']);
  });

  test('lossless config: PG per lossless TC, lossy TCs in PG 0, headroom cell-rounded and reported', () => {
    const ir = buildIr(losslessConfig(), parseDevice({ cell_bytes: 96 }), opts);
    expect(ir.tcPg).toEqual([0, 0, 0, 3, 4, 0, 0, 0]);
    const pg3 = ir.ports[0].pgs.find((g) => g.pg === 3)!;
    // 111992 / 96 = 1166.58 -> 1167 cells = 112032 B
    expect(pg3.headroomBytes).toBe(112032);
    expect(ir.quantisation).toContainEqual({ target: 'ir', path: 'ports[0].pg[3].headroom', quantity: 'headroom to whole cells of 96 B', wanted: 111992, got: 112032, unit: 'B', error: 40 });
    expect(ir.problems).toEqual([]);
  });

  test('property: every built IR keeps its invariants', () => {
    fc.assert(
      fc.property(arbConfig, (cfg) => {
        const ir = buildIr(cfg, defaultDevice, opts);
        const ets = ir.tcs.filter((t) => t.tsa === 'ets');
        if (ets.length) expect(ets.reduce((a, t) => a + t.bwPercent, 0)).toBe(100);
        for (const t of ir.tcs) {
          expect(t.priorities).toEqual(ir.prioTc.flatMap((tc, p) => (tc === t.tc ? [p] : [])));
          if (t.bwPercent > 0) expect(t.quantumBytes).toBeGreaterThanOrEqual(ir.maxWireFrameBytes);
          if (t.used) expect(t.queue).toBeGreaterThanOrEqual(0);
          if (t.lossless) for (const p of t.priorities) expect(ir.pfc.enabled[p]).toBe(true);
        }
        // A PG is lossless only if every priority in it has PFC on.
        for (const g of ir.ports[0].pgs) if (g.lossless) for (const p of g.priorities) expect(ir.pfc.enabled[p]).toBe(true);
        // Deterministic: same input, same IR.
        expect(JSON.stringify(buildIr(cfg, defaultDevice, opts))).toBe(JSON.stringify(ir));
      }),
      { numRuns: 200 },
    );
  });
});

describe('one config path: the IR shows the parser\'s answers (issue 9)', () => {
  test('defaults come from the parser: watchdog off, restoration 200 ms, kmax 200,000 B -> 782 cells of 256 B', () => {
    const ir = buildIr(parsed({ port: { speed: '100G' }, ets: losslessInput().ets, pfc: { enable: [3] }, qcn: { cp: { priorities: [3] } } }), defaultDevice, opts);
    expect(ir.watchdog).toEqual({ enabled: false, detectionMs: 200, restorationMs: 200, pollMs: 200, action: 'drop' });
    // 200000 / 256 = 781.25 -> 782 cells = 200,192 B
    expect(ir.tcs[3].ecn).toMatchObject({ kminBytes: 5120, kmaxBytes: 200192, pmaxPercent: 1 });
  });

  test('a pg-only config: PGID 15 lands in the TC etsFromPg gives it, for codegen as for the rest', () => {
    const pg = { prio_pgid: [1, 1, 0, 0, 1, 1, 1, 15], pg_bw: [50, 50, 0, 0, 0, 0, 0, 0] };
    const ir = buildIr(parsed({ pg }), defaultDevice, opts);
    const ets = etsFromPg(pg)!;
    expect(ir.prioTc).toEqual(ets.prio_tc);
    expect(ir.prioTc[7]).toBe(2); // PGIDs 0 and 1 become TCs 0 and 1; the one PGID 15 priority gets TC 2
    expect(ir.tcs.map((t) => t.tsa)).toEqual(ets.tsa);
    expect(ir.dcbxMode).toBe('cee');
  });

  test('property: wire frame, quantum unit and every non-zero quantum are the core\'s (etsConfigure on the port MTU)', () => {
    const core = new Core('release');
    fc.assert(
      fc.property(arbConfig, (cfg) => {
        const ir = buildIr(cfg, defaultDevice, opts);
        const h = new EtsHarness(core, cfg.ets, cfg.port.mtu);
        const snap = h.snapshot();
        expect(ir.maxWireFrameBytes).toBe(cfg.port.mtu + 20);
        expect(ir.quantumUnitBytes).toBe(snap.q_unit);
        for (const t of ir.tcs) expect(t.quantumBytes).toBe(t.bwPercent > 0 ? snap.quantum[t.tc] : 0);
      }),
      { numRuns: 100 },
    );
  });
});

describe('what a target cannot express: exit-2 problems as target: path: rule', () => {
  const expectProblems = (cfg: DcbConfig, device: ReturnType<typeof parseDevice>, targets: string[]) => {
    try {
      generate(cfg, device, targets, opts);
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      return (e as InputError).problems.map((p) => `${p.path}: ${p.rule}`);
    }
    throw new Error('expected an InputError');
  };

  test('more TCs than queues', () => {
    const lines = expectProblems(losslessConfig(), parseDevice({ queues_per_port: 4 }), ['sonic', 'linux']);
    expect(lines).toEqual([
      'sonic: ets.prio_tc: uses 8 traffic classes but device generic-8q has 4 queues per port',
      'linux: ets.prio_tc: uses 8 traffic classes but device generic-8q has 4 queues per port',
    ]);
  });

  test('fewer used TCs than queues but TC numbers above them get queues in order', () => {
    const c = { ...exampleInput(), pfc: { enable: [] } };
    const ir = buildIr(parsed(c), parseDevice({ queues_per_port: 4 }), opts);
    expect(ir.tcs.map((t) => t.queue)).toEqual([0, 1, 2, 3, -1, -1, -1, -1]);
    const c2 = { ...c, ets: { ...c.ets, prio_tc: [0, 0, 2, 2, 5, 5, 7, 7] } };
    expect(buildIr(parsed(c2), parseDevice({ queues_per_port: 4 }), opts).tcs.map((t) => t.queue)).toEqual([0, -1, 1, -1, -1, 2, -1, 3]);
  });

  test('lossless priority sharing a PG with a lossy one; a weight SAI (and rte_sched) cannot hold', () => {
    const c = exampleInput();
    c.ets.bw = [0, 80, 20, 0, 0, 0, 0, 0];
    expect(expectProblems(parsed(c), defaultDevice, TARGET_NAMES())).toEqual([
      'sonic: pfc.enable: lossless priority 3 shares TC 1 and so its priority group with lossy priority 2',
      'sonic: ets.bw[0]: SAI scheduler weight must be 1..100; an ETS TC with 0 % cannot be expressed',
      'p4: pfc.enable: lossless priority 3 shares TC 1 and so its priority group with lossy priority 2',
      'linux: pfc.enable: lossless priority 3 shares TC 1 and so its priority group with lossy priority 2',
      'c-header: pfc.enable: lossless priority 3 shares TC 1 and so its priority group with lossy priority 2',
      'dpdk: ets.bw[0]: rte_sched has no place for a 0 % ETS TC (served only while the other ETS TCs are idle): its best-effort queues share by WRR weight, and every strict TC ranks above them (rte_tm can: --dpdk-api tm emits tm.testpmd alone)',
      'sv: pfc.enable: lossless priority 3 shares TC 1 and so its priority group with lossy priority 2', // the c-header map as a package
    ]);
  });

  test('one DSCP mapped to two priorities stops the DSCP classifiers; one mapping does not', () => {
    const entry = (priority: number) => ({ selector: 'dscp', protocol: 26, priority });
    // An exact repeat never reaches codegen: the parser refuses it (`app[1]: repeats app[0]`).
    const c = { ...losslessInput(), app: [entry(3), entry(6)] };
    const lines = expectProblems(parsed(c), defaultDevice, ['sonic', 'p4', 'c-header', 'linux']);
    expect(lines).toEqual(['sonic', 'p4', 'c-header'].map((t) => `${t}: app[1]: DSCP 26 is mapped to priorities 3 and 6; a DSCP classifier holds one`));
    c.app = [entry(3)];
    const ir = buildIr(parsed(c), defaultDevice, opts);
    expect(ir.problems).toEqual([]);
    expect(ir.dscpPrio.filter((p) => p !== null)).toEqual([3]);
  });

  test('headroom larger than the device buffer', () => {
    const lines = expectProblems(losslessConfig(), parseDevice({ buffer_bytes: 100000 }), ['c-header']);
    // per lossless PG: xoff 4 x 9216 = 36864 B + headroom 111992 -> 438 cells of 256 B = 112128 B
    // = 148992 B; PGs 3 and 4 -> 297984 B
    expect(lines).toEqual(['c-header: pfc.enable: lossless reservations need 297984 B over all ports but device generic-8q has 100000 B of buffer']);
  });
});
