// `dcbkit headroom --profile sonic|sonic-2023` accepts what SONiC's Mellanox buffer plugin accepts
// and starts where SONiC starts. The vectors below are the plugin's own answers: the script
// (sonic-net/sonic-swss cfgmgr/buffer_headroom_mellanox.lua at e6b0c5b for `sonic`, at 4957df8 for
// `sonic-2023`) was run unchanged in Debian's redis-server 7.0 with EVALSHA, the way buffermgrdyn.cpp
// calls it (speed in Mb/s, "<N>m", port mtu, gearbox delay, lanes), with STATE_DB ASIC_TABLE and
// CONFIG_DB LOSSLESS_TRAFFIC_PATTERN / DEFAULT_LOSSLESS_BUFFER_PARAMETER set per case, on 2026-11-26;
// dcbkit agreed on all 910 cases of that run (both eras, the six presets and one ASIC_TABLE entry,
// 13 speeds from 100M to 800G and 12345 Mb/s, 1 to 8 lanes, the pool on and off, lossless MTU above
// the port MTU). These rows are the ones that exercise what the plugin takes and dcbkit refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeHeadroom, parseAsicTable, type AsicName, type HeadroomProfile } from '../../host/analysis/headroom.js';
import { InputError } from '../../host/errors/errors.js';
import { runCli } from '../helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-headroom-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The ASIC_TABLE entry of the run's "custom" rows: a key ending in 4, so the on-tile term applies. */
const CUSTOM = { 'ACME-SWITCH-4': { cell_size: '160', pipeline_latency: '21.5', mac_phy_delay: '1.2', peer_response_time: '4.5' } };

type Row = [HeadroomProfile, AsicName | 'custom', number, number, number, number, number, number, boolean, number, number, number, number];
// profile, asic, speed Mb/s, cable m, port mtu, lossless mtu, small packet %, lanes, pool, gearbox ns -> plugin xoff, xon, size
const PLUGIN: Row[] = [
  ['sonic', 'spectrum1', 100, 5, 9100, 1024, 50, 4, false, 0, 14336, 19456, 33792],
  ['sonic', 'spectrum1', 1000, 5, 9100, 1024, 50, 4, false, 0, 14336, 19456, 33792],
  ['sonic', 'spectrum1', 2500, 5, 9100, 1024, 50, 4, false, 0, 19456, 19456, 38912],
  ['sonic', 'spectrum1', 5000, 5, 9100, 1024, 50, 4, false, 0, 19456, 19456, 38912],
  ['sonic', 'spectrum1', 12345, 5, 9100, 1024, 50, 4, false, 0, 19456, 19456, 38912],
  ['sonic', 'spectrum4', 100000, 300, 9100, 9216, 100, 8, false, 0, 233472, 38912, 281600],
  ['sonic', 'spectrum6', 1000, 300, 9100, 9216, 100, 8, false, 0, 69632, 86016, 164864],
  ['sonic', 'spectrum2', 400000, 40, 1500, 1500, 0, 2, true, 0, 89088, 19456, 19456],
  ['sonic', 'custom', 100000, 5, 9100, 1024, 50, 4, false, 0, 50176, 22528, 72704],
  ['sonic', 'custom', 2500, 2000, 9216, 4096, 99, 8, true, 500, 53248, 44032, 44032],
  ['sonic', 'spectrum3', 40000, 1, 9100, 1024, 50, 1, false, 0, 25600, 19456, 45056],
  ['sonic-2023', 'spectrum1', 100, 5, 9100, 1024, 50, 4, false, 0, 16384, 19456, 35840],
  ['sonic-2023', 'spectrum1', 1000, 5, 9100, 1024, 50, 4, false, 0, 16384, 19456, 35840],
  ['sonic-2023', 'spectrum1', 2500, 5, 9100, 1024, 50, 4, false, 0, 22528, 19456, 41984],
  ['sonic-2023', 'spectrum1', 12345, 5, 9100, 1024, 50, 4, false, 0, 22528, 19456, 41984],
  ['sonic-2023', 'spectrum4', 100000, 300, 9100, 9216, 100, 8, false, 0, 226304, 37888, 273408],
  ['sonic-2023', 'spectrum6', 1000, 300, 9100, 9216, 100, 8, false, 0, 51200, 84992, 145408],
  ['sonic-2023', 'spectrum2', 400000, 40, 1500, 1500, 0, 2, true, 0, 81920, 19456, 19456],
  ['sonic-2023', 'custom', 100000, 5, 9100, 1024, 50, 4, false, 0, 64512, 22528, 87040],
  ['sonic-2023', 'custom', 2500, 2000, 9216, 4096, 99, 8, true, 500, 58368, 43008, 43008],
  ['sonic-2023', 'spectrum3', 40000, 1, 9100, 1024, 50, 1, false, 0, 29696, 19456, 49152],
];

describe('the sonic profiles take what the plugin takes', () => {
  it.each(PLUGIN)('%s %s %i Mb/s %i m mtu %i/%i %i %% %i lanes pool %s gearbox %i -> xoff %i xon %i size %i',
    (profile, asic, mbps, cable, mtu, lossless, spp, lanes, pool, gearbox, xoff, xon, size) => {
      const sonic = { lanes, smallPacketPercent: spp, sharedHeadroomPool: pool, gearboxDelayNs: gearbox,
        ...(asic === 'custom' ? { asic: 'custom' as const, asicTable: parseAsicTable(CUSTOM) } : { asic }) };
      const r = computeHeadroom({ speedBps: mbps * 1e6, cableM: cable, mtu, losslessMtu: lossless, profile, sonic });
      expect([r.xoff_bytes, r.xon_bytes, r.size_bytes]).toEqual([xoff, xon, size]);
      // the plugin's pause-quanta table has 100M and 1G; other unlisted speeds use peer_response_time
      expect(r.peer_response_from).toBe([2500, 5000, 12345].includes(mbps) ? 'peer_response_time' : undefined);
    });

  it('an ASIC_TABLE entry: SONiC\'s strings or numbers, the generation from the key\'s last character; problems name the field', () => {
    expect(parseAsicTable({ cell_size: 96, pipeline_latency: 19, mac_phy_delay: 0.8, peer_response_time: 3.8 })).toMatchObject({ key: 'ASIC_TABLE', cellBytes: 96, onTile: false, xoffCompensationBytes: 0 });
    expect(parseAsicTable({ 'X-6': { cell_size: '256', pipeline_latency: '42', mac_phy_delay: '0.8', peer_response_time: '3.8' } }).xoffCompensationBytes).toBe(18 * 1024);
    let err: unknown;
    try {
      parseAsicTable({ 'X-1': { cell_size: '9.5', pipeline_latency: 'fast', mac_phy_delay: '0.8', cellsize: 1 } }, '--asic-table');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).problems.map((p) => p.path)).toEqual([
      '--asic-table: X-1.cell_size', '--asic-table: X-1.pipeline_latency', '--asic-table: X-1.peer_response_time', '--asic-table: X-1.cellsize',
    ]);
  });
});

describe('dcbkit headroom --profile sonic starts where SONiC starts', () => {
  it('defaults to SONiC\'s port MTU 9100 and lossless MTU 1024: 100G, 5 m gives the shipped 44,032 B xoff', () => {
    const r = runCli(['headroom', '--speed', '100G', '--cable', '5m', '--profile', 'sonic', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect([j.mtu, j.lossless_mtu, j.xoff_bytes, j.xon_bytes, j.size_bytes]).toEqual([9100, 1024, 44032, 19456, 63488]);
    // the ieee profile keeps its own defaults
    expect(JSON.parse(runCli(['headroom', '--speed', '100G', '--cable', '5m', '--json']).stdout)).toMatchObject({ mtu: 9216, lossless_mtu: 9216 });
  });

  it('--help says so', () => {
    const help = runCli(['headroom', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/Default 9216; 9100 with the sonic profiles/);
    expect(help).toMatch(/1024 with the sonic profiles/);
    expect(help).toContain('--asic-table');
  });

  it('takes 100M, 1G and any whole Mb/s, any lane count, and an --asic-table file', () => {
    const run = (...extra: string[]) => runCli(['headroom', '--profile', 'sonic', '--json', ...extra]);
    expect(JSON.parse(run('--speed', '100M', '--cable', '5m').stdout).xoff_bytes).toBe(14336);
    expect(JSON.parse(run('--speed', '1G', '--cable', '5m').stdout).xoff_bytes).toBe(14336);
    expect(JSON.parse(run('--speed', '12345M', '--cable', '5m').stdout)).toMatchObject({ xoff_bytes: 19456, peer_response_from: 'peer_response_time' });
    expect(JSON.parse(run('--speed', '40G', '--cable', '1m', '--asic', 'spectrum3', '--lanes', '1').stdout).xoff_bytes).toBe(25600);
    const table = join(tmp, 'asic.yaml');
    writeFileSync(table, 'ACME-SWITCH-4:\n  cell_size: "160"\n  pipeline_latency: "21.5"\n  mac_phy_delay: "1.2"\n  peer_response_time: "4.5"\n');
    const custom = run('--speed', '100G', '--cable', '5m', '--asic-table', table);
    expect(custom.status, custom.stderr).toBe(0);
    expect(JSON.parse(custom.stdout)).toMatchObject({ xoff_bytes: 50176, xon_bytes: 22528, size_bytes: 72704 });
    expect(runCli(['headroom', '--speed', '100G', '--cable', '5m', '--profile', 'sonic', '--asic-table', table]).stdout).toContain('ASIC_TABLE ACME-SWITCH-4 (cell 160 B)');
  });

  it('computes a lossless MTU above the port MTU, as the plugin does, with a warning; ieee still refuses it', () => {
    const r = runCli(['headroom', '--speed', '100G', '--cable', '300m', '--profile', 'sonic', '--asic', 'spectrum4', '--lanes', '8', '--small-packet-percent', '100', '--lossless-mtu', '9216', '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ xoff_bytes: 233472, xon_bytes: 38912, size_bytes: 281600 });
    expect(r.stderr).toBe('warning: --lossless-mtu: exceeds the port MTU (9100 bytes), got 9216; the plugin computes it as given, but no lossless frame is larger than the port MTU\n');
    const ieee = runCli(['headroom', '--speed', '100G', '--cable', '300m', '--mtu', '1500', '--lossless-mtu', '9216']);
    expect(ieee.status).toBe(2);
  });

  it('bad values still name the flag and the rule', () => {
    const r = runCli(['headroom', '--speed', '1.5M', '--cable', '5m', '--profile', 'sonic', '--lanes', '0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--speed: must be a speed like 100M, 1G, 100G');
    expect(r.stderr).toContain('--lanes: must be a whole number of lanes 1..64');
    const both = runCli(['headroom', '--speed', '100G', '--cable', '5m', '--profile', 'sonic', '--asic', 'spectrum1', '--asic-table', join(tmp, 'missing.yaml')]);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/^--asic-table: give --asic .* or --asic-table/m);
    expect(both.stderr).toMatch(/^--asic-table: .*missing\.yaml: cannot read/m);
    expect(runCli(['headroom', '--speed', '1G', '--cable', '5m']).stderr).toMatch(/^--speed: must be one of 10G, 25G/);
  });
});
