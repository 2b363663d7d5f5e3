// IEEE 802.3 Annex 31B PAUSE frame (MAC Control opcode 0x0001): stops every data frame on the port.
//
// Parameters: offset 16 pause_time u16 in quanta of 512 bit times (0 = resume), then 42 zero
// octets of pad. The destination is 01-80-C2-00-00-01 or the peer's unicast MAC; both decode.
import { parseMac } from './bytes.js';
import { OPCODE_PAUSE, PARAMS, finishMacControl, openMacControl, startMacControl } from './macctrl.js';
import { checkU16 } from './pfc.js';

export interface PauseFrame {
  kind: 'pause';
  dst: string;
  src: string;
  time: number;
}

export function encodePause(f: PauseFrame): Uint8Array {
  checkU16(f.time, 'time');
  const w = startMacControl(parseMac(f.dst, 'dst'), parseMac(f.src, 'src'), OPCODE_PAUSE);
  w.u16(f.time);
  return finishMacControl(w);
}

export function decodePause(bytes: Uint8Array): PauseFrame {
  const { r, dst, src } = openMacControl(bytes, OPCODE_PAUSE, 'PAUSE');
  const time = r.u16(PARAMS, 'pause_time');
  r.zeros(PARAMS + 2, bytes.length, 'PAUSE pad');
  return { kind: 'pause', dst, src, time };
}
