// Messages a user reads after a mistake (issue 10, "Messages to mend"): each says what is wrong in
// the project's words, once, without library wording, raw error codes or knock-on problems, and
// `--json` puts the same problems on stdout as one JSON document.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, runCliAsync, type CliResult } from '../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'dcbkit-messages-'));
const TINY = readFileSync('examples/sim-tiny/scenario.yaml', 'utf8');
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

// [arguments, stdin, exact stderr lines]
const CASES: [string, string[], string | undefined, string[]][] = [
  ['--out "" names no directory', ['run', 'examples/sim-tiny/scenario.yaml', '--out', ''], undefined, ['--out: must name a directory, got an empty string']],
  ['--pcap "" names no file (it printed hex instead)', ['frames', 'pfc', '--pause', '3:1', '--pcap', ''], undefined, ['--pcap: must name a file, got an empty string']],
  ['dcbx encode --pcap "" too', ['dcbx', 'encode', 'examples/configs/roce.yaml', '--pcap', ''], undefined, ['--pcap: must name a file, got an empty string']],
  ['dcbx decode with neither input', ['dcbx', 'decode'], undefined, ['pcap|--hex: required: give a pcap file or --hex HEX']],
  ['--hex with a non-hex digit', ['dcbx', 'decode', '--hex', 'zzzz'], undefined, ['--hex: must be hex digits 0-9 a-f (spaces and colons allowed), got "z"']],
  ['--hex with half a byte', ['dcbx', 'decode', '--hex', '0180c'], undefined, ['--hex: must be an even number of hex digits (whole bytes), got 5']],
  ['speed: 1e400 is not "null"', ['validate', file('inf.yaml', 'port: {speed: 1e400}\n')], undefined,
    ['port.speed: must be a speed like "100G", got a number too large to represent (infinity)']],
  ['a misspelt scenario key', ['validate', file('typo.yaml', TINY.replace(/^duration:/m, 'duraton:'))], undefined,
    ['duraton: unknown key in a scenario (docs/sim.md); did you mean duration? (allowed keys here: kind, name, seed, duration, sample, deadlock_threshold, timing, flow_control, defaults, dcb_profiles, hosts, switches, links, qcn, watchdog, transport, roce, traffic, series)']],
  ['a misspelt key in a list entry', ['validate', file('typo2.yaml', TINY.replace('dst: h2, priority: 3', 'dest: h2, priority: 3'))], undefined,
    ['traffic.incast[0].dest: unknown key in a scenario (docs/sim.md); did you mean dst? (allowed keys here: senders, dst, priority, start, stop, size, rate, frames, victim, interarrival, start_jitter, weight, transport)']],
  ['a missing key without a misspelling is required', ['validate', file('nodur.yaml', TINY.replace(/^duration: .*\n/m, ''))], undefined, ['duration: required (number or string)']],
  ['a huge mtu once', ['validate', file('mtu.yaml', 'port: {mtu: 1e300}\n')], undefined, ['port.mtu: must be a frame size in bytes 64..16384, got 1e+300']],
  ['a huge seed once, in words', ['validate', file('seed.yaml', TINY.replace(/^seed: 1$/m, 'seed: 1e300'))], undefined, ['seed: must be at most 4294967295']],
  ['a huge t_ps once, in words', ['vectors', 'credit', '--stimulus', '-'], '{"events":[{"t_ps":1e300,"type":"tick"}]}', ['events[0].t_ps: must be at most 4503599627370496']],
  ['an unusable link speed without knock-on problems', ['validate', file('speed.yaml', TINY.replace('speed: 100G', 'speed: 7G'))], undefined,
    ['defaults.link.speed: the speed must give a whole number of ps per byte (e.g. 10G, 25G, 40G, 100G, 400G)']],
  ['-V is not ---v', ['-Q'], undefined, [`<command>: required (one of ${COMMANDS}; see dcbkit --help)`, '-Q: unknown option for dcbkit; options go after a command; see dcbkit --help']],
  ['a misspelt subcommand alone', ['frames', 'pfcc', '--pause', '3:1'], undefined, ['pfcc: unknown frames kind; did you mean pfc? (one of pfc, pause, cnm, ce)']],
  ['no raw ENOENT', ['validate', join(dir, 'missing.yaml')], undefined, [`${join(dir, 'missing.yaml')}: cannot read "${join(dir, 'missing.yaml')}": no such file or directory`]],
  ['no raw EISDIR', ['run', dir], undefined, [`${dir}: "${dir}" is a directory, not a regular file`]],
  // found by test/cli/fuzz.test.ts: each was an internal error with a stack trace
  ['a deeply nested value', ['validate', file('deep.json', '['.repeat(5000) + ']'.repeat(5000))], undefined, [`${join(dir, 'deep.json')}: nested more than 64 levels deep`]],
  ['a deeply nested scenario for sweep', ['sweep', file('deep-sweep.yaml', TINY.replace(/^seed: 1$/m, `seed: ${'['.repeat(100)}${']'.repeat(100)}`)), '--param', 'seed=1,2'], undefined,
    [`${join(dir, 'deep-sweep.yaml')}: nested more than 64 levels deep`]],
  ['an alias bomb', ['run', file('bomb.yaml', 'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n')], undefined,
    [`${join(dir, 'bomb.yaml')}: not valid YAML: its aliases expand too much (more than 100 copies)`]],
  ['an empty file is said to be empty, at the file', ['run', file('empty.yaml', '# nothing yet\n')], undefined, [`${join(dir, 'empty.yaml')}: holds no document (empty, or only comments): write a mapping of keys`]],
  ['dcbx encode --src is a source address (unicast) as in configs and frames', ['dcbx', 'encode', 'examples/configs/roce.yaml', '--src', '01:00:5e:00:00:01', '--hex'], undefined,
    ['--src: must be a unicast address (I/G bit of the first octet 0), got "01:00:5e:00:00:01"']],
  ['a document that is no mapping names the document', ['vectors', 'ets', '--stimulus', file('list.json', '[]')], undefined, ['document: must be object, got array']],
  ['no pcap: wrong_type', ['dcbx', 'decode', 'examples/sim-tiny/scenario.yaml'], undefined,
    ['pcap: byte 0: magic 0x23205477 is neither a classic pcap nor a pcapng file']],
];

describe('messages', () => {
  it.each(CASES)('%s', async (_name, args, input, lines) => {
    const r = await runCliAsync(args, { input });
    expect(r.stderr).toBe(lines.map((l) => l + '\n').join(''));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('no message shows zod wording ("Too small: expected ...", "Invalid input")', async () => {
    const r = await runCliAsync(['validate', file('neg.yaml', TINY.replace(/^seed: 1$/m, 'seed: -1'))]);
    expect(r.stderr).toBe('seed: must be at least 0\n');
  });

  it('-V prints the version and `help CMD` the command\'s help', async () => {
    const [v, version, help] = await Promise.all([runCliAsync(['-V']), runCliAsync(['--version']), runCliAsync(['help', 'run'])]);
    expect(v.status).toBe(0);
    expect(v.stdout).toBe(version.stdout);
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^dcbkit run <scenario>\n/);
    expect(help.stdout).not.toMatch(/sweep/);
  });
});

describe('--json on bad input', () => {
  const parse = (r: CliResult) => JSON.parse(r.stdout) as { problems: { path: string; rule: string }[] };

  it('prints {"problems": [{path, rule}]} on stdout, exit 2, for every command with --json', async () => {
    const bad = file('bad.yaml', 'port: {mtu: 1e300}\n');
    const badScenario = file('bad-scenario.yaml', TINY.replace(/^seed: 1$/m, 'seed: -1'));
    const runs: [string[], string | undefined, { path: string; rule: string }][] = [
      [['validate', bad, '--json'], undefined, { path: 'port.mtu', rule: 'must be a frame size in bytes 64..16384, got 1e+300' }],
      [['headroom', '--speed', '7Q', '--cable', '3m', '--json'], undefined, { path: '--speed', rule: expect.any(String) as unknown as string }],
      [['run', badScenario, '--json'], undefined, { path: 'seed', rule: 'must be at least 0' }],
      [['sweep', badScenario, '--param', 'duration=100us,200us', '--json'], undefined, { path: 'seed', rule: 'must be at least 0' }],
      [['dcbx', 'decode', '--hex', 'zz', '--json'], undefined, { path: '--hex', rule: 'must be hex digits 0-9 a-f (spaces and colons allowed), got "z"' }],
      [['dcbx', 'encode', bad, '--json'], undefined, { path: 'port.mtu', rule: 'must be a frame size in bytes 64..16384, got 1e+300' }],
      [['dcbx', 'negotiate', bad, bad, '--json'], undefined, expect.objectContaining({ rule: 'must be a frame size in bytes 64..16384, got 1e+300' }) as never],
      [['frames', 'pfc', '--pause', '9:1', '--json'], undefined, expect.objectContaining({ path: '--pause' }) as never],
      [['codegen', bad, '--target', 'sonic', '--out', join(dir, 'never'), '--json'], undefined, { path: 'port.mtu', rule: 'must be a frame size in bytes 64..16384, got 1e+300' }],
      [['audit', bad, '--sonic', bad, '--json'], undefined, { path: 'port.mtu', rule: 'must be a frame size in bytes 64..16384, got 1e+300' }],
      [['bench', '--quick', '--bogus', '--json'], undefined, expect.objectContaining({ path: '--bogus' }) as never],
    ];
    const results = await Promise.all(runs.map(([args, input]) => runCliAsync(args, { input })));
    results.forEach((r, i) => {
      const [args, , first] = runs[i];
      expect(r.status, args.join(' ')).toBe(2);
      const doc = parse(r);
      expect(doc.problems[0], args.join(' ')).toEqual(first);
      // the same problems as the stderr lines
      expect(doc.problems.map((p) => `${p.path}: ${p.rule}\n`).join(''), args.join(' ')).toBe(r.stderr);
    });
  });

  it('covers usage errors too, and writes nothing when --json was not given', async () => {
    const out = join(dir, 'never');
    const [usage, plain, written] = await Promise.all([
      runCliAsync(['validate', 'x.yaml', '--json', '--bogus']),
      runCliAsync(['validate', 'x.yaml', '--bogus']),
      runCliAsync(['codegen', join(dir, 'mtu.yaml'), '--target', 'sonic', '--out', out, '--json']),
    ]);
    expect(usage.status).toBe(2);
    expect(parse(usage)).toEqual({ problems: [{ path: '--bogus', rule: 'unknown option for dcbkit validate; its options are --json, --kind, --target, --device' }] });
    expect(plain.stdout).toBe('');
    expect(written.status).toBe(2);
    expect(parse(written).problems.length).toBeGreaterThan(0);
    expect(readdirSync(dir)).not.toContain('never');
  });
});

describe('scenario keys that YAML 1.1 reads as booleans', () => {
  const burst = (keys: string) => TINY.replace(/traffic:\n[\s\S]*$/, `traffic:\n  on_off:\n    - {src: h0, dst: h2, priority: 3, frames: 1500, ${keys}}\n`);

  it('on_off takes on_time/off_time; the old on/off still work, each with a deprecation warning', async () => {
    const [now, old] = await Promise.all([
      runCliAsync(['run', file('burst-new.yaml', burst('on_time: 10us, off_time: 30us')), '--json']),
      runCliAsync(['run', file('burst-old.yaml', burst('on: 10us, off: 30us')), '--json']),
    ]);
    expect(now.status, now.stderr).toBe(0);
    expect(now.stderr).not.toMatch(/warning/);
    expect(old.status, old.stderr).toBe(0);
    expect(old.stderr).toContain('warning: traffic.on_off[0].on: deprecated: write on_time (YAML 1.1 parsers such as PyYAML read on as a boolean)\n');
    expect(old.stderr).toContain('warning: traffic.on_off[0].off: deprecated: write off_time (YAML 1.1 parsers such as PyYAML read off as a boolean)\n');
    // the same run: the flow sent the same bytes (10 us of every 40 us)
    const sent = (r: CliResult) => (JSON.parse(r.stdout) as { flows: { bytes_sent: number }[] }).flows[0].bytes_sent;
    expect(sent(old)).toBe(sent(now));
    expect(sent(now)).toBeGreaterThan(0);
  });

  it('validate warns about the old names; both names in one entry are refused', async () => {
    const [old, both] = await Promise.all([
      runCliAsync(['validate', file('burst-old2.yaml', burst('on: 10us, off: 30us'))]),
      runCliAsync(['validate', file('burst-both.yaml', burst('on: 10us, on_time: 10us, off_time: 30us'))]),
    ]);
    expect(old.status).toBe(0);
    expect(old.stderr).toMatch(/^warning: traffic\.on_off\[0\]\.on: deprecated: write on_time/m);
    expect(both.status).toBe(2);
    expect(both.stderr).toBe('traffic.on_off[0].on: unknown key in a scenario (docs/sim.md); allowed keys here: src, dst, on_time, off_time, priority, start, stop, size, rate, frames, victim, interarrival, start_jitter, weight, transport\n');
  });

  it('the JSON Schema names on_time and off_time', async () => {
    const r = await runCliAsync(['schema', 'scenario']);
    const item = (JSON.parse(r.stdout) as { properties: { traffic: { properties: { on_off: { items: { required: string[] } } } } } }).properties.traffic.properties.on_off.items;
    expect(item.required).toEqual(expect.arrayContaining(['on_time', 'off_time']));
    expect(item.required).not.toContain('on');
  });
});
