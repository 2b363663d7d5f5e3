// `dcbkit vectors pfc`: golden vectors of one port's PFC / 802.3x PAUSE state (assembly/pfc.ts;
// format in docs/pfc.md). One output line per input event with the whole record after it; XOFF
// refreshes due at or before an event come first, as their own lines (type "refresh", t_ps = the
// deadline that fired). Integers only: times in ps, sizes in bytes, masks as bit fields.
import { z } from 'zod';
import { InputError } from '../errors.js';
import { computeHeadroom, parseCable, parseSpeed, SPEED_TABLE } from '../headroom.js';
import { MTU_MAX, MTU_MIN } from '../units.js';
import { Core } from '../loader.js';
import { PfcPort, type PfcMode } from '../pfc.js';
import type { VectorKernel } from './registry.js';

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
    xoff: perUnit.default(40960),
    xon: perUnit.default(20480),
    headroom: z.union([perUnit, z.literal('auto')]).default('auto'),
    cable: z.string().default('100m'),
    mtu: z.number().int().min(MTU_MIN).max(MTU_MAX).default(9216),
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

const stimulus = z
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

type Stimulus = z.output<typeof stimulus>;

function units(v: number | number[]): number[] {
  return Array.isArray(v) ? v : Array(9).fill(v);
}

/** The port the stimulus describes (headroom "auto" = host/headroom.ts at speed, cable, mtu). */
function buildPort(p: Stimulus['params'], core: Core): PfcPort {
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

export const pfcVectors: VectorKernel<typeof stimulus> = {
  name: 'pfc',
  describe: '802.1Qbb PFC / 802.3x PAUSE: ingress XOFF/XON generation and egress pause timers of one port',
  stimulus,
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
};
