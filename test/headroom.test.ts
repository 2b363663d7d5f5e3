// Headroom (host/headroom.ts, `dcbkit headroom`): the DESIGN.md §4.1 component model and the
// SONiC Mellanox-plugin profile, with the arithmetic written out.
import { describe, expect, it } from 'vitest';
import { InputError } from '../host/errors.js';
import fc from 'fast-check';
import {
  computeHeadroom, interfaceAssumption, MAX_INTERFACE_DELAY_BT, parseCable, parseInterfaceDelay, parseSpeed, SPEED_TABLE,
} from '../host/headroom.js';
import { runCli } from './helpers.js';

describe('headroom: component model (profile ieee)', () => {
  it('100G, 300 m, MTU 9216 -> 111,992 B', () => {
    const r = computeHeadroom({ speedBps: 100e9, cableM: 300, mtu: 9216 });
    // max frame at the sender   (9216 + 20) * 8            =  73,888 bits
    // PFC frame                 (64 + 20) * 8              =     672
    // interface delay           2 * 122,880                = 245,760
    // cable                     2 * 300 m * 5 ns * 100 Gb/s = 300,000
    // peer response             394 quanta * 512           = 201,728
    // last lossless frame       (9216 + 20) * 8            =  73,888
    // total 895,936 bits / 8 = 111,992 B
    expect(r.components).toEqual({
      max_frame_sender: 73_888, pfc_frame: 672, interface_delay: 245_760,
      cable_delay: 300_000, peer_response: 201_728, max_lossless_frame: 73_888,
    });
    expect(r.total_bits).toBe(895_936);
    expect(r.headroom_bytes).toBe(111_992);
    expect(r.assumptions).toEqual([]);
  });

  it('10G, 100 m, MTU 2300 (FCoE) uses the 10G constants', () => {
    const r = computeHeadroom({ speedBps: 10e9, cableM: 100, mtu: 2300 });
    // 2 * 18,560 (frames) + 672 + 2 * 8192 + 2 * 100 * 5 ns * 10 Gb/s (= 10,000) + 67 * 512 (= 34,304)
    // = 37,120 + 672 + 16,384 + 10,000 + 34,304 = 98,480 bits = 12,310 B
    expect(r.total_bits).toBe(98_480);
    expect(r.headroom_bytes).toBe(12_310);
  });

  it('a fractional cable term is rounded up to whole bits and bytes', () => {
    // 25G, 1.001 m: 2 * 1.001 * 5 ns * 25e9 = 250.25 bits -> 251
    const r = computeHeadroom({ speedBps: 25e9, cableM: 1.001, mtu: 1500 });
    expect(r.components.cable_delay).toBe(251);
    // 2 * 1520 * 8 + 672 + 2 * 6144 + 251 + 80 * 512 = 24,320 + 672 + 12,288 + 251 + 40,960 = 78,491 -> 9,812 B (ceil of 9,811.4)
    expect(r.headroom_bytes).toBe(9812);
  });

  it('speeds without a quoted interface bound say what was assumed', () => {
    for (const [bps, bt] of [[50e9, 61_440], [200e9, 245_760], [400e9, 491_520]] as const) {
      const r = computeHeadroom({ speedBps: bps, cableM: 0, mtu: 1500 });
      // 1228.8 ns per end at bps: 1228.8e-9 * bps bit times
      expect(r.components.interface_delay).toBe(2 * bt);
      expect(bt).toBe(Math.round(1228.8e-9 * bps));
      expect(r.assumptions).toEqual([interfaceAssumption(bps, bt)]);
      expect(r.assumptions[0]).toContain(`assumed ${bt} bit times per end (1228.8 ns`);
      expect(r.assumptions[0]).toContain('docs/headroom.md');
    }
    // the quoted speeds carry no assumption
    for (const bps of [10e9, 25e9, 40e9, 100e9]) expect(computeHeadroom({ speedBps: bps, cableM: 0, mtu: 1500 }).assumptions).toEqual([]);
  });

  // Vectors for the speeds whose interface term is the flagged assumption (1228.8 ns per end,
  // docs/headroom.md). The other five terms are sourced; these pin the arithmetic, and change
  // only in the interface_delay term if a sourced 802.3 figure replaces the assumption.
  it.each([
    // 2 * 73,888 + 672 + 2 * 61,440 + 2 * 100 m * 5 ns * 50 Gb/s (= 50,000) + 147 * 512 (= 75,264)
    // = 147,776 + 672 + 122,880 + 50,000 + 75,264 = 396,592 bits = 49,574 B
    [50e9, 122_880, 50_000, 75_264, 396_592, 49_574],
    // 147,776 + 672 + 2 * 245,760 + 200,000 + 453 * 512 (= 231,936) = 1,071,904 bits = 133,988 B
    [200e9, 491_520, 200_000, 231_936, 1_071_904, 133_988],
    // 147,776 + 672 + 2 * 491,520 + 400,000 + 905 * 512 (= 463,360) = 1,994,848 bits = 249,356 B
    [400e9, 983_040, 400_000, 463_360, 1_994_848, 249_356],
  ])('%d b/s, 100 m, MTU 9216 (interface term assumed)', (bps, intf, cable, resp, bits, bytes) => {
    const r = computeHeadroom({ speedBps: bps, cableM: 100, mtu: 9216 });
    expect(r.components).toEqual({
      max_frame_sender: 73_888, pfc_frame: 672, interface_delay: intf,
      cable_delay: cable, peer_response: resp, max_lossless_frame: 73_888,
    });
    expect(r.total_bits).toBe(bits);
    expect(r.headroom_bytes).toBe(bytes);
    expect(r.assumptions).toHaveLength(1);
  });

  it('a caller-given interface delay replaces the table figure and the assumption', () => {
    // 400G, 100 m, 9216 with 655,360 BT per end (a caller's figure, 1638.4 ns at 400G):
    // 1,994,848 - 983,040 + 2 * 655,360 = 2,322,528 bits = 290,316 B
    const r = computeHeadroom({ speedBps: 400e9, cableM: 100, mtu: 9216, interfaceDelayBt: 655_360 });
    expect(r.components.interface_delay).toBe(1_310_720);
    expect(r.total_bits).toBe(2_322_528);
    expect(r.headroom_bytes).toBe(290_316);
    expect(r.assumptions).toEqual([]);
    // giving the table's own 100G figure reproduces the pinned vector
    expect(computeHeadroom({ speedBps: 100e9, cableM: 300, mtu: 9216, interfaceDelayBt: 122_880 }).headroom_bytes).toBe(111_992);
  });

  it('each extra bit time of interface delay per end adds exactly 2 bits', () => {
    fc.assert(fc.property(
      fc.constantFrom(...SPEED_TABLE.keys()), fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 100_000 }),
      fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 64, max: 9216 }),
      (bps, d, k, cableM, mtu) => {
        const a = computeHeadroom({ speedBps: bps, cableM, mtu, interfaceDelayBt: d });
        const b = computeHeadroom({ speedBps: bps, cableM, mtu, interfaceDelayBt: d + k });
        return b.total_bits! - a.total_bits! === 2 * k && b.headroom_bytes >= a.headroom_bytes && b.assumptions.length === 0;
      },
    ), { numRuns: 200 });
  });

  it('rejects a bad interface delay, and one given to the sonic profile', () => {
    for (const d of [-1, 1.5, NaN, MAX_INTERFACE_DELAY_BT + 1]) {
      expect(() => computeHeadroom({ speedBps: 100e9, cableM: 1, mtu: 1500, interfaceDelayBt: d })).toThrow(/interface_delay: must be a whole number/);
    }
    expect(() => computeHeadroom({ speedBps: 100e9, cableM: 1, mtu: 1500, interfaceDelayBt: 1, profile: 'sonic' }))
      .toThrow(/interface_delay: applies to profile ieee only/);
    expect(parseInterfaceDelay(' 655360 ')).toBe(655_360);
    expect(() => parseInterfaceDelay('1e5')).toThrow(/interface-delay: must be a whole number of bit times/);
    expect(() => parseInterfaceDelay(String(MAX_INTERFACE_DELAY_BT + 1))).toThrow(InputError);
  });

  it('rejects unknown speeds and bad sizes with path: rule problems', () => {
    expect(() => computeHeadroom({ speedBps: 1e9, cableM: 1, mtu: 1500 })).toThrow(InputError);
    expect(() => computeHeadroom({ speedBps: 100e9, cableM: -1, mtu: 1500 })).toThrow(/cable/);
    expect(() => computeHeadroom({ speedBps: 100e9, cableM: 1, mtu: 10 })).toThrow(/mtu/);
  });
});

describe('headroom: SONiC Mellanox-plugin profile', () => {
  // The plugin's own arithmetic (sonic-swss cfgmgr/buffer_headroom_mellanox.lua), Spectrum-1 inputs:
  // speed in Mb/s, cable and gearbox bytes divided by 8 * 1024, worst-case factor not rounded.
  it('Spectrum-1, 100G, 300 m, port MTU 9100, lossless MTU 1024 -> xoff 144,384, xon 18,432, size 162,816', () => {
    const r = computeHeadroom({ speedBps: 100e9, cableM: 300, mtu: 9100, losslessMtu: 1024, profile: 'sonic' });
    // worst_case_factor = 2 * 96 / (1 + 96) = 1.97938 (cell 96 <= 128); occupancy = (100 - 100 + 100 * 1.97938) / 100
    // bytes_on_cable    = 2 * 300 * 100000 * 1e9 / 1.98e8 / 8192 = 36,991.00
    // propagation       = 9100 + 36,991.00 + 0.8 * 1024 + 394 * 512 / 8 = 9100 + 36,991.00 + 819.2 + 25,216 = 72,126.20
    // xoff = 1024 + 72,126.20 * 1.97938 = 143,789.27 -> 141 * 1024 = 144,384
    // xon  = 18 * 1024 = 18,432; size = 144,384 + 18,432 = 162,816
    expect(r.cell_occupancy).toBeCloseTo(192 / 97, 12);
    expect(r.xoff_bytes).toBe(144_384);
    expect(r.headroom_bytes).toBe(144_384);
    expect(r.xon_bytes).toBe(18_432);
    expect(r.size_bytes).toBe(162_816);
  });

  it('with no small packets the occupancy factor is 1', () => {
    const r = computeHeadroom({
      speedBps: 100e9, cableM: 300, mtu: 9100, losslessMtu: 1024, profile: 'sonic', sonic: { smallPacketPercent: 0 },
    });
    // xoff = 1024 + 72,126.20 = 73,150.20 -> 72 * 1024 = 73,728; size = 73,728 + 18,432 = 92,160
    expect(r.cell_occupancy).toBe(1);
    expect(r.xoff_bytes).toBe(73_728);
    expect(r.size_bytes).toBe(92_160);
  });

  it('8-lane ports: pipeline latency doubled less 1 KB, one port MTU added to the size', () => {
    const r = computeHeadroom({ speedBps: 400e9, cableM: 5, mtu: 9100, losslessMtu: 1024, profile: 'sonic', sonic: { eightLane: true } });
    // xon = 18,432 * 2 - 1024 = 35,840; size = ceil1024(xoff + 35,840 + 9100)
    expect(r.xon_bytes).toBe(35_840);
    expect(r.size_bytes).toBe(Math.ceil((r.xoff_bytes! + 35_840 + 9100) / 1024) * 1024);
  });

  it('cells above 128 B use cell / 64 (Spectrum-2: 144 B -> 2.25)', () => {
    const r = computeHeadroom({ speedBps: 100e9, cableM: 0, mtu: 1500, profile: 'sonic', sonic: { cellBytes: 144 } });
    expect(r.cell_occupancy).toBe(2.25);
  });
});

describe('headroom: parsing', () => {
  it('parses speeds and cable lengths', () => {
    expect(parseSpeed('100G')).toBe(100e9);
    expect(parseSpeed('25Gbps')).toBe(25e9);
    expect(parseCable('300m')).toBe(300);
    expect(parseCable('1.5km')).toBe(1500);
    expect(() => parseSpeed('100')).toThrow(/speed: must be one of 10G, 25G, 40G, 50G, 100G, 200G, 400G/);
    expect(() => parseCable('300')).toThrow(/cable: must be a length like 300m/);
    expect(() => parseCable('200km')).toThrow(/at most 100km/);
  });
});

describe('dcbkit headroom', () => {
  it('--json prints the pinned document', () => {
    const r = runCli(['headroom', '--speed', '100G', '--cable', '300m', '--mtu', '9216', '--json']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc.headroom_bytes).toBe(111_992);
    expect(Object.values(doc.components as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(895_936);
  });

  it('human output lists every component and the total', () => {
    const r = runCli(['headroom', '--speed', '100G', '--cable', '300m', '--mtu', '9216']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/cable_delay\s+300000 bits\s+37500 B/);
    expect(r.stdout).toMatch(/headroom: 111992 B/);
  });

  it('--interface-delay replaces the table figure; assumed speeds print a note otherwise', () => {
    const given = runCli(['headroom', '--speed', '400G', '--cable', '100m', '--interface-delay', '655360', '--json']);
    expect(given.status).toBe(0);
    expect(JSON.parse(given.stdout)).toMatchObject({ headroom_bytes: 290_316, total_bits: 2_322_528, assumptions: [] });
    const assumed = runCli(['headroom', '--speed', '400G', '--cable', '100m']);
    expect(assumed.status).toBe(0);
    expect(assumed.stdout).toMatch(/headroom: 249356 B/);
    expect(assumed.stdout).toMatch(/^note: interface delay at 400G: no sourced IEEE 802\.3 figure; assumed 491520 bit times per end/m);
  });

  it('--profile sonic', () => {
    const r = runCli(['headroom', '--speed', '100G', '--cable', '300m', '--mtu', '9100', '--lossless-mtu', '1024', '--profile', 'sonic', '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ headroom_bytes: 144_384, xon_bytes: 18_432, size_bytes: 162_816 });
  });

  it.each([
    [['--speed', '7G', '--cable', '300m'], /^--speed: must be one of/m],
    [['--speed', '100G', '--cable', 'far'], /^--cable: must be a length like 300m/m],
    [['--speed', '100G', '--cable', '300m', '--mtu', 'big'], /^--mtu: must be a whole number/m],
    [['--speed', '100G', '--cable', '300m', '--profile', 'cisco'], /^--profile: must be one of ieee, sonic/m],
    [['--cable', '300m'], /speed/],
    [['--speed', '100G', '--cable', '300m', '--interface-delay', '-5'], /^--interface-delay: must be a whole number of bit times/m],
    [['--speed', '100G', '--cable', '300m', '--interface-delay', '10', '--profile', 'sonic'], /^--interface-delay: applies to profile ieee only/m],
  ])('exits 2 on bad flags %j with nothing on stdout', (args, message) => {
    const r = runCli(['headroom', ...args]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('reports every bad flag at once', () => {
    const r = runCli(['headroom', '--speed', 'x', '--cable', 'y', '--mtu', 'z']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n').map((l) => l.split(':')[0])).toEqual(['--speed', '--cable', '--mtu']);
  });
});
