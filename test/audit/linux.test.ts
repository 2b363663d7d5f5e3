// dcbkit audit --linux against a DCB-capable veth: the DCB netlink stand-in (test/dcbnl-standin/)
// makes interface `a` answer iproute2 `dcb` and lldpad as a host-managed DCBX NIC would. The device
// is programmed from one config with the dcb.sh and lldptool.sh that `dcbkit codegen --target linux`
// writes, run by the real sh, dcb and lldptool; then audit (which runs the real `dcb -j ... show` and
// lldptool as child processes) must find it clean against that config, and report every planted
// difference against other configs and after changes made by hand with dcb and lldptool.
//
// lldpad owns the device's ETS and PFC: about 15 s after the port comes up (lldpad's DORMANT_DELAY)
// it starts rewriting the whole ieee_ets and ieee_pfc at every LLDPDU it builds, from its own ETS-CFG
// and PFC settings, with the ETS-CFG tables in the recommendation fields too (open-lldp
// lldp_8021qaz.c run_all_sm, ets_cfg_to_ieee). The tests used to race that first rewrite: fast enough,
// they were done before it; on a loaded machine it landed first and the recommendation dcb.sh had
// written read back as 40/40/20. So dcb.sh no longer writes a recommendation, the setup waits for
// lldpad's first rewrite, and a change made by hand with dcb is checked to be undone by lldpad.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { packageRoot } from '../../host/core/loader.js';
import { runCli, type CliResult } from '../helpers.js';
import { StandinNetns, type Lldpad } from '../dcbnl-standin/standin.js';

let net: StandinNetns;
let lldpad: Lldpad;
let dir: string;

/** The config the device is programmed from (port `a`, three ETS TCs, PFC on 3, APP entries, an ETS recommendation). */
const FIXTURES = join(packageRoot(), 'test', 'audit', 'fixtures');
const BASE = parse(readFileSync(join(FIXTURES, 'linux-base.yaml'), 'utf8')) as {
  port: Record<string, unknown>;
  ets: { willing: boolean; prio_tc: number[]; tsa: string[]; bw: number[]; recommendation?: unknown };
  pfc: { enable: number[]; willing: boolean };
  app: { selector: string; protocol: number; priority: number }[];
};
type Config = typeof BASE;
const variant = (f: (c: Config) => void): Config => {
  const c: Config = JSON.parse(JSON.stringify(BASE));
  f(c);
  return c;
};

function configFile(name: string, c: Config): string {
  const f = join(dir, `${name}.yaml`);
  writeFileSync(f, stringify(c));
  return f;
}

/** `dcbkit ARGS` in the namespace with the stand-in loaded (as a user runs it on the host). */
function dcbkit(args: string[]): CliResult {
  const r = net.run(process.execPath, [join(packageRoot(), 'dist', 'host', 'cli', 'main.js'), ...args]);
  return r;
}

function mustRun(r: { status: number; stdout: string; stderr: string }, what: string): string {
  if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dcbkit-audit-linux-'));
  net = StandinNetns.open({ links: [['a', 'b']], managed: ['a'], tag: 'audit' });
  const base = configFile('base', BASE);
  mustRun(runCli(['codegen', base, '--target', 'linux', '--out', join(dir, 'gen')]), 'codegen');
  lldpad = await net.startLldpad('a');
  mustRun(lldpad.lldptool(['-L', '-i', 'a', 'adminStatus=rxtx']), 'lldptool adminStatus');
  // the generated scripts, as a user runs them: lldpad's TLVs first (lldpad programs the device
  // from them), then the device itself with dcb
  mustRun(net.run('sh', [join(dir, 'gen', 'linux', 'lldptool.sh')], { standin: false }), 'lldptool.sh');
  mustRun(net.run('sh', [join(dir, 'gen', 'linux', 'dcb.sh')]), 'dcb.sh');
  // from here on the device only changes when a test changes it
  await lldpadReprograms(0, 'its first write of the device after the port came up');
}, 120_000);

/**
 * Waits until lldpad writes the device's ETS and PFC in one IEEE_SET (dcb.sh sends them apart), later
 * than the first `after` lines of the device log; its first write comes ~15 s after start-up.
 */
async function lldpadReprograms(after: number, what: string): Promise<void> {
  await net.waitFor(`lldpad to program ETS and PFC on a (${what}); device log:\n${net.commands('a').slice(after).join('\n')}`, () => net.commands('a').slice(after).includes('IEEE_SET ets pfc -> 0'), 45_000);
}

afterAll(async () => {
  await net?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('audit --linux on the DCB netlink stand-in, programmed with the generated dcb.sh and lldptool.sh', () => {
  it('dcb -j ... show prints the replies recorded in test/audit/fixtures (which the parser tests read)', () => {
    for (const o of ['ets', 'pfc', 'app', 'buffer']) {
      expect(JSON.parse(mustRun(net.dcb(['-j', o, 'show', 'dev', 'a']), `dcb -j ${o} show`)), o).toEqual(JSON.parse(readFileSync(join(FIXTURES, `dcb-${o}.json`), 'utf8')));
    }
  });

  it('finds the device running the config it was programmed from (exit 0), in text and JSON', () => {
    const base = join(dir, 'base.yaml');
    const r = dcbkit(['audit', base, '--linux', 'a']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^ok: linux:a runs what .*base.yaml means \(\d+ settings compared\)\n$/);
    expect(r.status).toBe(0);
    const j = JSON.parse(dcbkit(['audit', base, '--linux', 'a', '--json']).stdout);
    expect(j).toMatchObject({ ok: true, target: 'linux', source: 'linux:a', differences: [] });
  });

  it('reports every planted difference of another config, one line each (exit 1)', () => {
    const other = configFile('other', variant((c) => {
      c.ets.bw = [40, 30, 30, 0, 0, 0, 0, 0];
      c.ets.prio_tc[7] = 1;
      c.ets.prio_tc[4] = 4; // a TC of its own for the new lossless priority
      c.ets.willing = true;
      (c.ets.recommendation as { bw: number[] }).bw = [60, 20, 20, 0, 0, 0, 0, 0];
      c.pfc.enable = [3, 4];
      c.pfc.willing = true;
      c.app = [{ selector: 'ethertype', protocol: 0x8906, priority: 4 }, { selector: 'dscp', protocol: 26, priority: 3 }, { selector: 'stream', protocol: 860, priority: 5 }];
    }));
    const pg3Size = JSON.parse(mustRun(net.dcb(['-j', 'buffer', 'show', 'dev', 'a']), 'dcb buffer show')).buffer_size[3];
    expect(pg3Size).toBeGreaterThan(9216);
    const r = dcbkit(['audit', other, '--linux', 'a']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'ets.willing: running off, intended on',
      'ets.prio_tc[4]: running 2, intended 4',
      'ets.prio_tc[7]: running 2, intended 1',
      'ets.bw[1]: running 40, intended 30',
      'ets.bw[2]: running 20, intended 30',
      'pfc.enable: running 3, intended 3,4',
      'app.ethertype.0x8906: running 3, intended 4',
      'app.stream.860: running absent, intended 5',
      // priority 4 is lossless in the other config: PG 4, sized as the lossless PG 3 (one port, one size)
      'buffer.prio_buffer[4]: running 0, intended 4',
      `buffer.size[4]: running 0, intended ${pg3Size}`,
      // lldpad's own copy of the same settings, as lldptool.sh stored them
      'lldp.ETS-CFG.willing: running no, intended yes',
      'lldp.ETS-CFG.up2tc[4]: running 2, intended 4',
      'lldp.ETS-CFG.up2tc[7]: running 2, intended 1',
      'lldp.ETS-CFG.tcbw[1]: running 40, intended 30',
      'lldp.ETS-CFG.tcbw[2]: running 20, intended 30',
      'lldp.ETS-REC.tcbw[0]: running 50, intended 60',
      'lldp.ETS-REC.tcbw[1]: running 30, intended 20',
      'lldp.PFC.willing: running no, intended yes',
      'lldp.APP.app.ethertype.0x8906: running 3, intended 4',
      'lldp.APP.app.stream.860: running absent, intended 5',
      // what only the device has comes last
      'app.dgram.4791: running 3, intended absent',
      'lldp.APP.app.dgram.4791: running 3, intended absent',
    ]);
    expect(r.status).toBe(1);
  });

  it('reports changes made on the device by hand with dcb and lldptool, and is clean again once they are undone', async () => {
    const base = join(dir, 'base.yaml');
    mustRun(net.dcb(['ets', 'set', 'dev', 'a', 'tc-bw', '0:30', '1:50', '2:20']), 'dcb ets set');
    mustRun(net.dcb(['pfc', 'set', 'dev', 'a', 'prio-pfc', '3:off']), 'dcb pfc set');
    // ETS and PFC are lldpad's: the LLDPDU this lldptool change triggers rewrites them from its state
    // (with lldpad stopped, the same dcb changes stay and are reported: the last test)
    const logged = net.commands('a').length;
    mustRun(net.dcb(['app', 'add', 'dev', 'a', 'dscp-prio', '46:5']), 'dcb app add');
    mustRun(lldpad.lldptool(['-T', '-i', 'a', '-V', 'PFC', 'enableTx=no']), 'lldptool PFC enableTx=no');
    await lldpadReprograms(logged, 'the LLDPDU after PFC enableTx=no');
    const r = dcbkit(['audit', base, '--linux', 'a']);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'lldp.PFC.enableTx: running no, intended yes',
      'app.dscp.46: running 5, intended absent',
    ]);
    expect(r.status).toBe(1);
    mustRun(net.dcb(['app', 'del', 'dev', 'a', 'dscp-prio', '46:5']), 'dcb app del');
    mustRun(lldpad.lldptool(['-T', '-i', 'a', '-V', 'PFC', 'enableTx=yes']), 'lldptool PFC enableTx=yes');
    expect(dcbkit(['audit', base, '--linux', 'a']).status).toBe(0);
  });

  it('--no-lldptool reads the dcb state alone; an interface without DCB, or no interface name, is bad input (exit 2)', () => {
    const base = join(dir, 'base.yaml');
    mustRun(lldpad.lldptool(['-T', '-i', 'a', '-V', 'ETS-CFG', 'willing=yes']), 'lldptool willing');
    try {
      expect(dcbkit(['audit', base, '--linux', 'a']).stdout).toBe('lldp.ETS-CFG.willing: running yes, intended no\n');
      expect(dcbkit(['audit', base, '--linux', 'a', '--no-lldptool']).status).toBe(0);
    } finally {
      mustRun(lldpad.lldptool(['-T', '-i', 'a', '-V', 'ETS-CFG', 'willing=no']), 'lldptool willing');
    }
    // b has no DCB netlink (a plain veth end): dcb says so and audit names the command
    const b = dcbkit(['audit', base, '--linux', 'b', '--no-lldptool', '--json']);
    expect(b.status).toBe(2);
    expect(b.stderr.trim()).toMatch(/^--linux: dcb -j ets show dev b failed \(exit \d+\): .+/);
    expect(JSON.parse(b.stdout).problems[0].path).toBe('--linux');
    const gone = dcbkit(['audit', base, '--linux', 'nosuch0']);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toMatch(/^--linux: dcb -j ets show dev nosuch0 failed/);
    const bad = runCli(['audit', base, '--linux', 'a/b']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^--linux: must be an interface name/);
  });

  it('without lldpad, reading lldptool fails as bad input naming the command (exit 2); --no-lldptool audits dcb: the APP entries lldpad removed on exit, ETS and PFC changed by hand', async () => {
    const base = join(dir, 'base.yaml');
    const logged = net.commands('a').length;
    await lldpad.stop();
    const r = dcbkit(['audit', base, '--linux', 'a']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toMatch(/^--linux: lldptool -l -i a adminStatus failed \(exit \d+\): .+/);
    // lldpad deletes the APP entries it programmed when it stops (the device log shows IEEE_DEL),
    // and those are the config's own, so the device no longer classifies as intended
    expect(net.commands('a').slice(logged).filter((c) => c.startsWith('IEEE_DEL app:')).sort()).toEqual(['IEEE_DEL app:1/35078/3 -> 0', 'IEEE_DEL app:3/4791/3 -> 0', 'IEEE_DEL app:5/26/3 -> 0']);
    const alone = dcbkit(['audit', base, '--linux', 'a', '--no-lldptool']);
    expect(alone.stdout).toBe(['app.dgram.4791: running absent, intended 3', 'app.dscp.26: running absent, intended 3', 'app.ethertype.0x8906: running absent, intended 3'].map((l) => l + '\n').join(''));
    expect(alone.status).toBe(1);
    mustRun(net.dcb(['ets', 'set', 'dev', 'a', 'tc-bw', '0:30', '1:50', '2:20']), 'dcb ets set');
    mustRun(net.dcb(['pfc', 'set', 'dev', 'a', 'prio-pfc', '3:off']), 'dcb pfc set');
    expect(dcbkit(['audit', base, '--linux', 'a', '--no-lldptool']).stdout.trimEnd().split('\n')).toEqual(['ets.bw[0]: running 30, intended 40', 'ets.bw[1]: running 50, intended 40', 'pfc.enable: running none, intended 3', ...alone.stdout.trimEnd().split('\n')]);
  });
});
