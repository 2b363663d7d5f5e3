// Credit-exchange (CE) frames of the IBM credit-based link-level flow control proposal (Kamble et al. 2014):
// MAC Control EtherType 0x8808, opcode 0x0110 = request/sync, 0x0111 = grant. The proposal names
// the opcodes and the vectors but gives no byte layout; this one is ours (docs/frames.md), built
// like PFC so MAC Control parsers accept it, with InfiniBand-style absolute counters (docs/design.md §4.2):
//
//   16  channel id, u16 (tenant slice; 0 when channels are not used)
//   18  priority enable vector, u16: upper octet reserved 0; bit n = priority n carried
//   20+2n counter[n], u16, n = 0..7: sync = TBS (total blocks sent, mod 2^k);
//         grant = CL (absolute credit limit ABR + min(free, 2^(k-1)), mod 2^k)
//   36+2n request[n], u16 (sync only): units the sender asks for, 0 = none; zero in a grant
//   52  8 zero octets of pad (60 bytes without FCS)
// Values of priorities not enabled are kept as they are, so decode -> encode is lossless.
import { InputError } from '../errors/errors.js';
import { parseMac } from './bytes.js';
import { OPCODE_CE_GRANT, OPCODE_CE_SYNC, PARAMS, finishMacControl, listToBits, openMacControl, readEnableVector, startMacControl } from './macctrl.js';
import { checkPriorityList, checkU16, readTimes } from './pfc.js';

export interface CeSyncFrame {
  kind: 'ce-sync';
  dst: string;
  src: string;
  channel: number;
  enable: number[];
  /** TBS per priority 0..7. */
  tbs: number[];
  /** Requested credit units per priority 0..7 (0 = no request). */
  request: number[];
}

export interface CeGrantFrame {
  kind: 'ce-grant';
  dst: string;
  src: string;
  channel: number;
  enable: number[];
  /** Absolute credit limit CL per priority 0..7. */
  cl: number[];
}

function checkVector(v: readonly number[], path: string): void {
  if (v.length !== 8) throw new InputError({ path, rule: 'needs 8 values (priorities 0..7)' });
  v.forEach((x, n) => checkU16(x, `${path}[${n}]`));
}

export function encodeCe(f: CeSyncFrame | CeGrantFrame): Uint8Array {
  checkU16(f.channel, 'channel');
  checkPriorityList(f.enable, 'enable');
  const counters = f.kind === 'ce-sync' ? f.tbs : f.cl;
  const request = f.kind === 'ce-sync' ? f.request : new Array<number>(8).fill(0);
  checkVector(counters, f.kind === 'ce-sync' ? 'tbs' : 'cl');
  checkVector(request, 'request');
  const w = startMacControl(parseMac(f.dst, 'dst'), parseMac(f.src, 'src'), f.kind === 'ce-sync' ? OPCODE_CE_SYNC : OPCODE_CE_GRANT);
  w.u16(f.channel).u16(listToBits(f.enable));
  for (const c of counters) w.u16(c);
  for (const q of request) w.u16(q);
  return finishMacControl(w);
}

export function decodeCeSync(bytes: Uint8Array): CeSyncFrame {
  const { r, dst, src } = openMacControl(bytes, OPCODE_CE_SYNC, 'credit request/sync');
  const channel = r.u16(PARAMS, 'channel id');
  const enable = readEnableVector(r, PARAMS + 2);
  const tbs = readTimes(r, PARAMS + 4);
  const request = readTimes(r, PARAMS + 20);
  r.zeros(PARAMS + 36, bytes.length, 'CE pad');
  return { kind: 'ce-sync', dst, src, channel, enable, tbs, request };
}

export function decodeCeGrant(bytes: Uint8Array): CeGrantFrame {
  const { r, dst, src } = openMacControl(bytes, OPCODE_CE_GRANT, 'credit grant');
  const channel = r.u16(PARAMS, 'channel id');
  const enable = readEnableVector(r, PARAMS + 2);
  const cl = readTimes(r, PARAMS + 4);
  r.zeros(PARAMS + 20, bytes.length, 'CE grant request field and pad');
  return { kind: 'ce-grant', dst, src, channel, enable, cl };
}
