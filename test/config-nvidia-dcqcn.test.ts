// qcn.rp.nvidia: NVIDIA ConnectX DCQCN parameters (sysfs names, vendor units) mapped onto the dcqcn
// model (host/config/nvidia-dcqcn.ts, docs/qcn.md "NVIDIA ConnectX parameters"), the alpha_bits
// option, and the rules: unknown names, one parameter given twice, what is not modelled.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../host/config/index.js';
import { checkScenario } from '../host/scenario/scenario.js';
import { buildFabric } from '../host/sim/run.js';
import { inputErrorOf } from './helpers.js';

const rpOf = (rp: object) => parseConfig({ port: { speed: '100G' }, qcn: { rp: { profile: 'dcqcn', ...rp } } }).config.qcn.rp;
const problemsOf = (rp: object) => inputErrorOf(() => rpOf(rp)).problems.map((p) => `${p.path}: ${p.rule}`);

describe('qcn.rp.nvidia', () => {
  it('an empty block is a ConnectX at its defaults, in the model\'s units', () => {
    expect(rpOf({ nvidia: {} })).toEqual({
      profile: 'dcqcn', line_bps: 100e9, alpha_bits: 20,
      bc_bytes: 32767 * 64, // rpg_byte_reset in 64-byte units
      timer_ps: 300e6, th: 1, ai_bps: 5e6, hai_bps: 50e6, min_bps: 1e6, // rpg_time_reset 300 us, rpg_threshold 1, rpg_*_rate Mb/s
      g: 5 / 1024, alpha_timer_ps: 1e6, alpha_init: 1023 / 1024, // dce_tcp_g 1019 = (1 - g) in Q10, dce_tcp_rtt 1 us
      alpha_cut_shift: 1, min_dec_pct: 50, first_cnp_bps: 0, // rpg_gd 11, rpg_min_dec_fac 50
      clamp_tgt_rate: false, clamp_tgt_rate_after_time_inc: true,
      cnp_interval_ps: 50e6, // min_time_between_cnps absent: the model's 50 us
    });
  });

  it('maps each given name with its unit', () => {
    expect(rpOf({
      nvidia: {
        dce_tcp_g: 1020, dce_tcp_rtt: 55, initial_alpha_value: 512, rate_to_set_on_first_cnp: 20000, min_dec_fac: 25,
        rpg_min_rate: 10, rpg_gd: 10, rpg_time_reset: 55, rpg_byte_reset: 1000, rpg_threshold: 5, rpg_max_rate: 40000,
        rpg_ai_rate: 40, rpg_hai_rate: 200, clamp_tgt_rate: 1, clamp_tgt_rate_after_time_inc: 0, min_time_between_cnps: 4,
      },
    })).toEqual({
      profile: 'dcqcn', line_bps: 40e9, alpha_bits: 20, bc_bytes: 64_000, timer_ps: 55e6, th: 5, ai_bps: 40e6, hai_bps: 200e6,
      min_bps: 10e6, g: 4 / 1024, alpha_timer_ps: 55e6, alpha_init: 0.5, alpha_cut_shift: 0, min_dec_pct: 25,
      first_cnp_bps: 20e9, clamp_tgt_rate: true, clamp_tgt_rate_after_time_inc: false, cnp_interval_ps: 4e6,
    });
  });

  it('a printed config parses back to itself (the block is consumed)', () => {
    const { config } = parseConfig({ qcn: { rp: { profile: 'dcqcn', alpha_bits: 10, nvidia: { rpg_ai_rate: 8 } } } });
    // As input, the port's speed and cable carry their unit (docs/units.md); the normalised form keeps numbers.
    const printed = JSON.parse(JSON.stringify(config));
    printed.port.speed = `${config.port.speed / 1e9}G`;
    printed.port.cable = `${config.port.cable}m`;
    expect(parseConfig(printed).config).toEqual(config);
  });

  it('without the block: the paper\'s model, g_shift as g, alpha_bits 20', () => {
    expect(rpOf({ g_shift: 4 })).toMatchObject({ g: 1 / 16, timer_ps: 55e6, th: 5, ai_bps: 40e6, alpha_bits: 20, clamp_tgt_rate: true, min_dec_pct: 0 });
    expect(rpOf({ alpha_bits: 10 }).alpha_bits).toBe(10);
  });

  it('rejects unknown names, a parameter given twice, and what the model does not implement', () => {
    expect(problemsOf({ nvidia: { rpg_bogus: 1 } })).toEqual([
      expect.stringMatching(/^qcn\.rp\.nvidia\.rpg_bogus: unknown key; allowed keys: dce_tcp_g, dce_tcp_rtt, initial_alpha_value, /),
    ]);
    expect(problemsOf({ timer_ps: 1e6, nvidia: { rpg_time_reset: 10 } })).toEqual(['qcn.rp.nvidia.rpg_time_reset: sets the same parameter as qcn.rp.timer_ps; give one']);
    expect(problemsOf({ g_shift: 8, nvidia: { dce_tcp_g: 1020 } })).toEqual(['qcn.rp.nvidia.dce_tcp_g: sets the same parameter as qcn.rp.g_shift; give one']);
    expect(problemsOf({ nvidia: { min_dec_fac: 20, rpg_min_dec_fac: 30 } })).toEqual(['qcn.rp.nvidia.min_dec_fac: is the same parameter as rpg_min_dec_fac; give one']);
    expect(problemsOf({ nvidia: { rate_reduce_monitor_period: 4 } })).toEqual([expect.stringMatching(/^qcn\.rp\.nvidia\.rate_reduce_monitor_period: is not modelled/)]);
    expect(problemsOf({ g_shift: 8, g: 0.5 })).toEqual(['qcn.rp.g_shift: sets the same gain as g; give one']);
    expect(problemsOf({ g: 0.1 })).toEqual([expect.stringMatching(/^qcn\.rp\.g: must be a multiple of 2\^-24/)]);
    expect(problemsOf({ alpha_bits: 9 })).toEqual([expect.stringMatching(/^qcn\.rp\.alpha_bits: must be a number of fraction bits 10\.\.24/)]);
    expect(problemsOf({ nvidia: { dce_tcp_g: 1024 } })).toEqual([expect.stringMatching(/^qcn\.rp\.nvidia\.dce_tcp_g: must be a Q10 fraction/)]);
    expect(problemsOf({ nvidia: { clamp_tgt_rate: 2 } })).toEqual([expect.stringMatching(/^qcn\.rp\.nvidia\.clamp_tgt_rate: must be 0 or 1/)]);
  });

  it('reaches the simulator\'s rate limiters: the record holds g, alpha and the options in the alpha_bits fixed point', () => {
    const dcb = { port: { mtu: 1518 }, pfc: { enable: [] }, qcn: { cp: { priorities: [3] }, rp: { profile: 'dcqcn', alpha_bits: 10, nvidia: { rpg_min_dec_fac: 30, rate_to_set_on_first_cnp: 2000, min_time_between_cnps: 4 } } } };
    const scn = checkScenario({
      duration: '10us', defaults: { link: { speed: '40G', cable: '10m' }, buffer: { size: '1MB' }, dcb },
      hosts: [{ name: 'h0' }, { name: 'h1' }], switches: [{ name: 'sw' }], links: [{ a: 'h0', b: 'sw' }, { a: 'h1', b: 'sw' }],
      qcn: { enable: true, profile: 'dcqcn' },
      traffic: { flows: [{ src: 'h1', dst: 'h0', priority: 3 }] },
    });
    const fab = buildFabric(scn);
    const rp = fab.flowAt(0) + fab.L.SF_RP;
    const i32 = (n: string) => fab.r32(rp + fab.L[n]);
    const i64 = (n: string) => fab.r64(rp + fab.L[n]);
    expect({
      bits: i32('QCN_RP_ALPHA_BITS'), g: i32('QCN_RP_G'), init: i32('QCN_RP_ALPHA_INIT'), shift: i32('QCN_RP_GD_SHIFT'),
      minDec: i32('QCN_RP_MIN_DEC_PCT'), first: i64('QCN_RP_FIRST_CNP_BPS'), flags: i32('QCN_RP_FLAGS'),
      timer: i64('QCN_RP_TIMER_PS'), alphaPs: i64('QCN_RP_ALPHA_PS'), np: fab.r64(fab.flowAt(0) + fab.L.SF_NP + fab.L.DCQCN_NP_SPACING_PS),
    }).toEqual({
      bits: 10, g: 5, init: 1023, shift: 11, minDec: 30, first: 2e9, flags: fab.L.QCN_RP_F_TR_HOLD | fab.L.QCN_RP_F_TR_AFTER_TIMER,
      timer: 300e6, alphaPs: 1e6, np: 4e6,
    });
  });
});
