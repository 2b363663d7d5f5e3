// IR: weights (cumulative rounding, byte quanta), maps, PGs, and the problems a device cannot hold.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { buildIr, cumulativeRound, type CodegenConfig } from '../../codegen/ir.js';
import { defaultDevice, parseDevice } from '../../codegen/device.js';
import { generate } from '../../codegen/index.js';
import { InputError } from '../../host/errors.js';
import { arbConfig, exampleConfig, losslessConfig, testHeadroom } from './fixtures.js';

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
  test('DESIGN §5 example: maps, weights, quanta, DSCP, PGs', () => {
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

describe('what a target cannot express: exit-2 problems as target: path: rule', () => {
  const expectProblems = (cfg: CodegenConfig, device: ReturnType<typeof parseDevice>, targets: string[]) => {
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
    const c = exampleConfig();
    c.pfc = { enable: [] };
    const ir = buildIr(c, parseDevice({ queues_per_port: 4 }), opts);
    expect(ir.tcs.map((t) => t.queue)).toEqual([0, 1, 2, 3, -1, -1, -1, -1]);
    const c2 = { ...c, ets: { ...c.ets!, prio_tc: [0, 0, 2, 2, 5, 5, 7, 7] } };
    expect(buildIr(c2, parseDevice({ queues_per_port: 4 }), opts).tcs.map((t) => t.queue)).toEqual([0, -1, 1, -1, -1, 2, -1, 3]);
  });

  test('lossless priority sharing a PG with a lossy one; a weight SAI cannot hold', () => {
    const c = exampleConfig();
    c.ets!.bw = [0, 80, 20, 0, 0, 0, 0, 0];
    expect(expectProblems(c, defaultDevice, ['all'])).toEqual([
      'sonic: pfc.enable: lossless priority 3 shares TC 1 and so its priority group with lossy priority 2',
      'sonic: ets.bw[0]: SAI scheduler weight must be 1..100; an ETS TC with 0 % cannot be expressed',
      'p4: pfc.enable: lossless priority 3 shares TC 1 and so its priority group with lossy priority 2',
      'linux: pfc.enable: lossless priority 3 shares TC 1 and so its priority group with lossy priority 2',
      'c-header: pfc.enable: lossless priority 3 shares TC 1 and so its priority group with lossy priority 2',
    ]);
  });

  test('one DSCP mapped to two priorities stops the DSCP classifiers; a repeat of the same mapping does not', () => {
    const c = losslessConfig();
    c.app = [{ selector: 'dscp', protocol: 26, priority: 3 }, { selector: 'dscp', protocol: 26, priority: 3 }, { selector: 'dscp', protocol: 26, priority: 6 }];
    const lines = expectProblems(c, defaultDevice, ['sonic', 'p4', 'c-header', 'linux']);
    expect(lines).toEqual(['sonic', 'p4', 'c-header'].map((t) => `${t}: app[2]: DSCP 26 is mapped to priorities 3 and 6; a DSCP classifier holds one`));
    c.app = c.app.slice(0, 2);
    const ir = buildIr(c, defaultDevice, opts);
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
