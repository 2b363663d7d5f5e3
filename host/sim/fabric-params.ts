// Kernel parameters of the fabric engine's records: each port's PFC / PAUSE unit, credit receivers,
// PFC watchdog, congestion points and ETS scheduler, and each flow's QCN / DCQCN reaction and
// notification points, from its own node's config. The records follow each kernel's configure
// protocol (host/core/kernels/*: the host writes the config fields, simInit calls the kernel's configure).
//
// Reads: the scenario's nodes, ports and flows, and the watchdog poll groups of the arena plan.
// Writes: only the kernel fields of the port and flow records (SP_MODES, SP_PFC, SP_WD_*, SP_ETS,
// SP_CREDIT_AT, SP_CP_AT and the tables they point to; SF_RP, SF_NP); the records' other fields are fabric.ts's.
import { CONTROL_FRAME_BYTES, FC_CODE, WD_ACTION_CODE, WIRE_OVERHEAD } from '../core/codes.js';
import type { Core } from '../core/loader.js';
import { dcqcnKernelFields, NO_DCQCN_FIELDS, writeNpParams, writeRpParams, type RpParams } from '../core/kernels/qcn-rp.js';
import { PFC_UNIT_OFF, PORT_UNIT, writePfcParams, type PfcParams } from '../core/kernels/pfc.js';
import { writeCreditParams } from '../core/kernels/credit.js';
import { writeDcqcnCpParams, writeQcnCpParams } from '../core/kernels/qcn-cp.js';
import type { NormNode, Scenario } from '../scenario/scenario.js';
import type { QcnRpConfig } from '../config/types.js';
import type { L } from './fabric-plan.js';

/** Plain stores into the core's memory (the arena's records are written before simInit). */
export interface ArenaWriter {
  core: Core;
  w32(at: number, v: number): void;
  /** Whole picoseconds or bytes; MAX_SAFE_INTEGER and above mean "never" (the largest i64). */
  w64(at: number, v: number): void;
}

export function arenaWriter(core: Core): ArenaWriter {
  const i32 = core.i32;
  const i64 = core.i64;
  return {
    core,
    w32: (at, v) => { i32[at >>> 2] = v | 0; },
    w64: (at, v) => { i64[at >>> 3] = v >= Number.MAX_SAFE_INTEGER ? 0x7fffffffffffffffn : BigInt(Math.round(v)); },
  };
}

/**
 * The credit unit and aging period: fabric-wide (checkScenario requires every credit node to agree),
 * taken from the first credit node, else the first node.
 */
export function fabricCredit(scn: Scenario): { unitBytes: number; agingPs: number } {
  const node = scn.nodes.find((n) => n.modes.includes('credit')) ?? scn.nodes[0];
  return { unitBytes: node.dcb.creditUnit, agingPs: node.dcb.creditAgingPs };
}

/**
 * Which ports have a credit table (SP_CREDIT_AT) and a congestion-point table (SP_CP_AT), and where:
 * each port's slot in the table (-1: none), slots in port order.
 *
 * A credit table for a port with a credit priority at either end of its link: its own receivers and
 * senders, and the sender half a grant from its peer lands in (setup reads the peer's buffer too).
 * Congestion points for every switch port of a fabric with QCN priorities: only a switch's egress
 * queues sample and mark (assembly/sim/mmu.ts); a host's NIC has none.
 */
export interface PortKernelSlots { credit: Int32Array; cp: Int32Array; credits: number; cps: number }

export function portKernelSlots(scn: Scenario): PortKernelSlots {
  const credit = new Int32Array(scn.ports.length).fill(-1);
  const cp = new Int32Array(scn.ports.length).fill(-1);
  let credits = 0, cps = 0;
  const qcn = scn.qcn.enable && scn.qcn.priorities.length > 0;
  const creditNode = scn.nodes.map((n) => n.modes.includes('credit'));
  for (const p of scn.ports) {
    if (creditNode[p.node] || creditNode[p.peerNode]) credit[p.id] = credits++;
    if (qcn && !scn.nodes[p.node].isHost) cp[p.id] = cps++;
  }
  return { credit, cp, credits, cps };
}

/** Where the port records and their out-of-line kernel tables are (arena addresses). */
export interface PortTables { ports: number; credits: number; cps: number }

/**
 * Writes the kernel fields of `ports` into their records (L.SP_SIZE each) and their credit and
 * congestion-point tables (`slots`); wdPolls: the poll intervals' groups.
 *
 * A switch's ports mostly share one config, headroom and link speed, so their kernel records
 * (SP_ETS and SP_PFC, one contiguous block, and the tables, which only this function writes) come
 * out the same bytes: a port whose inputs equal those of the last port written for its node takes
 * that port's block and tables as copies instead of their 18 records' field writes (a 1-us k = 8
 * tree: 560 of 768 ports). The inputs: headroom, link speed and the port's DCB config (its own or its
 * node's); the rest follows from them: the congestion points from the DCB config with the scenario's
 * qcn (checkScenario nodeQcn), the credit buffer from the headroom (a switch's is its headroom; a host
 * has one port).
 */
export function writePortKernels(w: ArenaWriter, L: L, scn: Scenario, at: PortTables, slots: PortKernelSlots, wdPolls: readonly number[], ports: Scenario['ports']): void {
  const { core, w32, w64 } = w;
  const u8 = core.u8;
  const fabricWide = fabricCredit(scn);
  const creditAgingPs = BigInt(Math.round(fabricWide.agingPs));
  const dcqcn = scn.qcn.profile === 'dcqcn';
  const blockStart = L.SP_ETS;
  const blockEnd = L.SP_PFC + L.PFC_SIZE;
  const lastOfNode = new Map<NormNode, KernelInputs>();
  for (const p of ports) {
    const pa = at.ports + p.id * L.SP_SIZE;
    const creditAt = slots.credit[p.id] < 0 ? 0 : at.credits + slots.credit[p.id] * L.SP_CREDIT_TABLE;
    const cpAt = slots.cp[p.id] < 0 ? 0 : at.cps + slots.cp[p.id] * L.SP_CP_TABLE;
    w32(pa + L.SP_CREDIT_AT, creditAt);
    w32(pa + L.SP_CP_AT, cpAt);
    const node = scn.nodes[p.node];
    const k = node.ports.indexOf(p.id);
    const headroom = node.buffer ? node.buffer.headroom[k] : 0;
    const modes = node.modes.reduce((word, m, pr) => word | (FC_CODE[m] << (4 * pr)), 0);
    w32(pa + L.SP_MODES, modes);
    const wd = node.isHost ? null : node.watchdog;
    w32(pa + L.SP_WD_POLL, wd && wd.poll_interval > 0 ? wdPolls.indexOf(wd.poll_interval) : -1);
    w32(pa + L.SP_WD_ACTION, wd ? WD_ACTION_CODE[wd.action] : 0);
    w64(pa + L.SP_WD_DETECT, wd?.detection_time ?? 0); w64(pa + L.SP_WD_RESTORE, wd?.restoration_time ?? 0);
    const writeCredit = () => {
      // The credit receiver's buffer: the port's headroom (about one round trip, Reinemo et al. 2010), hosts alike.
      const crBytes = node.buffer ? headroom : hostCreditBytes(p, node.dcb.mtu);
      const credit = { k: L.SIM_CREDIT_BITS, unitBytes: fabricWide.unitBytes, capacityUnits: Math.floor(crBytes / node.dcb.creditUnit), agingPs: creditAgingPs };
      for (let pr = 0; pr < 8; pr++) writeCreditParams(core, creditAt + pr * L.CREDIT_SIZE, credit);
    };
    const writeCps = () => {
      const cp = p.qcn;
      const dcqcnCp = dcqcn ? { kmin: cp.kmin, kmax: cp.kmax, pmax_q16: Math.round((cp.pmax * 65536) / 100) } : null;
      for (let tc = 0; tc < 8; tc++) {
        const rec = cpAt + tc * L.QCN_CP_SIZE;
        if (dcqcnCp) writeDcqcnCpParams(core, rec, dcqcnCp);
        else writeQcnCpParams(core, rec, cp);
      }
    };
    const last = lastOfNode.get(node);
    if (last && last.headroom === headroom && last.psPerByte === p.psPerByte && last.dcb === p.dcb) {
      u8.copyWithin(pa + blockStart, last.at + blockStart, last.at + blockEnd);
      // A switch port toward a credit host has a credit table where its neighbours may have none.
      if (creditAt !== 0 && last.creditAt !== 0) u8.copyWithin(creditAt, last.creditAt, last.creditAt + L.SP_CREDIT_TABLE);
      else if (creditAt !== 0) { writeCredit(); last.creditAt = creditAt; }
      if (cpAt !== 0 && last.cpAt !== 0) u8.copyWithin(cpAt, last.cpAt, last.cpAt + L.SP_CP_TABLE);
      else if (cpAt !== 0) { writeCps(); last.cpAt = cpAt; }
      continue;
    }
    lastOfNode.set(node, { at: pa, creditAt, cpAt, headroom, psPerByte: p.psPerByte, dcb: p.dcb });
    // PFC from the node's modes, thresholds and pause time with this port's headroom; the port's
    // own credit receivers, congestion points and ETS.
    writePfcParams(core, pa + L.SP_PFC, pfcParamsOf(node, headroom, p.psPerByte));
    if (creditAt !== 0) writeCredit();
    if (cpAt !== 0) writeCps();
    const ets = pa + L.SP_ETS;
    for (let x = 0; x < 8; x++) {
      u8[ets + L.ETS_PRIO_TC + x] = p.dcb.prioTc[x];
      u8[ets + L.ETS_TSA + x] = p.dcb.tsa[x];
      u8[ets + L.ETS_BW + x] = p.dcb.bw[x];
    }
  }
}

/** What a port's kernel block and tables are written from, and where they were last written for the node (writePortKernels). */
interface KernelInputs {
  at: number;
  /** The node's last credit table and congestion-point table written or copied from (0: none yet). */
  creditAt: number;
  cpAt: number;
  headroom: number;
  psPerByte: number;
  dcb: Scenario['ports'][number]['dcb'];
}

/** Writes every flow's reaction point (its source's qcn.rp) and, toward a DCQCN receiver, its notification point. */
export function writeFlowKernels(w: ArenaWriter, L: L, scn: Scenario, flowsAt: number): void {
  for (const f of scn.flows) {
    const fa = flowsAt + f.id * L.SF_SIZE;
    const srcPort = scn.ports[scn.nodes[f.src].ports[0]];
    writeRpParams(w.core, fa + L.SF_RP, rpParamsOf(scn.nodes[f.src].qcn.rp, Math.min(srcPort.bps, Number.MAX_SAFE_INTEGER), L));
    const np = scn.nodes[f.dst].qcn.rp;
    if (np.profile === 'dcqcn') writeNpParams(w.core, fa + L.SF_NP, np.cnp_interval_ps);
  }
}

/**
 * Reaction-point parameters of a flow from its source host's qcn.rp (docs/config.md), which
 * checkScenario gave the fabric's profile; simInit then calls the kernels' configure
 * (host/core/kernels/qcn-rp.ts). Fields of the other profile are 0.
 */
function rpParamsOf(rp: QcnRpConfig, lineBps: number, L: L): RpParams {
  const common = { line_bps: lineBps, bc_bytes: rp.bc_bytes, timer_ps: rp.timer_ps, th: rp.th, ai_bps: rp.ai_bps, hai_bps: rp.hai_bps, min_bps: rp.min_bps };
  if (rp.profile === 'qau-pc') {
    const flags = (rp.extra_fast_recovery ? L.QCN_RP_F_EXTRA_FR : 0) | L.QCN_RP_F_JITTER | L.QCN_RP_F_HALVING;
    return { profile: 'qau-pc', ...common, gd_shift: rp.gd_shift, min_dec_num: rp.min_dec_num, flags, ...NO_DCQCN_FIELDS };
  }
  return { profile: 'dcqcn', ...common, ...dcqcnKernelFields(rp, (name) => L[name]) };
}

/**
 * PFC parameters of a port of `node`: the kernel's mode from the node's per-priority modes (PAUSE
 * when any priority uses it, else PFC when any does), its PFC priorities, and the node's XOFF / XON
 * thresholds with this port's headroom on the flow-controlled units (unit 8 in PAUSE mode, else each
 * PFC priority); the other units take no part.
 */
function pfcParamsOf(node: NormNode, headroom: number, psPerByte: number): PfcParams {
  const mode = node.modes.includes('pause') ? 'pause' : node.modes.includes('pfc') ? 'pfc' : 'off';
  const enable = [0, 1, 2, 3, 4, 5, 6, 7].filter((pr) => node.modes[pr] === 'pfc');
  // A host has no ingress buffer to account, so none of its units takes part.
  const buffer = node.buffer;
  const controlled = buffer === null ? [] : mode === 'pause' ? [PORT_UNIT] : enable;
  const units = Array.from({ length: PORT_UNIT + 1 }, (_, u) => buffer !== null && controlled.includes(u)
    ? { xoff: buffer.xoff, xon: buffer.xon, headroom }
    : PFC_UNIT_OFF);
  return {
    mode, enable, pauseTime: node.dcb.pauseTime, speedBps: 8_000_000_000_000n / BigInt(psPerByte),
    xoff: units.map((x) => x.xoff), xon: units.map((x) => x.xon), headroom: units.map((x) => x.headroom),
  };
}

function hostCreditBytes(p: { bps: number; delay_ps: number; psPerByte: number }, mtu: number): number {
  // One round trip of the link plus two maximum frames, the credit-FC buffer rule (Reinemo et al. 2010).
  return Math.ceil((2 * p.delay_ps) / p.psPerByte) + 2 * (mtu + WIRE_OVERHEAD) + 2 * (CONTROL_FRAME_BYTES + WIRE_OVERHEAD);
}
