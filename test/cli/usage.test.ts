// Usage errors (host/cli/usage.ts): a missing, unknown or badly valued argument is reported like any
// bad input, one `path: rule` line per problem on stderr, exit 2, nothing on stdout, naming the
// argument as typed and saying what is wanted.
import { describe, expect, it } from 'vitest';
import { joinNegativeValues, mergeProblems } from '../../host/cli/usage.js';
import { COMMANDS, runCliAsync } from '../helpers.js';

const HEADROOM_OPTIONS = '--speed, --cable, --mtu, --lossless-mtu, --interface-delay, --profile, --asic, --asic-table, --lanes, --small-packet-percent, --shared-headroom-pool, --gearbox-delay, --json';

// [arguments, exact stderr lines]. Rules quote each option's own --help description.
const CASES: [string[], string[]][] = [
  [['headroom', '--speed', '100G'], ['--cable: required (cable length, e.g. 300m or 2km)']],
  [['headroom'], ['--speed: required (port speed: 10G 25G 40G 50G 100G 200G 400G 800G; the sonic profiles: any whole Mb/s, e.g. 100M, 1G)', '--cable: required (cable length, e.g. 300m or 2km)']],
  // `-3m` would be the flags -3 and -m to yargs; it reaches headroom's own check as the value of --cable.
  [['headroom', '--speed', '100G', '--cable', '-3m', '--mtu', '9216'], ['--cable: must be a length 0..100000 m like "300m" or "2km", got "-3m"']],
  [['headroom', '--speed', '100G', '--cable', '3m', '--json', '-3'], ['--json: takes no value, got "-3"']],
  [['headroom', '--speed', '100G', '--cable', '3m', '--colour', 'red'], [`--colour: unknown option for dcbkit headroom; its options are ${HEADROOM_OPTIONS}`]],
  [['vectors'], ['<kernel>: required (qcn-rp | qcn-cp | ets | pfc | credit)']],
  [['vectors', 'ets', '--stimulus'], ['--stimulus: needs a value (stimulus JSON file, or - for stdin)']],
  [['vectors', 'ets', 'extra', '--stimulus', '-'], ['extra: unexpected argument; usage: dcbkit vectors <kernel> [options]']],
  [['sweep', 'examples/sim-tiny/scenario.yaml'], ['--param: required (PATH=v1,v2,... (dotted scenario path); repeat for a grid)']],
  [['run'], ['<scenario>: required (scenario file (YAML or JSON))']],
  [['codegen', 'c.yaml', '--target', 'foo', '--out', 'o'], ['--target: "foo" is not one of "sonic", "p4", "linux", "c-header", "lldp", "dpdk", "sv", "all"']],
  [[], [`<command>: required (one of ${COMMANDS}; see dcbkit --help)`]],
  [['bogus'], [`bogus: unknown command (one of ${COMMANDS})`]],
  [['-x'], [`<command>: required (one of ${COMMANDS}; see dcbkit --help)`, '-x: unknown option for dcbkit; options go after a command; see dcbkit --help']],
  [['headrom'], [`headrom: unknown command; did you mean headroom? (one of ${COMMANDS})`]],
  [['frames'], ['<kind>: required (one of pfc, pause, cnm, ce)']],
  [['frames', 'xyzzy'], ['xyzzy: unknown frames kind (one of pfc, pause, cnm, ce)']],
  [['dcbx', 'negotiate', 'a.yaml'], ['<b>: required']],
];

describe('usage errors', () => {
  it('print one path: rule line per problem, exit 2, nothing on stdout', async () => {
    const results = await Promise.all(CASES.map(([args]) => runCliAsync(args)));
    CASES.forEach(([args, lines], i) => {
      const r = results[i];
      expect(r.stderr, args.join(' ')).toBe(lines.map((l) => l + '\n').join(''));
      expect(r.status, args.join(' ')).toBe(2);
      // with --json the same problems are on stdout too (test/cli/messages.test.ts)
      if (!args.includes('--json')) expect(r.stdout, args.join(' ')).toBe('');
    });
  });

  it('rejoins an option and a value that starts like a negative number', () => {
    expect(joinNegativeValues(['headroom', '--cable', '-3m', '--mtu', '-.5', '-', '--', '--x', '-1']).argv)
      .toEqual(['headroom', '--cable=-3m', '--mtu=-.5', '-', '--', '--x', '-1']);
    // `-` alone (stdin) and option-looking words stay as they are.
    expect(joinNegativeValues(['vectors', 'ets', '--stimulus', '-', '--json']).argv).toEqual(['vectors', 'ets', '--stimulus', '-', '--json']);
  });

  it('merges repeated reports of one problem and prefers a suggestion', () => {
    expect(mergeProblems([
      { path: '<a>', rule: 'required' }, { path: '<a>', rule: 'required' },
      { path: 'x', rule: 'unknown command; did you mean y? (one of y)' }, { path: 'x', rule: 'unknown command (one of y)' },
    ])).toEqual([{ path: '<a>', rule: 'required' }, { path: 'x', rule: 'unknown command; did you mean y? (one of y)' }]);
  });
});
