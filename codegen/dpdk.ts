// DPDK target (DPDK 22.11): the hierarchical scheduler rte_sched (lib/sched/rte_sched.h) and the
// generic traffic-manager API rte_tm (lib/ethdev/rte_tm.h) that NIC drivers implement.
//
//  - qos_sched.cfg: the profile format of examples/qos_sched (profile.cfg, read by cfg_file.c):
//    [port], [subport 0], [subport profile 0], [pipe profile 0]; one file per distinct port speed
//    (`qos_sched.cfg` when all ports share one, else `qos_sched_<speed>.cfg`; prio_map.json names
//    each port's file), because the subport and pipe rates are bytes/s of the port;
//  - prio_map.json: priority -> rte_sched traffic class and queue (subport 0, pipe 0; -1 where
//    rte_sched has no place for the TC), per TC the rte_sched and rte_tm placement, per port its
//    DPDK port id, rate and profile file;
//  - dcb_sched.h / dcb_sched.c: dcb_sched_fill() fills rte_sched_port_params, the subport params,
//    the subport profile and the pipe profile with the values of qos_sched.cfg; dcb_sched_create()
//    configures a port, subport 0 and pipe 0 with them;
//  - tm.testpmd: testpmd commands that build the rte_tm hierarchy per port.
//
// Mapping (802.1Qaz onto rte_sched's 13 TCs of one pipe: 0..11 strict, 0 highest; 12 best effort
// with 4 WRR queues). Strict (and cbs) TCs take rte_sched TCs 0.. from the highest 802.1Qaz TC
// down; ETS TCs take the best-effort queues 0.. in ascending TC order, their weights from
// dpdk-wrr.ts. A 0 % ETS TC (served only when the other ETS TCs are idle) and a fifth ETS TC have
// no rte_sched form. Shaping is off: every token bucket and TC rate is the port rate, so only
// the priority and WRR order decide. tb size = TB_FRAMES largest wire frames: the bytes a pipe
// visit may send before the grinder looks at the strict TCs again (rte_sched_port_dequeue), and
// small enough visits make the 3-bit truncation of stored WRR tokens (grinder_wrr_store) visible.
// Frame overhead 24 (RTE_SCHED_FRAME_OVERHEAD_DEFAULT: preamble 8, IFG 12, FCS 4) with mtu = config
// mtu - 4: DPDK's pkt_len leaves the FCS out, so pkt_len + 24 = frame + 20 wire bytes as in dcbkit.
//
// rte_tm: a root node (a shaper profile at the port rate), one non-leaf node per used TC, one leaf
// per TC whose id is the TC's TX queue. Strict TCs at priorities 0..k-1, highest 802.1Qaz TC
// first; ETS TCs share priority k with weight = bw; 0 % ETS TCs share priority k+1 with weight 1.
import type { Ir, IrTc, Quantisation } from './ir.js';
import { irProblemsFor } from './ir.js';
import type { CodegenTarget, Emitted, EmitOptions } from './target.js';
import { problem } from './target.js';
import type { Problem } from '../host/errors/errors.js';
import { InputError } from '../host/errors/errors.js';
import { BE_QUEUES, fitWrrWeights, padWeights, type WrrFit } from './dpdk-wrr.js';

/** rte_sched traffic classes per pipe (RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE) and the best-effort one. */
export const SCHED_TCS = 13;
export const SCHED_TC_BE = 12;
/** RTE_SCHED_FRAME_OVERHEAD_DEFAULT; with pkt_len = frame - FCS this counts frame + 20 wire bytes. */
export const FRAME_OVERHEAD = 24;
export const FCS_BYTES = 4;
/** Token bucket size in largest wire frames (see the header). */
export const TB_FRAMES = 8;
/** Queue size in packets of every used TC (qos_sched's profile.cfg default; a power of 2). */
export const QUEUE_PACKETS = 64;
/** TC period in ms (profile.cfg's subport value); with every rate at the port rate it never limits. */
export const TC_PERIOD_MS = 10;
/** rte_tm node ids: leaves are TX queues 0..15, so the non-leaf ids start above. */
export const TM_ROOT_NODE = 1000;
export const TM_TC_NODE_BASE = 900;
export const TM_SHAPER_PROFILE = 1;
/** RTE_TM_WRED_PROFILE_ID_NONE (UINT32_MAX). */
const TM_WRED_NONE = 4294967295;

export const DEFAULT_MAX_SHARE_ERROR_PP = 1;
export type DpdkApi = 'sched' | 'tm';
export const DPDK_APIS: DpdkApi[] = ['sched', 'tm'];

/** `--max-share-error PP`: a number >= 0 (percentage points). */
export function parseMaxShareError(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  throw new InputError([{ path: 'max-share-error', rule: `must be a number of percentage points >= 0, got ${typeof value === 'number' ? String(value) : JSON.stringify(value)}` }]);
}

/** `--dpdk-api sched,tm`: which of the DPDK APIs to emit for (default both). */
export function parseDpdkApi(value: unknown): DpdkApi[] {
  const words = (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).map((w) => w.trim());
  const bad = words.filter((w) => !DPDK_APIS.includes(w as DpdkApi));
  if (bad.length || !words.length) throw new InputError([{ path: 'dpdk-api', rule: `must be sched, tm or sched,tm, got ${JSON.stringify(value)}` }]);
  return DPDK_APIS.filter((a) => words.includes(a));
}

export interface DpdkTc {
  tc: IrTc;
  /** rte_sched traffic class 0..12 and queue (0..3 in TC 12, else 0). */
  schedTc: number;
  schedQueue: number;
  /** rte_tm priority and weight of the TC's node. */
  tmPriority: number;
  tmWeight: number;
}

export interface DpdkPlan {
  tcs: DpdkTc[];
  /** Best-effort WRR weights, four (idle queues repeat the largest). */
  wrrWeights: number[];
  fit: WrrFit | null;
  maxWireBytes: number;
  tbSizeBytes: number;
  /** Per device port: DPDK port id (position), rate in bytes/s and qos_sched profile file. */
  ports: { name: string; portId: number; rateBytes: number; profile: string }[];
  /** rte_tm priorities in use at the root (k strict, + 1 for ETS, + 1 for 0 % ETS). */
  tmPriorities: number;
}

const isStrict = (t: IrTc) => t.tsa === 'strict' || t.tsa === 'cbs';

function speedName(bps: number): string {
  return bps % 1e9 === 0 ? `${bps / 1e9}G` : `${bps / 1e6}M`;
}

/** Where every used TC goes in rte_sched and rte_tm; null fit when there is no ETS TC to weigh. */
export function dpdkPlan(ir: Ir): DpdkPlan {
  const used = ir.tcs.filter((t) => t.used && t.tsa !== 'vendor');
  const strict = used.filter(isStrict).sort((a, b) => b.tc - a.tc);
  const ets = used.filter((t) => t.tsa === 'ets' && t.bwPercent > 0).sort((a, b) => a.tc - b.tc);
  const zero = used.filter((t) => t.tsa === 'ets' && t.bwPercent === 0).sort((a, b) => a.tc - b.tc);
  const maxWireBytes = ir.maxWireFrameBytes;
  const fit = ets.length && ets.length <= BE_QUEUES ? fitWrrWeights(ets.map((t) => t.bwPercent), maxWireBytes) : null;
  const k = strict.length;
  const tcs: DpdkTc[] = [
    ...strict.map((tc, i) => ({ tc, schedTc: i, schedQueue: 0, tmPriority: i, tmWeight: 1 })),
    // ETS TCs beyond the 4 best-effort queues and 0 % ETS TCs have no rte_sched place (-1; check()
    // refuses them when rte_sched is wanted, and --dpdk-api tm emits only the rte_tm side).
    ...ets.map((tc, i) => ({ tc, schedTc: fit ? SCHED_TC_BE : -1, schedQueue: fit ? i : -1, tmPriority: k, tmWeight: tc.bwPercent })),
    ...zero.map((tc) => ({ tc, schedTc: -1, schedQueue: -1, tmPriority: k + (ets.length ? 1 : 0), tmWeight: 1 })),
  ];
  const speeds = [...new Set(ir.ports.map((p) => p.speedBps))];
  const ports = ir.ports.map((p, i) => ({
    name: p.name,
    portId: i,
    rateBytes: Math.floor(p.speedBps / 8),
    profile: speeds.length === 1 ? 'qos_sched.cfg' : `qos_sched_${speedName(p.speedBps)}.cfg`,
  }));
  return {
    tcs,
    wrrWeights: fit ? padWeights(fit.weights) : [1, 1, 1, 1],
    fit,
    maxWireBytes,
    tbSizeBytes: TB_FRAMES * maxWireBytes,
    ports,
    tmPriorities: k + (ets.length ? 1 : 0) + (zero.length ? 1 : 0),
  };
}

function apis(opts: EmitOptions): DpdkApi[] {
  return opts.dpdkApi ?? DPDK_APIS;
}

function check(ir: Ir, opts: EmitOptions = {}): Problem[] {
  const out = irProblemsFor(ir, 'dpdk');
  const want = apis(opts);
  const used = ir.tcs.filter((t) => t.used);
  for (const t of used) {
    if (t.tsa === 'vendor') out.push(problem('dpdk', `ets.tsa[${t.tc}]`, 'TSA vendor has no rte_sched or rte_tm form (strict priority or weighted round robin)'));
  }
  if (want.includes('sched')) {
    const tmHint = want.includes('tm') ? ' (rte_tm can: --dpdk-api tm emits tm.testpmd alone)' : '';
    for (const t of used) {
      if (t.tsa === 'ets' && t.bwPercent === 0) {
        out.push(problem('dpdk', `ets.bw[${t.tc}]`, `rte_sched has no place for a 0 % ETS TC (served only while the other ETS TCs are idle): its best-effort queues share by WRR weight, and every strict TC ranks above them${tmHint}`));
      }
    }
    const ets = used.filter((t) => t.tsa === 'ets' && t.bwPercent > 0);
    if (ets.length > BE_QUEUES) {
      out.push(problem('dpdk', 'ets.tsa', `uses ${ets.length} ETS traffic classes (${ets.map((t) => t.tc).join(', ')}) but rte_sched has ${BE_QUEUES} weighted queues (the best-effort TC 12)${tmHint}`));
    } else if (ets.length) {
      const fit = fitWrrWeights(ets.map((t) => t.bwPercent), ir.maxWireFrameBytes);
      const limit = opts.maxShareErrorPp ?? DEFAULT_MAX_SHARE_ERROR_PP;
      if (fit.maxErrorPp > limit + 1e-9) {
        out.push(problem('dpdk', 'ets.bw', `rte_sched's WRR cannot hold ${ets.map((t) => `${t.bwPercent}`).join('/')} % within ${limit} pp at MTU ${ir.mtu}: a cost lcm(weights)/weight must stay <= ${fit.costLimit} (cost x ${ir.maxWireFrameBytes} wire bytes <= 65535 in its 16-bit token counter, and <= 255 in its 8-bit field); the best weights ${fit.weights.join('/')} give ${fit.sharesPercent.map((s) => s.toFixed(2)).join('/')} % (${fit.maxErrorPp.toFixed(2)} pp off); accept that with --max-share-error ${Math.ceil(fit.maxErrorPp * 100) / 100}`));
      }
    }
    ir.ports.forEach((p, i) => {
      if (p.speedBps < 8) out.push(problem('dpdk', `ports[${i}].speed`, 'rte_sched needs a rate of at least 1 byte/s'));
    });
  }
  return out;
}

const rateLines = (rate: (tc: number) => number) => Array.from({ length: SCHED_TCS }, (_, i) => `tc ${i} rate = ${rate(i)}`);

function schedUsed(plan: DpdkPlan): Set<number> {
  return new Set(plan.tcs.filter((t) => t.schedTc >= 0).map((t) => t.schedTc));
}

/** Queue size per rte_sched TC: QUEUE_PACKETS where a TC is used (always for TC 12, which rte_sched requires), else 0. */
export function queueSizes(plan: DpdkPlan): number[] {
  const used = schedUsed(plan);
  return Array.from({ length: SCHED_TCS }, (_, i) => (used.has(i) || i === SCHED_TC_BE ? QUEUE_PACKETS : 0));
}

function describe(plan: DpdkPlan): string[] {
  return plan.tcs.filter((t) => t.schedTc >= 0).map((t) =>
    t.schedTc === SCHED_TC_BE
      ? `802.1Qaz TC ${t.tc.tc} (ETS ${t.tc.bwPercent} %) -> TC 12 queue ${t.schedQueue}, weight ${plan.wrrWeights[t.schedQueue]}`
      : `802.1Qaz TC ${t.tc.tc} (${t.tc.tsa}) -> TC ${t.schedTc}`,
  );
}

function profileFile(ir: Ir, plan: DpdkPlan, rate: number): string {
  const qs = queueSizes(plan);
  const L: string[] = [
    '; rte_sched profile in the format of DPDK examples/qos_sched (profile.cfg). Generated by dcbkit codegen.',
    `; One subport, one pipe; every rate is the port rate (${rate} bytes/s), so only strict priority`,
    '; (TC 0 first) and the best-effort WRR decide. Priorities map to TCs and queues as in prio_map.json:',
    ...describe(plan).map((d) => `;   ${d}`),
    `; tb size = ${TB_FRAMES} x ${plan.maxWireBytes} wire bytes: what a pipe visit may send before strict TCs are looked at again.`,
    '',
    '[port]',
    `frame overhead = ${FRAME_OVERHEAD}`,
    'number of subports per port = 1',
    '',
    '[subport 0]',
    'number of pipes per subport = 1',
    `queue sizes = ${qs.join(' ')}`,
    'pipe 0 = 0',
    '',
    '[subport profile 0]',
    `tb rate = ${rate}`,
    `tb size = ${plan.tbSizeBytes}`,
    ...rateLines(() => rate),
    `tc period = ${TC_PERIOD_MS}`,
    '',
    '[pipe profile 0]',
    `tb rate = ${rate}`,
    `tb size = ${plan.tbSizeBytes}`,
    ...rateLines((i) => (qs[i] ? rate : 0)),
    `tc period = ${TC_PERIOD_MS}`,
    'tc 12 oversubscription weight = 1',
    `tc 12 wrr weights = ${plan.wrrWeights.join(' ')}`,
  ];
  return L.join('\n') + '\n';
}

function prioMap(ir: Ir, plan: DpdkPlan): string {
  const byTc = new Map(plan.tcs.map((t) => [t.tc.tc, t]));
  const doc = {
    subport: 0,
    pipe: 0,
    priorities: ir.prioTc.map((tc, p) => {
      const d = byTc.get(tc);
      return { priority: p, dcb_tc: tc, traffic_class: d?.schedTc ?? -1, queue: d?.schedQueue ?? -1, tx_queue: ir.tcs[tc].queue };
    }),
    traffic_classes: plan.tcs.map((t) => ({
      dcb_tc: t.tc.tc,
      tsa: t.tc.tsa,
      bw: t.tc.bwPercent,
      traffic_class: t.schedTc,
      queue: t.schedQueue,
      wrr_weight: t.schedTc === SCHED_TC_BE ? plan.wrrWeights[t.schedQueue] : null,
      tx_queue: t.tc.queue,
      tm_node: TM_TC_NODE_BASE + t.tc.tc,
      tm_priority: t.tmPriority,
      tm_weight: t.tmWeight,
    })),
    ports: plan.ports.map((p) => ({ name: p.name, port_id: p.portId, rate_bytes_per_s: p.rateBytes, profile: p.profile })),
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

function header(ir: Ir, plan: DpdkPlan): string {
  const L = [
    '/* SPDX-License-Identifier: Apache-2.0 */',
    '/* dcb_sched.h: rte_sched parameters for the DCB config (802.1Qaz ETS). Generated by dcbkit codegen.',
    ' * Link dcb_sched.c; build with $(pkg-config --cflags --libs libdpdk). Same values as qos_sched.cfg. */',
    '#ifndef DCB_SCHED_H',
    '#define DCB_SCHED_H',
    '',
    '#include <stdint.h>',
    '#include <rte_mbuf.h>',
    '#include <rte_sched.h>',
    '',
    `#define DCB_SCHED_N_PORTS ${plan.ports.length}`,
    `#define DCB_SCHED_MTU ${ir.mtu - FCS_BYTES}u /* largest pkt_len (frame without FCS) */`,
    `#define DCB_SCHED_FRAME_OVERHEAD ${FRAME_OVERHEAD}u`,
    `#define DCB_SCHED_TB_SIZE ${plan.tbSizeBytes}u`,
    '',
    '/* Everything rte_sched_port_config, rte_sched_subport_config and rte_sched_pipe_config read;',
    ' * dcb_sched_fill points the port and subport params at the profiles inside the same struct. */',
    'struct dcb_sched_params {',
    '\tstruct rte_sched_port_params port;',
    '\tstruct rte_sched_subport_params subport;',
    '\tstruct rte_sched_subport_profile_params subport_profile;',
    '\tstruct rte_sched_pipe_params pipe_profile;',
    '};',
    '',
    '/* Port names and rates in bytes/s, by DPDK port index 0..DCB_SCHED_N_PORTS-1 (the device\'s port order). */',
    'extern const char *const dcb_sched_port_name[DCB_SCHED_N_PORTS];',
    'extern const uint64_t dcb_sched_port_rate[DCB_SCHED_N_PORTS];',
    '/* 802.1p priority -> rte_sched traffic class and queue (subport 0, pipe 0). */',
    'extern const uint8_t dcb_sched_prio_tc[8];',
    'extern const uint8_t dcb_sched_prio_queue[8];',
    '',
    '/* Fills p for port index `port` (0 on success, -EINVAL for a port index out of range). */',
    'int dcb_sched_fill(unsigned int port, const char *name, int socket, struct dcb_sched_params *p);',
    '/* Configures the port, subport 0 and pipe 0; NULL when rte_sched refuses (see its log). */',
    'struct rte_sched_port *dcb_sched_create(unsigned int port, const char *name, int socket);',
    '',
    '/* Tags an mbuf of 802.1p priority prio (0..7) for rte_sched_port_enqueue. */',
    'static inline void dcb_sched_classify(struct rte_sched_port *port, struct rte_mbuf *m, unsigned int prio)',
    '{',
    '\trte_sched_port_pkt_write(port, m, 0, 0, dcb_sched_prio_tc[prio & 7], dcb_sched_prio_queue[prio & 7], RTE_COLOR_GREEN);',
    '}',
    '',
    '#endif /* DCB_SCHED_H */',
    '',
  ];
  return L.join('\n');
}

const cString = (s: string) => JSON.stringify(s).replace(/\?/g, '\\?');

function source(ir: Ir, plan: DpdkPlan): string {
  const qs = queueSizes(plan);
  const byTc = new Map(plan.tcs.map((t) => [t.tc.tc, t]));
  const prioTc = ir.prioTc.map((tc) => byTc.get(tc)?.schedTc ?? SCHED_TC_BE);
  const prioQueue = ir.prioTc.map((tc) => byTc.get(tc)?.schedQueue ?? 0);
  const L = [
    '/* SPDX-License-Identifier: Apache-2.0 */',
    '/* dcb_sched.c: rte_sched parameters for the DCB config. Generated by dcbkit codegen. */',
    ...describe(plan).map((d) => `/*   ${d} */`),
    '#include <errno.h>',
    '#include <string.h>',
    '#include "dcb_sched.h"',
    '',
    `const char *const dcb_sched_port_name[DCB_SCHED_N_PORTS] = { ${plan.ports.map((p) => cString(p.name)).join(', ')} };`,
    `const uint64_t dcb_sched_port_rate[DCB_SCHED_N_PORTS] = { ${plan.ports.map((p) => `${p.rateBytes}ull`).join(', ')} };`,
    `const uint8_t dcb_sched_prio_tc[8] = { ${prioTc.join(', ')} };`,
    `const uint8_t dcb_sched_prio_queue[8] = { ${prioQueue.join(', ')} };`,
    `static const uint16_t dcb_sched_qsize[RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE] = { ${qs.join(', ')} };`,
    `static const uint8_t dcb_sched_wrr_weights[RTE_SCHED_BE_QUEUES_PER_PIPE] = { ${plan.wrrWeights.join(', ')} };`,
    '',
    'int dcb_sched_fill(unsigned int port, const char *name, int socket, struct dcb_sched_params *p)',
    '{',
    '\tif (port >= DCB_SCHED_N_PORTS)',
    '\t\treturn -EINVAL;',
    '\tuint64_t rate = dcb_sched_port_rate[port];',
    '\tmemset(p, 0, sizeof(*p));',
    '\tp->subport_profile.tb_rate = rate;',
    '\tp->subport_profile.tb_size = DCB_SCHED_TB_SIZE;',
    `\tp->subport_profile.tc_period = ${TC_PERIOD_MS};`,
    '\tp->pipe_profile.tb_rate = rate;',
    '\tp->pipe_profile.tb_size = DCB_SCHED_TB_SIZE;',
    `\tp->pipe_profile.tc_period = ${TC_PERIOD_MS};`,
    '\tp->pipe_profile.tc_ov_weight = 1;',
    '\tfor (int i = 0; i < RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE; i++) {',
    '\t\tp->subport_profile.tc_rate[i] = rate;',
    '\t\tp->pipe_profile.tc_rate[i] = dcb_sched_qsize[i] ? rate : 0;',
    '\t\tp->subport.qsize[i] = dcb_sched_qsize[i];',
    '\t}',
    '\tfor (int i = 0; i < RTE_SCHED_BE_QUEUES_PER_PIPE; i++)',
    '\t\tp->pipe_profile.wrr_weights[i] = dcb_sched_wrr_weights[i];',
    '\tp->subport.n_pipes_per_subport_enabled = 1;',
    '\tp->subport.pipe_profiles = &p->pipe_profile;',
    '\tp->subport.n_pipe_profiles = 1;',
    '\tp->subport.n_max_pipe_profiles = 1;',
    '\tp->subport.cman_params = NULL;',
    '\tp->port.name = name;',
    '\tp->port.socket = socket;',
    '\tp->port.rate = rate;',
    '\tp->port.mtu = DCB_SCHED_MTU;',
    '\tp->port.frame_overhead = DCB_SCHED_FRAME_OVERHEAD;',
    '\tp->port.n_subports_per_port = 1;',
    '\tp->port.subport_profiles = &p->subport_profile;',
    '\tp->port.n_subport_profiles = 1;',
    '\tp->port.n_max_subport_profiles = 1;',
    '\tp->port.n_pipes_per_subport = 1;',
    '\treturn 0;',
    '}',
    '',
    'struct rte_sched_port *dcb_sched_create(unsigned int port, const char *name, int socket)',
    '{',
    '\tstruct dcb_sched_params p;',
    '\tif (dcb_sched_fill(port, name, socket, &p) != 0)',
    '\t\treturn NULL;',
    '\tstruct rte_sched_port *sp = rte_sched_port_config(&p.port);',
    '\tif (sp == NULL)',
    '\t\treturn NULL;',
    '\tif (rte_sched_subport_config(sp, 0, &p.subport, 0) != 0 || rte_sched_pipe_config(sp, 0, 0, 0) != 0) {',
    '\t\trte_sched_port_free(sp);',
    '\t\treturn NULL;',
    '\t}',
    '\treturn sp;',
    '}',
    '',
  ];
  return L.join('\n');
}

function testpmd(ir: Ir, plan: DpdkPlan): string {
  const L = [
    '# rte_tm hierarchy for testpmd (feed on stdin: dpdk-testpmd ... -- -i --txq=N < tm.testpmd).',
    '# Generated by dcbkit codegen. Per port: a root with a shaper at the port rate, a node per',
    '# traffic class (strict TCs at priorities 0.., highest 802.1Qaz TC first; ETS TCs share the next',
    '# priority with weight = bw; 0 % ETS TCs the one after, weight 1), a leaf per TC = its TX queue.',
  ];
  for (const p of plan.ports) {
    const id = p.portId;
    L.push(`# port ${id}: ${p.name}, ${p.rateBytes} bytes/s`);
    L.push(`port stop ${id}`);
    L.push(`add port tm node shaper profile ${id} ${TM_SHAPER_PROFILE} 0 0 ${p.rateBytes} ${plan.tbSizeBytes} ${FRAME_OVERHEAD} 0`);
    L.push(`add port tm nonleaf node ${id} ${TM_ROOT_NODE} -1 0 1 0 ${TM_SHAPER_PROFILE} ${plan.tmPriorities} 0 0`);
    for (const t of plan.tcs) L.push(`add port tm nonleaf node ${id} ${TM_TC_NODE_BASE + t.tc.tc} ${TM_ROOT_NODE} ${t.tmPriority} ${t.tmWeight} 1 -1 1 0 0`);
    for (const t of plan.tcs) L.push(`add port tm leaf node ${id} ${t.tc.queue} ${TM_TC_NODE_BASE + t.tc.tc} 0 1 2 -1 0 ${TM_WRED_NONE} 0 0`);
    L.push(`port tm hierarchy commit ${id} yes`);
    L.push(`port start ${id}`);
  }
  return L.join('\n') + '\n';
}

function emit(ir: Ir, opts: EmitOptions = {}): Emitted {
  const plan = dpdkPlan(ir);
  const want = apis(opts);
  const quantisation: Quantisation[] = [];
  const files: Record<string, string> = {};
  if (want.includes('sched')) {
    const ets = plan.tcs.filter((t) => t.schedTc === SCHED_TC_BE);
    const total = ets.reduce((a, t) => a + t.tc.bwPercent, 0);
    ets.forEach((t, i) => {
      const wanted = (100 * t.tc.bwPercent) / total;
      const got = plan.fit!.sharesPercent[i];
      quantisation.push({
        target: 'dpdk',
        path: `ets.bw[${t.tc.tc}]`,
        quantity: `rte_sched WRR share of the ETS bandwidth (TC 12 queue ${t.schedQueue}, weight ${plan.wrrWeights[t.schedQueue]}, cost ${plan.fit!.costs[i]})`,
        wanted,
        got,
        unit: '%',
        error: got - wanted,
      });
    });
    for (const t of ir.tcs) {
      if (!t.used && t.tsa === 'ets' && t.bwPercent > 0) {
        quantisation.push({ target: 'dpdk', path: `ets.bw[${t.tc}]`, quantity: 'bandwidth of an ETS TC no priority maps to (it gets no rte_sched queue; the used ETS TCs share its part)', wanted: t.bwPercent, got: 0, unit: '%', error: -t.bwPercent });
      }
    }
    for (const p of plan.ports) {
      const speed = ir.ports[p.portId].speedBps;
      if (p.rateBytes * 8 !== speed) quantisation.push({ target: 'dpdk', path: `ports[${p.portId}].speed`, quantity: 'port rate in whole bytes/s', wanted: speed / 8, got: p.rateBytes, unit: 'B/s', error: p.rateBytes - speed / 8 });
    }
    for (const profile of [...new Set(plan.ports.map((p) => p.profile))]) {
      files[profile] = profileFile(ir, plan, plan.ports.find((p) => p.profile === profile)!.rateBytes);
    }
    files['dcb_sched.h'] = header(ir, plan);
    files['dcb_sched.c'] = source(ir, plan);
  }
  files['prio_map.json'] = prioMap(ir, plan);
  if (want.includes('tm')) files['tm.testpmd'] = testpmd(ir, plan);
  if (ir.tcs.some((t) => t.used && t.tsa === 'cbs')) {
    quantisation.push({ target: 'dpdk', path: 'ets.tsa', quantity: 'TSA cbs emitted as strict priority (rte_sched and rte_tm have no credit-based shaper)', wanted: 1, got: 0, unit: 'tsa', error: 0 });
  }
  return { files, quantisation };
}

export const dpdkTarget: CodegenTarget = { name: 'dpdk', check, emit };
