// One entry point for every frame kind dcbkit writes: decodeFrame dispatches on EtherType and
// MAC Control opcode; encodeFrame is its inverse (encodeFrame(decodeFrame(b)) equals b).
// LLDPDUs are decoded by host/dcbx/lldpdu.ts and reach here only as 'wrong_type'.
import { DecodeError, Reader } from './bytes.js';
import { appendFcs, fcsValid } from './fcs.js';
import { CN_TAG_ETHERTYPE, CNM_ETHERTYPE, VLAN_TPID, decodeCnm, encodeCnm, type CnmFrame } from './cnm.js';
import { decodeCeGrant, decodeCeSync, encodeCe, type CeGrantFrame, type CeSyncFrame } from './credit.js';
import { MAC_CONTROL_ETHERTYPE, OPCODE_CE_GRANT, OPCODE_CE_SYNC, OPCODE_PAUSE, OPCODE_PFC } from './macctrl.js';
import { decodePause, encodePause, type PauseFrame } from './pause.js';
import { decodePfc, encodePfc, type PfcFrame } from './pfc.js';

export type ControlFrame = PfcFrame | PauseFrame | CeSyncFrame | CeGrantFrame | CnmFrame;

export function encodeFrame(f: ControlFrame, opts: { fcs?: boolean } = {}): Uint8Array {
  let b: Uint8Array;
  switch (f.kind) {
    case 'pfc': b = encodePfc(f); break;
    case 'pause': b = encodePause(f); break;
    case 'ce-sync':
    case 'ce-grant': b = encodeCe(f); break;
    case 'cnm': b = encodeCnm(f); break;
  }
  return opts.fcs ? appendFcs(b) : b;
}

/** Removes and checks a trailing FCS (when the capture has one). */
export function stripFcs(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 4) throw new DecodeError('truncated', bytes.length, 'frame shorter than its FCS');
  if (!fcsValid(bytes)) throw new DecodeError('bad_fcs', bytes.length - 4, 'FCS does not match the frame');
  return bytes.subarray(0, bytes.length - 4);
}

export function decodeFrame(bytes: Uint8Array, opts: { fcs?: boolean } = {}): ControlFrame {
  const b = opts.fcs ? stripFcs(bytes) : bytes;
  const r = new Reader(b);
  const type = r.u16(12, 'EtherType');
  if (type === MAC_CONTROL_ETHERTYPE) {
    const op = r.u16(14, 'opcode');
    switch (op) {
      case OPCODE_PFC: return decodePfc(b);
      case OPCODE_PAUSE: return decodePause(b);
      case OPCODE_CE_SYNC: return decodeCeSync(b);
      case OPCODE_CE_GRANT: return decodeCeGrant(b);
    }
    throw new DecodeError('wrong_type', 14, `MAC Control opcode 0x${op.toString(16).padStart(4, '0')} is not one dcbkit knows`);
  }
  if (type === CNM_ETHERTYPE || type === VLAN_TPID || type === CN_TAG_ETHERTYPE) return decodeCnm(b);
  throw new DecodeError('wrong_type', 12, `EtherType 0x${type.toString(16).padStart(4, '0')} is not a frame dcbkit decodes`);
}

export { DecodeError } from './bytes.js';
export type { PfcFrame, PauseFrame, CeSyncFrame, CeGrantFrame, CnmFrame };
