// Linux target: tc.batch checked by iproute2's own tc parser in a throwaway network namespace (this
// kernel has no sch_ets, so a syntactically valid line is refused by the kernel with "Specified
// qdisc kind is unknown" / exit 2, while a syntax error is tc's exit 1 with its own message), and
// all three scripts read back into the IR.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildIr, cumulativeRound, type Ir } from '../../codegen/ir.js';
import { defaultDevice, parseDevice } from '../../codegen/device.js';
import { linuxTarget } from '../../codegen/linux.js';
import { requireTool } from '../helpers.js';
import { losslessConfig, losslessInput, parsed, testHeadroom } from './fixtures.js';
import { KERNEL_LACKS_ETS, tcAccepts, tcLine } from './tc.js';

const NS = `dcbkit-cg-${process.pid}`;
const sh = (cmd: string[]) => spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8' });

/** Parses one `qdisc ... ets` line into its arguments. */
function parseEts(line: string) {
  const w = line.split(' ');
  const num = (k: string) => (w.includes(k) ? Number(w[w.indexOf(k) + 1]) : 0);
  const listAfter = (k: string) => {
    if (!w.includes(k)) return [];
    const out: number[] = [];
    for (let i = w.indexOf(k) + 1; i < w.length && /^\d+$/.test(w[i]); i++) out.push(Number(w[i]));
    return out;
  };
  return { dev: w[w.indexOf('dev') + 1], bands: num('bands'), strict: num('strict'), quanta: listAfter('quanta'), priomap: listAfter('priomap') };
}

/** `K:V K:V ...` words after `key` in a dcb command line. */
function mapAfter(line: string, key: string): Map<string, string> {
  const w = line.split(' ');
  const out = new Map<string, string>();
  for (let i = w.indexOf(key) + 1; i > 0 && i < w.length && w[i].includes(':'); i++) {
    const [k, v] = w[i].split(':');
    out.set(k, v);
  }
  return out;
}

describe('linux target', () => {
  const device = parseDevice({ ports: [{ name: 'Ethernet0', index: 0, speed: '100G', cable: '300m' }, { name: 'Ethernet4', index: 1, speed: '100G', cable: '5m' }] });
  const ir: Ir = buildIr(losslessConfig(), device, { headroom: testHeadroom });
  const files = linuxTarget.emit(ir).files as Record<string, string>;

  beforeAll(() => {
    requireTool('tc');
    requireTool('ip');
    expect(sh(['ip', 'netns', 'add', NS]).status).toBe(0);
    for (const p of ir.ports) expect(sh(['ip', '-n', NS, 'link', 'add', p.name, 'type', 'veth', 'peer', 'name', `peer${p.index}`]).status).toBe(0);
  });
  afterAll(() => {
    sh(['ip', 'netns', 'del', NS]);
  });

  test('tc accepts every line of tc.batch (kernel refuses only the missing ets kind)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dcbkit-tc-'));
    try {
      const file = join(dir, 'tc.batch');
      writeFileSync(file, files['tc.batch']);
      const batch = sh(['tc', '-n', NS, '-force', '-batch', file]);
      const lines = files['tc.batch'].trim().split('\n');
      const errors = batch.stderr.split('\n').filter((l) => l && !l.startsWith('Command failed'));
      // Without sch_ets every line is refused by the kernel only; with it, none is refused at all.
      expect([0, lines.length]).toContain(errors.length);
      for (const e of errors) expect(e).toBe(KERNEL_LACKS_ETS);
      for (const line of lines) expect(tcAccepts(NS, line), line).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the tc parser rejects broken lines with exit 1 (so the check above is a real check)', () => {
    const line = files['tc.batch'].split('\n')[0];
    const broken = [line.replace(/quanta \d+/, 'quanta 0'), line.replace(/priomap \d+/, 'priomap 9'), line.replace(/bands \d+/, 'bands 17')];
    for (const b of broken) {
      const r = tcLine(NS, b);
      expect(r.status, b).toBe(1);
      expect(r.stderr).not.toMatch(/Specified qdisc kind is unknown/);
    }
  });

  test('round trip tc.batch: bands reversed against TCs, quanta offload back to the configured percent', () => {
    for (const [i, line] of files['tc.batch'].trim().split('\n').entries()) {
      const e = parseEts(line);
      expect(e.dev).toBe(ir.ports[i].name);
      // losslessConfig: TCs 0..3 ETS 10/20/30/40, TCs 4..7 strict -> bands 0..3 = TC 7..4, bands 4..7 = TC 3..0.
      expect([e.bands, e.strict]).toEqual([8, 4]);
      const bandTc = [7, 6, 5, 4, 3, 2, 1, 0];
      for (let p = 0; p < 8; p++) expect(bandTc[e.priomap[p]]).toBe(ir.prioTc[p]);
      // quantum unit = ceil((9216 + 20) / 10) = 924 B -> 40/30/20/10 % -> 36960 27720 18480 9240
      expect(e.quanta).toEqual([36960, 27720, 18480, 9240]);
      expect(cumulativeRound(e.quanta, 100)).toEqual([40, 30, 20, 10]);
    }
  });

  test('round trip dcb.sh and lldptool.sh', () => {
    const dcb = files['dcb.sh'].split('\n');
    const ets = dcb.find((l) => l.startsWith('dcb ets set dev Ethernet0'))!;
    for (let t = 0; t < 8; t++) {
      expect(mapAfter(ets, 'tc-tsa').get(String(t))).toBe(ir.tcs[t].tsa);
      expect(Number(mapAfter(ets, 'tc-bw').get(String(t)))).toBe(ir.tcs[t].bwPercent);
      expect(Number(mapAfter(ets, 'prio-tc').get(String(t)))).toBe(ir.prioTc[t]);
    }
    const pfc = dcb.find((l) => l.startsWith('dcb pfc set dev Ethernet0'))!;
    for (let p = 0; p < 8; p++) expect(mapAfter(pfc, 'prio-pfc').get(String(p))).toBe(ir.pfc.enabled[p] ? 'on' : 'off');
    const app = dcb.find((l) => l.startsWith('dcb app replace dev Ethernet0'))!;
    expect(app).toBe('dcb app replace dev Ethernet0 ethtype-prio 0x8906:3 dscp-prio 26:3');
    const buf = dcb.find((l) => l.startsWith('dcb buffer set dev Ethernet0'))!;
    expect([...mapAfter(buf, 'buffer-size')]).toEqual(ir.ports[0].pgs.filter((g) => g.lossless).map((g) => [String(g.pg), String(g.sizeBytes)]));
    const ll = files['lldptool.sh'];
    expect(ll).toContain('lldptool -T -i Ethernet0 -V ETS-CFG enableTx=yes willing=no tsa=0:ets,1:ets,2:ets,3:ets,4:strict,5:strict,6:strict,7:strict up2tc=0:0,1:1,2:2,3:3,4:4,5:5,6:6,7:7 tcbw=10,20,30,40,0,0,0,0');
    expect(ll).toContain('lldptool -T -i Ethernet4 -V PFC enableTx=yes willing=no enabled=3,4');
    expect(ll).toContain('lldptool -T -i Ethernet0 -V APP app=3,5,26');
  });

  test('a 0 % ETS TC becomes quantum 1 and is reported', () => {
    const c = losslessInput();
    c.ets.bw = [0, 30, 30, 40, 0, 0, 0, 0];
    const q = linuxTarget.emit(buildIr(parsed(c), defaultDevice, { headroom: testHeadroom })).quantisation;
    // unit = ceil(9236 / 30) = 308 B; band order TC 3,2,1,0 -> quanta 12320 9240 9240 1 (sum 30801).
    // Cumulative rounding: floor(12320*100/30801) = 39; floor(21560*100/30801) = 69 -> 30;
    // floor(30800*100/30801) = 99 -> 30; 100 -> 1. So TC 3 gets 39 % (wanted 40) and TC 0 1 % (wanted 0).
    expect(q.map((x) => [x.path, x.wanted, x.got])).toEqual([['ets.bw[3]', 40, 39], ['ets.bw[0]', 0, 1]]);
    expect(q.every((x) => x.unit === '%')).toBe(true);
  });
});
