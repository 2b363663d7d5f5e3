// LLDP target: the LLDPDU each port advertises (IEEE 802.1AB framing with the 802.1Qaz ETS-CFG,
// ETS-REC, PFC and APP TLVs, or CEE DCBX 1.01, plus the CET TLV when credit flow control is on),
// as lldp/lldpdu.pcap (one frame per port, one second apart) and lldp/lldpdu.hex (one line per
// frame). The TLVs are built and encoded by the project's DCBX codec (host/dcbx/), fed from the
// IR, so this target and `dcbkit dcbx encode` can never disagree on the bytes.
import type { Ir } from './ir.js';
import type { CodegenTarget, Emitted } from './target.js';
import { problem } from './target.js';
import type { Problem } from '../host/errors/errors.js';
import { advertisingProblems, ceeLldpdu, ieeeLldpdu, type DcbxPortConfig } from '../host/dcbx/advertise.js';
import { encodeLldpdu } from '../host/dcbx/lldpdu.js';
import { writePcap } from '../host/capture/pcap.js';

/** One second between frames in the capture, in picoseconds. */
const FRAME_GAP_PS = 1_000_000_000_000n;

/** The DCBX view of the IR for one port (what host/dcbx/ advertises). */
export function dcbxPortConfig(ir: Ir, portName: string): DcbxPortConfig {
  const rec = ir.ets.recommendation;
  return {
    port: { name: portName, mac: ir.mac },
    ets: {
      willing: ir.ets.willing,
      cbs: ir.ets.cbs,
      max_tcs: ir.ets.maxTcs,
      prio_tc: [...ir.prioTc],
      tsa: ir.tcs.map((t) => t.tsa),
      bw: ir.tcs.map((t) => t.bwPercent),
      ...(rec ? { recommendation: { prio_tc: [...rec.prioTc], tsa: [...rec.tsa], bw: [...rec.bwPercent] } } : {}),
    },
    pfc: { enable: ir.pfc.enabled.flatMap((on, p) => (on ? [p] : [])), willing: ir.pfc.willing, mbc: ir.pfc.mbc, cap: ir.pfc.cap },
    app: ir.app.map((a) => ({ selector: a.selectorCode, protocol: a.protocol, priority: a.priority })),
    ...(ir.pg ? { pg: { ...ir.pg } } : {}),
    ...(ir.credit ? { credit: { ...ir.credit } } : {}),
  };
}

function check(ir: Ir): Problem[] {
  // No IR problem (queues, PGs, buffer) concerns what is advertised; only the codec's own rules do.
  return advertisingProblems(dcbxPortConfig(ir, ir.ports[0].name), ir.dcbxMode).map((p) => problem('lldp', p.path, p.rule));
}

export function lldpFrames(ir: Ir): Uint8Array[] {
  return ir.ports.map((port) => {
    const cfg = dcbxPortConfig(ir, port.name);
    const pdu = ir.dcbxMode === 'cee' ? ceeLldpdu(cfg, { seq: 1, ack: 0, pgError: false, pfcError: false, appError: false }) : ieeeLldpdu(cfg);
    return encodeLldpdu(pdu);
  });
}

function emit(ir: Ir): Emitted {
  const frames = lldpFrames(ir);
  const hex = frames.map((f) => Buffer.from(f).toString('hex')).join('\n') + '\n';
  const pcap = writePcap(frames.map((data, i) => ({ t_ps: BigInt(i) * FRAME_GAP_PS, data })));
  return { files: { 'lldpdu.pcap': pcap, 'lldpdu.hex': hex }, quantisation: [] };
}

export const lldpTarget: CodegenTarget = { name: 'lldp', check, emit };
