// `dcbkit vectors pfc`: golden vectors of one port's PFC / 802.3x PAUSE state (assembly/pfc.ts;
// format in docs/pfc.md). One output line per input event with the whole record after it; XOFF
// refreshes due at or before an event come first, as their own lines (type "refresh", t_ps = the
// deadline that fired). Integers only: times in ps, sizes in bytes, masks as bit fields.
import { z } from 'zod';
import { InputError } from '../errors/errors.js';
import { computeHeadroom, parseCable, parseSpeed, SPEED_TABLE } from '../analysis/headroom.js';
import { MTU_MAX, MTU_MIN } from '../units/units.js';
import { Core } from '../core/loader.js';
import { PfcPort, type PfcMode } from '../core/pfc.js';
import type { MemhLayout } from './memh.js';
import type { VectorKernel } from './registry.js';
import { defaultConfigValues, pfcFromRegisters } from './from-config.js';
import { pfcCoverage, randomPfc } from './pfc-random.js';

const u16 = z.number().int().min(0).max(0xffff);
const bytes = z.number().int().min(1).max(65535);
const tPs = z.number().int().min(0).max(2 ** 52);
const perUnit = z.union([z.number().int().min(0).max(2 ** 30), z.array(z.number().int().min(0).max(2 ** 30)).length(9)]);

const speed = z.union([z.string(), z.number().int().positive()]).transform((v, ctx) => {
  if (typeof v === 'string') {
    try {
      return parseSpeed(v, '');
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: (e as InputError).problems[0].rule });
      return z.NEVER;
    }
  }
  if (512e12 % v !== 0) ctx.addIssue({ code: 'custom', message: 'a pause quantum (512 bit times) must be a whole number of ps' });
  return v;
});

const params = z
  .object({
    speed: speed.default(100e9),
    mode: z.enum(['pfc', 'pause', 'off']).default('pfc'),
    enable: z.array(z.number().int().min(0).max(7)).default([3]),
    pause_time: u16.default(0xffff),
    refresh_quanta: z.number().int().min(1).max(0xffff).optional(),
    // a default config's values (`dcbkit validate` of an empty config), headroom from its cable
    xoff: perUnit.default(defaultConfigValues.xoff),
    xon: perUnit.default(defaultConfigValues.xon),
    headroom: z.union([perUnit, z.literal('auto')]).default('auto'),
    cable: z.string().default(`${defaultConfigValues.cableM}m`),
    mtu: z.number().int().min(MTU_MIN).max(MTU_MAX).default(defaultConfigValues.mtu),
  })
  .strict();

const at = { t_ps: tPs };
const event = z.discriminatedUnion('type', [
  z.object({ ...at, type: z.literal('arrive'), prio: z.number().int().min(0).max(7), bytes }).strict(),
  z.object({ ...at, type: z.literal('depart'), prio: z.number().int().min(0).max(7), bytes }).strict(),
  z.object({ ...at, type: z.literal('rx_pfc'), enable_vector: z.number().int().min(0).max(255), time: z.array(u16).length(8) }).strict(),
  z.object({ ...at, type: z.literal('rx_pause'), time: u16 }).strict(),
  z.object({ ...at, type: z.literal('tick') }).strict(),
]);

export const pfcStimulus = z
  .object({ params: params.default(params.parse({})), events: z.array(event) })
  .strict()
  .superRefine((s, ctx) => {
    s.events.forEach((e, i) => {
      if (i > 0 && e.t_ps < s.events[i - 1].t_ps) {
        ctx.addIssue({ code: 'custom', path: ['events', i, 't_ps'], message: 'times must not decrease' });
      }
    });
    if (s.params.headroom === 'auto' && !SPEED_TABLE.has(s.params.speed)) {
      ctx.addIssue({ code: 'custom', path: ['params', 'headroom'], message: '"auto" needs a speed of the headroom table; give bytes' });
    }
  });

type Stimulus = z.output<typeof pfcStimulus>;

function units(v: number | number[]): number[] {
  return Array.isArray(v) ? v : Array(9).fill(v);
}

/** The port the stimulus describes (headroom "auto" = host/analysis/headroom.ts at speed, cable, mtu). */
export function buildPort(p: Stimulus['params'], core: Core): PfcPort {
  let headroom: number[];
  if (p.headroom === 'auto') {
    const cableM = parseCable(p.cable, 'params.cable');
    headroom = units(computeHeadroom({ speedBps: p.speed, cableM, mtu: p.mtu }).headroom_bytes);
  } else headroom = units(p.headroom);
  return new PfcPort(core, {
    mode: p.mode as PfcMode, enable: p.enable, pauseTime: p.pause_time, refreshQuanta: p.refresh_quanta,
    speedBps: p.speed, xoff: units(p.xoff), xon: units(p.xon), headroom,
  });
}

function line(port: PfcPort, t: bigint, type: string, prio: number, nBytes: number, dropped: number) {
  const tx = port.takePending();
  const { pending: _pending, tx_times: _times, ...state } = port.snapshot(t);
  return { t_ps: Number(t), type, prio, bytes: nBytes, dropped, tx_mask: tx.mask, tx_time: tx.times, ...state };
}

const STIM_TYPES = ['arrive', 'depart', 'rx_pfc', 'rx_pause', 'tick'] as const;
const LINE_TYPES = [...STIM_TYPES, 'refresh'] as const;
const U9 = (key: string, width: number, meaning: string, signed = false) => ({ key, width, count: 9, signed, meaning });

/** memh layouts (host/vectors/memh.ts): the replay testbench of rtl/dcb_pfc_acct.sv reads these. */
function pfcMemh(s: Stimulus, _lines: object[], core: Core): MemhLayout {
  const rec = core.constant('SCRATCH');
  const row = (name: string) => Array.from({ length: 9 }, (_, u) => core.getI32(rec + core.constant(name) + 4 * u));
  const t = { key: 't_ps', width: 64, signed: true, meaning: 'event time, ps' };
  return {
    stimulus: [
      t,
      { key: 'type', width: 3, enum: STIM_TYPES, meaning: 'the event' },
      { key: 'prio', width: 3, optional: true, meaning: 'arrive/depart: frame priority' },
      { key: 'bytes', width: 16, optional: true, meaning: 'arrive/depart: frame bytes' },
      { key: 'enable_vector', width: 8, optional: true, meaning: 'rx_pfc: priority-enable vector e[0..7]' },
      { key: 'time', name: 'pfc_time', width: 16, count: 8, optional: true, when: ['rx_pfc'], meaning: 'rx_pfc: time[0..7], quanta' },
      { key: 'time', name: 'pause_time', width: 16, optional: true, when: ['rx_pause'], meaning: 'rx_pause: time, quanta' },
    ],
    expected: [
      t,
      { key: 'type', width: 3, enum: LINE_TYPES, meaning: 'the event, or refresh (an XOFF refresh due at t_ps)' },
      { key: 'prio', width: 4, signed: true, meaning: 'arrive/depart: frame priority; -1 otherwise' },
      { key: 'bytes', width: 16, meaning: 'arrive/depart: frame bytes; 0 otherwise' },
      { key: 'dropped', width: 1, meaning: '1: this arrival was dropped (occupancy would exceed xoff + headroom)' },
      { key: 'tx_mask', width: 9, meaning: 'frame generated by this event: bits 0..7 PFC e[n], bit 8 PAUSE; 0 none' },
      U9('tx_time', 16, 'time field of the generated frame per unit (0 = XON), quanta'),
      U9('occ', 32, 'ingress occupancy per unit (8 = port total), bytes', true),
      { key: 'xoff_state', width: 9, meaning: 'units in XOFF state (bit u)' },
      U9('next_refresh_ps', 64, 'next XOFF refresh per unit, ps; -1 none', true),
      U9('paused_until_ps', 64, 'egress pause timer per unit, ps', true),
      U9('paused_ps', 64, 'paused time so far per unit, ps', true),
      { key: 'blocked', width: 8, meaning: 'priorities that may not start a frame now (bit n)' },
      U9('xoff_tx', 48, 'XOFF frames generated per unit (refreshes included)'),
      U9('xon_tx', 48, 'XON frames generated per unit'),
      U9('xoff_rx', 48, 'XOFF entries obeyed per unit'),
      U9('xon_rx', 48, 'XON entries obeyed per unit'),
      U9('drops', 48, 'ingress drops per frame priority'),
      U9('drop_bytes', 48, 'ingress bytes dropped per frame priority'),
      { key: 'rx_ignored', width: 48, meaning: 'pause entries ignored (wrong mode, or a priority without PFC)' },
    ],
    config: { ...s.params },
    configWord: [
      { key: 'mode', width: 2, enum: ['off', 'pfc', 'pause'], meaning: 'flow control of the port' },
      { key: 'enable', width: 8, meaning: 'PFC-enabled priorities (bit n)' },
      { key: 'pause_time', width: 16, meaning: 'quanta an XOFF carries' },
      { key: 'quantum_ps', width: 32, meaning: '512 bit times at the port speed, ps' },
      { key: 'refresh_ps', width: 48, meaning: 'XOFF refresh interval, ps' },
      U9('xoff', 32, 'XOFF threshold per unit, bytes'),
      U9('xon', 32, 'XON threshold per unit, bytes'),
      U9('headroom', 32, 'headroom above XOFF per unit, bytes'),
      U9('limit', 32, 'drop limit per unit: xoff + headroom (saturated at 2^31 - 1), bytes'),
    ],
    configValues: {
      mode: s.params.mode,
      enable: core.getI32(rec + core.constant('PFC_ENABLE')),
      pause_time: core.getI32(rec + core.constant('PFC_PAUSE_TIME')),
      quantum_ps: core.getI64(rec + core.constant('PFC_QUANTUM_PS')),
      refresh_ps: core.getI64(rec + core.constant('PFC_REFRESH_PS')),
      xoff: row('PFC_XOFF_TH'), xon: row('PFC_XON_TH'), headroom: row('PFC_HEADROOM'), limit: row('PFC_LIMIT'),
    },
    events: s.events,
  };
}

export const pfcVectors: VectorKernel<typeof pfcStimulus> = {
  name: 'pfc',
  describe: '802.1Qbb PFC / 802.3x PAUSE: ingress XOFF/XON generation and egress pause timers of one port',
  stimulus: pfcStimulus,
  fromRegisters: (v) => ({ params: pfcFromRegisters(v) }),
  random: randomPfc,
  coverage: pfcCoverage,
  run(s, core = new Core('release')) {
    const port = buildPort(s.params, core);
    const out: object[] = [];
    s.events.forEach((e, i) => {
      const t = BigInt(e.t_ps);
      for (let due = port.nextRefresh(); due !== null && due <= t; due = port.nextRefresh()) {
        port.refreshDue(due);
        out.push(line(port, due, 'refresh', -1, 0, 0));
      }
      let dropped = 0;
      switch (e.type) {
        case 'arrive':
          dropped = port.arrive(e.prio, e.bytes, t) ? 0 : 1;
          break;
        case 'depart':
          if (e.bytes > port.occupancy(e.prio)) {
            throw new InputError({ path: `events[${i}].bytes`, rule: `departs ${e.bytes} B but priority ${e.prio} holds ${port.occupancy(e.prio)} B` });
          }
          port.depart(e.prio, e.bytes);
          break;
        case 'rx_pfc':
          port.receivePfc(e.enable_vector, e.time, t);
          break;
        case 'rx_pause':
          port.receivePause(e.time, t);
          break;
        case 'tick':
          break;
      }
      const prio = e.type === 'arrive' || e.type === 'depart' ? e.prio : -1;
      const nBytes = e.type === 'arrive' || e.type === 'depart' ? e.bytes : 0;
      out.push(line(port, t, e.type, prio, nBytes, dropped));
    });
    return out;
  },
  memh: pfcMemh,
};
