// Random PFC stimuli (`dcbkit vectors pfc --random N --seed S`) and the coverage of PFC vectors.
//
// Events are in time order and every departure takes a frame that is queued: the generator runs
// the kernel's own port beside it (buildPort), so it knows which arrivals were accepted. It works
// in phases of one kind each:
//   fill     arrivals at one lossless priority until the port drops one (XOFF, then drops);
//   drain    departures at one priority until it is empty (XON);
//   storm    an XOFF/XON storm: at one lossless priority, a departure while in XOFF state, an
//            arrival otherwise, so the unit crosses XOFF and XON again and again;
//   rx       a burst of received PFC (random enable vectors and times, zeros = XON) and PAUSE frames;
//   mixed    arrivals and departures at any priority, received frames, ticks;
//   idle     a tick one to four refresh intervals later (XOFF refreshes fall due).
// Without a config: one or two PFC priorities at 25G, 100G or 400G with a default config's
// thresholds and the headroom model; with one, the parameters its register image gives.
import { Core } from '../core/loader.js';
import { buildPort, pfcStimulus } from './pfc.js';
import type { Rand } from './random.js';

type Event = Record<string, unknown>;

/** A valid PFC stimulus of `n` events; `fixed.params` holds the parameters from a register image. */
export function randomPfc(r: Rand, n: number, fixed?: Record<string, unknown>): Record<string, unknown> {
  const params = (fixed?.params as Record<string, unknown> | undefined) ?? (() => {
    const a = r.int(0, 7);
    const b = r.int(0, 7);
    return { speed: r.pick(['25G', '100G', '400G']), mode: 'pfc', enable: [...new Set([a, b])].sort(), pause_time: r.pick([200, 2000, 65535]) };
  })();
  const s = pfcStimulus.parse({ params, events: [] });
  const port = buildPort(s.params, new Core('release'));
  const refreshPs = Number(port.refreshPs);
  const mtu = s.params.mtu;
  const lossless = s.params.mode === 'pfc' && s.params.enable.length ? s.params.enable : [0, 1, 2, 3, 4, 5, 6, 7];
  const fifo: number[][] = Array.from({ length: 8 }, () => []);
  const events: Event[] = [];
  let t = 0;
  const step = () => (t += r.int(0, Math.max(1, Math.floor(refreshPs / 8))));
  const arrive = (prio: number) => {
    const bytes = r.frame(Math.min(mtu, 65535));
    if (port.arrive(prio, bytes, BigInt(t))) fifo[prio].push(bytes);
    events.push({ t_ps: t, type: 'arrive', prio, bytes });
    port.takePending(); // the oracle sends nothing: clear its pending frame as the kernel does per line
  };
  const depart = (prio: number) => {
    const bytes = fifo[prio].shift()!;
    port.depart(prio, bytes);
    port.takePending();
    events.push({ t_ps: t, type: 'depart', prio, bytes });
  };
  const inXoff = (prio: number) => ((port.snapshot(BigInt(t)).xoff_state >> prio) & 1) === 1;
  const queued = () => [0, 1, 2, 3, 4, 5, 6, 7].filter((p) => fifo[p].length > 0);
  while (events.length < n) {
    const phase = r.pick(['fill', 'drain', 'storm', 'storm', 'rx', 'mixed', 'mixed', 'idle'] as const);
    const prio = r.pick(lossless);
    let budget = Math.min(n - events.length, r.int(8, 200));
    if (phase === 'fill') {
      let dropped = 0;
      while (budget-- > 0 && dropped < 3) {
        step();
        const before = fifo[prio].length;
        arrive(prio);
        if (fifo[prio].length === before) dropped++;
      }
    } else if (phase === 'drain') {
      while (budget-- > 0 && fifo[prio].length) { step(); depart(prio); }
    } else if (phase === 'storm') {
      while (budget-- > 0) {
        step();
        if (inXoff(prio) && fifo[prio].length) depart(prio);
        else arrive(prio);
      }
    } else if (phase === 'rx') {
      for (budget = Math.min(budget, 20); budget > 0; budget--) {
        step();
        if (r.chance(0.8)) events.push({ t_ps: t, type: 'rx_pfc', enable_vector: r.int(1, 255), time: Array.from({ length: 8 }, () => (r.chance(0.3) ? 0 : r.int(1, 0xffff))) });
        else events.push({ t_ps: t, type: 'rx_pause', time: r.chance(0.3) ? 0 : r.int(1, 0xffff) });
      }
    } else if (phase === 'mixed') {
      while (budget-- > 0) {
        step();
        const x = r.int(0, 99);
        const held = queued();
        if (x < 45) arrive(r.int(0, 7));
        else if (x < 85 && held.length) depart(r.pick(held));
        else if (x < 92) events.push({ t_ps: t, type: 'rx_pfc', enable_vector: r.int(0, 255), time: Array.from({ length: 8 }, () => r.int(0, 0xffff)) });
        else events.push({ t_ps: t, type: 'tick' });
      }
    } else {
      t += r.int(refreshPs, 4 * refreshPs);
      events.push({ t_ps: t, type: 'tick' });
    }
  }
  events.length = n;
  return { params: s.params, events };
}

interface PfcLine { type: string; dropped: number; tx_mask: number; tx_time: number[] }

/** What a set of PFC vectors exercises: frames generated (XOFF, XON, refreshes), drops, frames received. */
export function pfcCoverage(_s: unknown, lines: object[]): Record<string, number> {
  const c = { xoff: 0, xon: 0, refreshes: 0, drops: 0, rx_pfc: 0, rx_pause: 0 };
  for (const l of lines as PfcLine[]) {
    for (let u = 0; u < 9; u++) {
      if (!((l.tx_mask >> u) & 1)) continue;
      if (l.tx_time[u] > 0) c.xoff++;
      else c.xon++;
    }
    if (l.type === 'refresh') c.refreshes++;
    if (l.type === 'rx_pfc') c.rx_pfc++;
    if (l.type === 'rx_pause') c.rx_pause++;
    c.drops += l.dropped;
  }
  return c;
}
