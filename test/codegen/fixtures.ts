// Configs used by the codegen tests: the DESIGN.md §5 example port, and variants.
import type { CodegenConfig } from '../../codegen/ir.js';
import { headroomFromModel } from '../../codegen/index.js';

/** DESIGN.md §5 example: 100G, 300 m, MTU 9216; TCs 0..2 ETS 40/40/20, TC 3..7 strict; PFC on priority 3. */
export function exampleConfig(): CodegenConfig {
  return {
    port: { name: 'Ethernet0', speed: '100G', mtu: 9216, cable: '300m', mac: '02:00:00:00:00:01' },
    ets: {
      willing: false,
      prio_tc: [0, 0, 1, 1, 2, 2, 3, 3],
      tsa: ['ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict', 'strict'],
      bw: [40, 40, 20, 0, 0, 0, 0, 0],
    },
    pfc: { enable: [3], willing: false, mbc: false, cap: 8, pause_time: 65535, headroom: 'auto' },
    app: [
      { selector: 'ethertype', protocol: 0x8906, priority: 3 },
      { selector: 'dscp', protocol: 26, priority: 3 },
    ],
    qcn: { cp: { priorities: [3], q_eq: 26000, w: 2 }, rp: { profile: 'qau-pc' } },
  };
}

/** Priorities 2 and 3 each in a TC of their own so PFC on 3 is clean; ECN on TC 3. */
export function losslessConfig(): CodegenConfig {
  const c = exampleConfig();
  c.ets = {
    willing: false,
    prio_tc: [0, 1, 2, 3, 4, 5, 6, 7],
    tsa: ['ets', 'ets', 'ets', 'ets', 'strict', 'strict', 'strict', 'strict'],
    bw: [10, 20, 30, 40, 0, 0, 0, 0],
  };
  c.pfc = { ...c.pfc, enable: [3, 4] };
  return c;
}

/** The project's headroom model (host/headroom.ts); DESIGN.md §4.1: 100G, 300 m, MTU 9216 -> 111,992 B. */
export const testHeadroom = headroomFromModel;
