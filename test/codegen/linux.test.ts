// Linux target: tc.batch checked by iproute2's own tc parser in a throwaway network namespace (this
// kernel has no sch_ets, so a syntactically valid line is refused by the kernel with "Specified
// qdisc kind is unknown" / exit 2, while a syntax error is tc's exit 1 with its own message), and
// all three scripts read back into the IR.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import YAML from 'yaml';
import { checkScenario } from '../../host/scenario/scenario.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildIr, cumulativeRound, type Ir } from '../../codegen/ir.js';
import { defaultDevice, parseDevice } from '../../codegen/device.js';
import { linuxTarget } from '../../codegen/linux.js';
import { inputErrorOf, requireTool, runCli } from '../helpers.js';
import { interfaceNameRule } from '../../host/config/fields.js';
import { parseConfig } from '../../host/config/index.js';
import { tcBatchWord } from '../../codegen/shell.js';
import { arbConfigInput, losslessInput, testHeadroom } from './fixtures.js';
import { addNetns, KERNEL_LACKS_ETS, tcAccepts, tcLine, withTempFile } from './tc.js';

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
  const ir: Ir = buildIr(parseConfig(losslessInput()).config, device, { headroom: testHeadroom });
  const files = linuxTarget.emit(ir).files as Record<string, string>;

  beforeAll(() => {
    requireTool('tc');
    requireTool('ip');
    addNetns(NS);
    for (const p of ir.ports) expect(sh(['ip', '-n', NS, 'link', 'add', p.name, 'type', 'veth', 'peer', 'name', `peer${p.index}`]).status).toBe(0);
  });
  afterAll(() => {
    sh(['ip', 'netns', 'del', NS]);
  });

  test('tc accepts every line of tc.batch (kernel refuses only the missing ets kind)', () => {
    withTempFile('tc.batch', files['tc.batch'], (file) => {
      const batch = sh(['tc', '-n', NS, '-force', '-batch', file]);
      const lines = files['tc.batch'].trim().split('\n');
      const errors = batch.stderr.split('\n').filter((l) => l && !l.startsWith('Command failed'));
      // Without sch_ets every line is refused by the kernel only; with it, none is refused at all.
      expect([0, lines.length]).toContain(errors.length);
      for (const e of errors) expect(e).toBe(KERNEL_LACKS_ETS);
      for (const line of lines) expect(tcAccepts(NS, line), line).toBe(true);
    });
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

  test('EtherType 0 (the default priority) is dcb app default-prio: dcb takes EtherTypes from 0x600 only (dcb-app.8)', () => {
    const c = losslessInput();
    c.app = [{ selector: 'ethertype', protocol: 0, priority: 5 }, { selector: 'ethertype', protocol: 0x8906, priority: 3 }, { selector: 'dscp', protocol: 26, priority: 3 }] as never;
    const sh = (linuxTarget.emit(buildIr(parseConfig(c).config, defaultDevice, { headroom: testHeadroom })).files as Record<string, string>)['dcb.sh'];
    expect(sh.split('\n').filter((l) => l.startsWith('dcb app'))).toEqual(['dcb app replace dev Ethernet0 default-prio 5 ethtype-prio 0x8906:3 dscp-prio 26:3']);
  });

  test('a 0 % ETS TC becomes quantum 1 and is reported', () => {
    const c = losslessInput();
    c.ets!.bw = [0, 30, 30, 40, 0, 0, 0, 0];
    const q = linuxTarget.emit(buildIr(parseConfig(c).config, defaultDevice, { headroom: testHeadroom })).quantisation;
    // unit = ceil(9236 / 30) = 308 B; band order TC 3,2,1,0 -> quanta 12320 9240 9240 1 (sum 30801).
    // Cumulative rounding: floor(12320*100/30801) = 39; floor(21560*100/30801) = 69 -> 30;
    // floor(30800*100/30801) = 99 -> 30; 100 -> 1. So TC 3 gets 39 % (wanted 40) and TC 0 1 % (wanted 0).
    const bw = q.filter((x) => x.path.startsWith('ets.bw'));
    expect(bw.map((x) => [x.path, x.wanted, x.got])).toEqual([['ets.bw[3]', 40, 39], ['ets.bw[0]', 0, 1]]);
    expect(bw.every((x) => x.unit === '%')).toBe(true);
  });
});

/** A raw config through the parser, as the CLI does, with the given port name. */
function parsedWithName(name: string) {
  return parseConfig({ ...losslessInput(), port: { ...losslessInput().port, name } }).config;
}

describe('interface names (kernel dev_valid_name)', () => {
  test('accepts 1..15 bytes without / : NUL or whitespace, shell metacharacters included', () => {
    for (const ok of ['e', 'eth0', 'Ethernet0', 'a'.repeat(15), 'enp3s0f1.100', "e'$(x);`y`|&", 'é'.repeat(7), '%d', '...']) {
      expect(interfaceNameRule(ok), ok).toBeUndefined();
    }
  });
  test('refuses the kernel\'s bad names, naming the rule and the offending byte', () => {
    const bad: [string, RegExp][] = [
      ['', /^must not be empty$/], ['a'.repeat(16), /16 bytes/], ['é'.repeat(8), /16 bytes/], ['.', /"\."/], ['..', /"\.\."/],
      ['a/b', /0x2f at 1/], ['a:1', /0x3a at 1/], ['eth0; touch PWNED #', /19 bytes/], ['e; touch P', /0x20 at 2/], ['a\tb', /0x09/],
      ['a\nb', /0x0a/], ['a\vb', /0x0b/], ['a\fb', /0x0c/], ['a\rb', /0x0d/], ['a\0b', /0x00 at 1/],
      // the kernel's isspace() is Latin-1: 0xA0 is a space, and "à" is C3 A0 in UTF-8
      ['à', /0xa0 at 1/],
    ];
    for (const [name, why] of bad) expect(interfaceNameRule(name), JSON.stringify(name)).toMatch(why);
  });
  test('config port.name and device port names follow the rule, with the field in the message', () => {
    expect(inputErrorOf(() => parsedWithName('a\0b')).message).toMatch(/^port\.name: must be an interface name: .*0x00 at 1/m);
    expect(inputErrorOf(() => parsedWithName('x'.repeat(16))).message).toMatch(/^port\.name: must be an interface name: .*16 bytes/m);
    expect(inputErrorOf(() => parseDevice({ ports: [{ name: 'a/b', index: 0, speed: '100G', cable: '1m' }] })).message).toMatch(/^device\.ports\[0\]\.name: must be an interface name: .*0x2f/m);
    expect(parsedWithName("e'$(x);`y`").port.name).toBe("e'$(x);`y`");
    // a scenario's per-node DCB config goes through the same schema
    const scenario = YAML.parse(readFileSync('examples/sim-tiny/scenario.yaml', 'utf8'));
    scenario.hosts[0].dcb = { port: { name: 'e;touch P' } };
    expect(inputErrorOf(() => checkScenario(scenario)).message).toMatch(/^hosts\[0\]\.dcb\.port\.name: must be an interface name: .*0x20 at 7/m);
  });
  test('a name tc -batch cannot spell is a linux target problem, not a silently cut line', () => {
    const ir = buildIr(parsedWithName('eth#0'), defaultDevice, { headroom: testHeadroom });
    expect(linuxTarget.check(ir).map((p) => p.path)).toEqual(['linux: ports[0].name']);
    expect(tcBatchWord('eth0')).toBe('eth0');
    expect(tcBatchWord("'e")).toBe(`"'e"`);
    expect(tcBatchWord(`"e'`)).toBeUndefined();
  });
});

describe('dcbkit codegen refuses a bad port name (exit 2, nothing written, nothing run)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-names-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const [label, name, why] of [['shell injection', 'eth0; touch PWNED #', /19 bytes/], ['short shell injection', 'e;touch P', /0x20 at 7/], ['NUL byte', 'eth\0', /0x00/]] as const) {
    test(label, () => {
      const cfg = join(dir, `${label.replace(/ /g, '-')}.json`);
      writeFileSync(cfg, JSON.stringify({ ...losslessInput(), port: { ...losslessInput().port, name } }));
      const out = join(dir, `out-${label.replace(/ /g, '-')}`);
      const r = runCli(['codegen', cfg, '--target', 'all', '--out', out], { cwd: dir });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^port\\.name: must be an interface name: .*${why.source}`, 'm'));
      expect(existsSync(out)).toBe(false);
      expect(existsSync(join(dir, 'PWNED'))).toBe(false);
    });
  }
});

/** iproute2's batch word splitter (lib/utils.c getcmdline + makeargs): '#' comments, quoted words. */
function batchWords(line: string): string[] {
  const words: string[] = [];
  let rest = line.split('#')[0];
  for (;;) {
    rest = rest.replace(/^[ \t\r\n]+/, '');
    if (!rest) return words;
    const q = rest[0] === "'" || rest[0] === '"' ? rest[0] : undefined;
    const end = q ? rest.indexOf(q, 1) : rest.search(/[ \t\r\n]|$/);
    if (q && end < 0) throw new Error(`unterminated quote in ${line}`);
    words.push(q ? rest.slice(1, end) : rest.slice(0, end));
    rest = rest.slice(end + 1);
  }
}

describe('every value in the generated scripts is quoted (property)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcbkit-quote-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const shells = ['sh', 'dash'].filter((s) => sh(['sh', '-c', `command -v ${s}`]).status === 0);
  // Stand-ins for the commands the scripts run: each call appends its argv, NUL-separated, one call a line.
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const tool of ['dcb', 'lldptool', 'dcbtool', 'tc', 'ip']) {
    writeFileSync(join(bin, tool), `#!/bin/sh\nprintf '%s\\0' ${tool} "$@" >> "$ARGV_LOG"\nprintf '\\n' >> "$ARGV_LOG"\n`, { mode: 0o755 });
  }
  const chars = [...'aZ09_-.', ...";$`'\"\\|&<>(){}[]*?!~%^=+,@", 'é'];
  const arbName = fc
    .array(fc.constantFrom(...chars), { minLength: 1, maxLength: 15 })
    .map((c) => c.join(''))
    .filter((n) => interfaceNameRule(n) === undefined);
  const ports = fc.uniqueArray(arbName, { minLength: 1, maxLength: 3 });

  test('sh -n accepts every script and each command gets the interface name as one exact argument', () => {
    expect(shells).toContain('sh');
    let run = 0;
    fc.assert(
      fc.property(arbConfigInput, ports, (raw, names) => {
        const cfg = parseConfig({ ...raw, port: { ...raw.port, name: names[0] } }).config;
        const device = parseDevice({ ports: names.map((name, index) => ({ name, index, speed: raw.port.speed, cable: raw.port.cable })) });
        const ir = buildIr(cfg, device, { headroom: testHeadroom });
        fc.pre(linuxTarget.check(ir).length === 0);
        const files = linuxTarget.emit(ir).files as Record<string, string>;
        const tcLines = files['tc.batch'].trimEnd().split('\n');
        expect(tcLines.map((l) => batchWords(l)[3])).toEqual(names);
        expect(files['tc.batch']).not.toContain('\0');
        for (const script of ['dcb.sh', 'lldptool.sh', 'dcbtool.sh', 'classify.sh']) {
          const file = join(dir, `${run++}-${script}`);
          writeFileSync(file, files[script]);
          for (const shell of shells) expect(sh([shell, '-n', file]).status, `${shell} -n ${script}\n${files[script]}`).toBe(0);
          const log = `${file}.argv`;
          writeFileSync(log, '');
          const r = spawnSync('sh', [file], { encoding: 'utf8', env: { PATH: `${bin}:/usr/bin:/bin`, ARGV_LOG: log } });
          expect(r.status, r.stderr).toBe(0);
          const calls = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\0').slice(0, -1));
          // dcbtool takes the interface as its third word (`dcbtool sc IF feature ...`)
          const devs = calls.map((a) => (a[0] === 'dcbtool' ? a[2] : a[a.findIndex((w) => w === 'dev' || w === '-i') + 1]));
          // every port is configured, and no call sees a name that is not one of them
          expect(new Set(devs)).toEqual(new Set(names));
        }
      }),
      { numRuns: 25, seed: 9 },
    );
  });
});
