// `dcbkit codegen` end to end through the built CLI: the files docs/design.md §5 names, manifest hashes,
// byte-identical reruns, independent checks of the written artefacts, and bad input -> exit 2
// with `target: path: rule` lines and nothing written for any target.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { listFilesRecursive } from '../../host/io/output.js';
import { requireTool, runCli } from '../helpers.js';
import { yanglint } from './sonic-yang.js';
import { schemasDir } from './schemas.js';

const tmp = mkdtempSync(join(tmpdir(), 'dcbkit-cg-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ALL_FILES = [
  'c-header/dcb_regs.bin', 'c-header/dcb_regs.h',
  'dpdk/dcb_sched.c', 'dpdk/dcb_sched.h', 'dpdk/prio_map.json', 'dpdk/qos_sched_100G.cfg', 'dpdk/qos_sched_400G.cfg', 'dpdk/tm.testpmd',
  'linux/classify.sh', 'linux/dcb.sh', 'linux/dcbtool.sh', 'linux/lldptool.sh', 'linux/tc.batch',
  'lldp/lldpdu.hex', 'lldp/lldpdu.pcap',
  'manifest.json',
  'p4/bmv2_cli.txt', 'p4/dcb.p4', 'p4/p4info.json', 'p4/p4info.txtpb', 'p4/write_request.json', 'p4/write_request.txtpb',
  'sonic/config_db.json', 'sonic/patch.json',
  'sv/dcb_regs_pkg.sv',
];

describe('dcbkit codegen', () => {
  test('--target all writes every file, the manifest hashes them, and a rerun is byte-identical', () => {
    const out = join(tmp, 'all');
    const r = runCli(['codegen', 'examples/configs/roce.yaml', '--device', 'examples/codegen/device-2port.yaml', '--target', 'all', '--out', out, '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const files = listFilesRecursive(out);
    expect(files).toEqual(ALL_FILES);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(JSON.parse(r.stdout)).toEqual(manifest);
    for (const f of manifest.files) {
      expect(createHash('sha256').update(readFileSync(join(out, f.path))).digest('hex'), f.path).toBe(f.sha256);
    }
    expect(manifest.versions.node).toBe(process.versions.node);
    expect(manifest.inputs.device).toBe('example-2port');
    const again = join(tmp, 'again');
    expect(runCli(['codegen', 'examples/configs/roce.yaml', '--device', 'examples/codegen/device-2port.yaml', '--target', 'all', '--out', again]).status).toBe(0);
    for (const f of files) expect(readFileSync(join(again, f)).equals(readFileSync(join(out, f))), f).toBe(true);
  });

  test('the written artefacts pass their independent checkers', () => {
    requireTool('yanglint');
    requireTool('protoc');
    const out = join(tmp, 'all');
    const y = yanglint(JSON.parse(readFileSync(join(out, 'sonic/config_db.json'), 'utf8')));
    expect(y.output).toBe('');
    expect(y.status).toBe(0);
    const p4rt = join(schemasDir(), 'p4runtime');
    const enc = spawnSync('protoc', ['-I', p4rt, '-I', '/usr/include', '--encode=p4.v1.WriteRequest', 'p4/v1/p4runtime.proto'], { input: readFileSync(join(out, 'p4/write_request.txtpb')) });
    // protoc's only remark: clone replicas use the deprecated Replica.egress_port on purpose (docs/codegen.md, p4).
    expect(enc.stderr.toString().split('\n').filter((l) => l && !l.endsWith('deprecated field "egress_port"'))).toEqual([]);
    expect(enc.status).toBe(0);
    // roce.yaml: DSCP 26 -> priority 3 -> TC 3 (lossless), DSCP 48 -> priority 6 -> strict TC 6.
    const db = JSON.parse(readFileSync(join(out, 'sonic/config_db.json'), 'utf8'));
    expect(db.DSCP_TO_TC_MAP.DCBKIT['26']).toBe('3');
    expect(db.DSCP_TO_TC_MAP.DCBKIT['48']).toBe('6');
    expect(db.PORT_QOS_MAP.Ethernet8.pfc_enable).toBe('3');
    expect(db.PFC_WD.GLOBAL.POLL_INTERVAL).toBe('100');
  });

  test('every example config that can be generated gives SONiC tables yanglint accepts', () => {
    requireTool('yanglint');
    for (const cfg of ['examples/configs/converged.yaml', 'examples/configs/cee-pg.yaml', 'examples/codegen/eight-tc.yaml']) {
      const out = join(tmp, cfg.replace(/\W/g, '_'));
      const r = runCli(['codegen', cfg, '--target', 'sonic', '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      const y = yanglint(JSON.parse(readFileSync(join(out, 'sonic/config_db.json'), 'utf8')));
      expect(y.output, cfg).toBe('');
      expect(y.status).toBe(0);
    }
  });

  test('a lossless priority sharing a PG with lossy ones: --target all leaves those targets out, naming them; named, exit 2, one line per target, nothing written', () => {
    const all = runCli(['codegen', 'examples/configs/mixed-tc.yaml', '--target', 'all', '--out', join(tmp, 'mixed-all')]);
    expect(all.status).toBe(0);
    const left = ['sonic', 'p4', 'linux', 'c-header', 'sv'];
    expect(all.stdout.split('\n').filter((l) => l.startsWith('left out')).map((l) => l.split(/[ ,]/)[2])).toEqual(left);
    const manifest = JSON.parse(readFileSync(join(tmp, 'mixed-all', 'manifest.json'), 'utf8'));
    expect(manifest.targets).toEqual(['lldp', 'dpdk']);
    expect(manifest.skipped.map((s: { target: string }) => s.target)).toEqual(left);
    const out = join(tmp, 'mixed');
    const r = runCli(['codegen', 'examples/configs/mixed-tc.yaml', '--target', left.join(','), '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const rule = 'pfc.enable: lossless priority 3 shares TC 0 and so its priority group with lossy priority 0,1,2';
    expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('warning:'))).toEqual(['sonic', 'p4', 'linux', 'c-header', 'sv'].map((t) => `${t}: ${rule}`));
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(tmp).filter((n) => n.startsWith('.dcbkit-stage-'))).toEqual([]);
  });

  test('more TCs than the device has queues: exit 2 and an existing out dir stays empty', () => {
    const out = join(tmp, 'small');
    mkdirSync(out);
    const r = runCli(['codegen', 'examples/codegen/eight-tc.yaml', '--device', 'examples/codegen/device-4q.yaml', '--target', 'sonic', '--target', 'linux', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('sonic: ets.prio_tc: uses 8 traffic classes but device nic-4q has 4 queues per port\n');
    expect(r.stderr).toContain('linux: ets.prio_tc: uses 8 traffic classes but device nic-4q has 4 queues per port\n');
    expect(readdirSync(out)).toEqual([]);
  });

  test('a 0 % ETS TC is rejected for sonic and for rte_sched; the other targets generate and report it', () => {
    const yaml = join(tmp, 'zero.yaml');
    writeFileSync(yaml, readFileSync('examples/codegen/eight-tc.yaml', 'utf8').replace('bw: [10, 20, 30, 40', 'bw: [0, 30, 30, 40'));
    const all = runCli(['codegen', yaml, '--target', 'all', '--out', join(tmp, 'zero-all'), '--json']);
    expect(all.status).toBe(0);
    expect(JSON.parse(all.stdout).skipped.map((s: { target: string }) => s.target)).toEqual(['sonic', 'dpdk']);
    const bad = runCli(['codegen', yaml, '--target', 'all,sonic,dpdk', '--out', join(tmp, 'zero-named')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('sonic: ets.bw[0]: SAI scheduler weight must be 1..100; an ETS TC with 0 % cannot be expressed\n'
      + 'dpdk: ets.bw[0]: rte_sched has no place for a 0 % ETS TC (served only while the other ETS TCs are idle): its best-effort queues share by WRR weight, and every strict TC ranks above them (rte_tm can: --dpdk-api tm emits tm.testpmd alone)\n');
    expect(existsSync(join(tmp, 'zero-named'))).toBe(false);
    const ok = runCli(['codegen', yaml, '--target', 'linux', '--target', 'c-header', '--out', join(tmp, 'zero-ok'), '--json']);
    expect(ok.status).toBe(0);
    const m = JSON.parse(ok.stdout);
    expect(m.quantisation).toContainEqual(expect.objectContaining({ target: 'linux', path: 'ets.bw[0]', wanted: 0, got: 1 }));
  });

  test('--target takes comma lists as well as repeats; SONiC warnings go to stderr and the files are written', () => {
    const out = join(tmp, 'comma');
    const r = runCli(['codegen', 'examples/configs/converged.yaml', '--target', 'sonic,linux', '--target', 'lldp', '--out', out, '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).targets).toEqual(['sonic', 'linux', 'lldp']);
    expect(listFilesRecursive(out)).toEqual(['linux/classify.sh', 'linux/dcb.sh', 'linux/dcbtool.sh', 'linux/lldptool.sh', 'linux/tc.batch', 'lldp/lldpdu.hex', 'lldp/lldpdu.pcap', 'manifest.json', 'sonic/config_db.json', 'sonic/patch.json']);
    expect(r.stderr).toMatch(/^warning: sonic: pfc\.enable: lossless priority 6 shares TC 1 with lossless priority 1; buffermgrd/);
    const bad = runCli(['codegen', 'examples/configs/roce.yaml', '--target', 'sonic,vhdl', '--out', join(tmp, 'comma-bad')]);
    expect([bad.status, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toMatch(/--target: "vhdl" is not one of/);
    expect(existsSync(join(tmp, 'comma-bad'))).toBe(false);
  });

  test('usage errors and unreadable inputs are exit 2', () => {
    expect(runCli(['codegen', 'examples/configs/roce.yaml', '--target', 'vhdl', '--out', join(tmp, 'x')]).status).toBe(2);
    const r = runCli(['codegen', 'examples/configs/roce.yaml', '--device', join(tmp, 'nope.yaml'), '--target', 'all', '--out', join(tmp, 'x')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^device: cannot read/);
    // A device port the headroom model has no constants for (1G; 800G joined the shared speed list, host/units/units.ts) is named in the error.
    const dev = join(tmp, 'dev800.yaml');
    writeFileSync(dev, 'ports:\n  - {name: Ethernet0, index: 0, speed: 800G, cable: 5m}\n  - {name: Ethernet4, index: 1, speed: fast, cable: 5m}\n');
    const bad = runCli(['codegen', 'examples/configs/roce.yaml', '--device', dev, '--target', 'all', '--out', join(tmp, 'x')]);
    expect([bad.status, bad.stdout, bad.stderr]).toEqual([2, '', 'device.ports[1].speed: a rate needs a unit: bit/s with a prefix k, M, G or T, written G, Gbps, Gb/s or Gbit, e.g. 100G; got "fast"\n']);
    writeFileSync(dev, 'ports:\n  - {name: Ethernet0, index: 0, speed: 1G, cable: 5m}\n');
    const hr = runCli(['codegen', 'examples/configs/roce.yaml', '--device', dev, '--target', 'all', '--out', join(tmp, 'x')]);
    expect(hr.status).toBe(2);
    expect(hr.stderr).toMatch(/^ports\.Ethernet0\.speed: headroom: must be one of 10G/);
    expect(existsSync(join(tmp, 'x'))).toBe(false);
  });
});
