// `dcbkit vectors ets|pfc --config CONFIG`: the kernels take every parameter from the register image
// that `codegen --target c-header,sv` writes for the same config. For several configs, every DWRR
// quantum and every PFC threshold in the vectors' configuration word is checked against the values
// the SV register package prints (DCB_<block>_<field>_VALUES, decoded here from the package text) and
// the manifest names the config, port and the sha256 of dcb_regs.bin. Without --config the defaults
// are a default config's; bad flags exit 2.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codegenFiles } from '../host/commands/codegen.js';
import { exampleStimulus, generateMemh } from '../host/commands/vectors.js';
import { packageRoot } from '../host/core/loader.js';
import { runCli } from './helpers.js';
import { E2E_CONFIGS } from './vectors-configs.js';

const ROOT = packageRoot();
const CONFIGS = [...E2E_CONFIGS, join(ROOT, 'examples', 'configs', 'roce.yaml'), join(ROOT, 'examples', 'configs', 'converged.yaml')];

/** DCB_<block>_<field>_VALUES of the SV package: instance i's value. */
function svValues(pkg: string, block: string, field: string): number[] {
  const m = new RegExp(`DCB_${block}_${field}_VALUES = \\{([^}]*)\\}`).exec(pkg);
  if (!m) throw new Error(`no DCB_${block}_${field}_VALUES`);
  return m[1].split(',').map((v) => Number(/32'd(\d+)/.exec(v)![1])).reverse();
}

interface Manifest {
  source: { config: string; config_sha256: string; port: string; register_image_sha256: string };
  config_word: unknown;
}
const configWord = (files: Map<string, string>) => {
  const text = files.get('config.memh')!.trim();
  const m = JSON.parse(files.get('manifest.json')!) as Manifest & { config_word: { fields: { name: string; lsb: number; width: number }[] } };
  const word = BigInt(`0x${text}`);
  return (name: string) => {
    const f = m.config_word.fields.find((x) => x.name === name)!;
    return Number((word >> BigInt(f.lsb)) & ((1n << BigInt(f.width)) - 1n));
  };
};

describe('vectors --config agrees with codegen --target c-header,sv', () => {
  for (const config of CONFIGS) {
    it(config.replace(`${ROOT}/`, ''), () => {
      const gen = codegenFiles(config, ['c-header', 'sv']);
      const pkg = gen.files.get('sv/dcb_regs_pkg.sv') as string;
      const image = gen.files.get('c-header/dcb_regs.bin') as Uint8Array;
      const imageSha = createHash('sha256').update(image).digest('hex');
      const credits = svValues(pkg, 'tc', 'quantum_credits');
      const weight = svValues(pkg, 'tc', 'dwrr_weight');
      const tsa = svValues(pkg, 'tc', 'tsa');
      const mtu = svValues(pkg, 'glb', 'mtu')[0];
      const cell = svValues(pkg, 'glb', 'cell_bytes')[0];

      const ets = generateMemh('ets', JSON.parse(exampleStimulus('ets')), { config });
      const etsManifest = JSON.parse(ets.get('manifest.json')!) as Manifest;
      expect(etsManifest.source).toMatchObject({ config, port: gen.ir.ports[0].name, register_image_sha256: imageSha });
      const e = configWord(ets);
      expect(e('max_wire')).toBe(mtu + 20);
      for (let t = 0; t < 8; t++) {
        const strict = tsa[t] === 0 || tsa[t] === 1;
        // weighted: the register's credits x 64 B; 0 %: one maximum wire frame; strict: none
        const want = strict ? 0 : weight[t] > 0 ? credits[t] * 64 : mtu + 20;
        expect(e(`quantum[${t}]`), `quantum[${t}]`).toBe(want);
      }

      const pfc = generateMemh('pfc', JSON.parse(exampleStimulus('pfc')), { config });
      expect((JSON.parse(pfc.get('manifest.json')!) as Manifest).source.register_image_sha256).toBe(imageSha);
      const p = configWord(pfc);
      const pgOf = svValues(pkg, 'prio', 'pg');
      const pfcEn = svValues(pkg, 'prio', 'pfc_en');
      let lossless = 0;
      for (let prio = 0; prio < 8; prio++) {
        const pg = pgOf[prio];
        if (!svValues(pkg, 'port', `pg${pg}_lossless`)[0]) continue;
        lossless++;
        expect(pfcEn[prio]).toBe(1);
        for (const what of ['xoff', 'xon', 'headroom'] as const) {
          expect(p(`${what}[${prio}]`), `${what}[${prio}]`).toBe(svValues(pkg, 'port', `pg${pg}_${what}_cells`)[0] * cell);
        }
        expect(p(`limit[${prio}]`)).toBe(svValues(pkg, 'port', `pg${pg}_size_cells`)[0] * cell);
      }
      expect(lossless).toBeGreaterThan(0); // every config here has a lossless priority to check
      expect(p('enable')).toBe(svValues(pkg, 'glb', 'pfc_enable')[0]);
      expect(p('pause_time')).toBe(svValues(pkg, 'glb', 'pause_time')[0]);
    });
  }

  it('50/30/20 at MTU 9216 runs with the image quanta 23104/13888/9280 B', () => {
    // max wire 9216 + 20 = 9236 B; Q = ceil(9236 / 20) = 462 B per %; bw x Q = 23100 / 13860 / 9240 B,
    // rounded up to whole 64-byte credits: 361 / 217 / 145 credits = 23104 / 13888 / 9280 B
    const files = generateMemh('ets', JSON.parse(exampleStimulus('ets')), { config: E2E_CONFIGS[0] });
    const e = configWord(files);
    expect([0, 1, 2].map((t) => e(`quantum[${t}]`))).toEqual([23104, 13888, 9280]);
    expect(e('q_unit')).toBe(462);
  });

  it('without --config: a default config\'s MTU and thresholds', () => {
    const e = configWord(generateMemh('ets', { ets: JSON.parse(exampleStimulus('ets')).ets, events: [] }));
    expect(e('max_wire')).toBe(9216 + 20); // default port.mtu
    const p = configWord(generateMemh('pfc', { events: [] }));
    expect([p('xoff[3]'), p('xon[3]')]).toEqual([36864, 18432]); // default pfc.xoff / pfc.xon
  });

  it('bad flags exit 2 naming the flag', () => {
    const ets = join(ROOT, 'examples', 'vectors', 'ets.json');
    const cases: [string[], RegExp][] = [
      [['vectors', 'ets', '--stimulus', ets, '--config', E2E_CONFIGS[0], '--tc', '0'], /--tc: kernel ets models no single TC/],
      [['vectors', 'ets', '--stimulus', ets, '--config', E2E_CONFIGS[0], '--port', 'Ethernet9'], /--port: no port "Ethernet9"/],
      [['vectors', 'ets', '--stimulus', ets, '--port', 'Ethernet0'], /--port: .*give --config too/],
      [['vectors', 'ets', '--stimulus', ets, '--config', '/nonexistent.yaml'], /cannot read/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });
});
