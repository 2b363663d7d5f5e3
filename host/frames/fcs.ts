// IEEE 802.3 clause 3.2.9 frame check sequence: CRC-32 (polynomial 0x04C11DB7, reflected 0xEDB88320,
// initial value and final XOR 0xFFFFFFFF) over destination address .. pad; sent least significant
// octet first, so the four FCS bytes of a capture are the CRC value little-endian.
const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The frame with its FCS appended (60 B minimum frame -> 64 B on the wire). */
export function appendFcs(frame: Uint8Array): Uint8Array {
  const out = new Uint8Array(frame.length + 4);
  out.set(frame);
  const c = crc32(frame);
  out[frame.length] = c & 0xff;
  out[frame.length + 1] = (c >>> 8) & 0xff;
  out[frame.length + 2] = (c >>> 16) & 0xff;
  out[frame.length + 3] = (c >>> 24) & 0xff;
  return out;
}

/** True when the last four bytes are the FCS of the rest. */
export function fcsValid(frameWithFcs: Uint8Array): boolean {
  if (frameWithFcs.length < 4) return false;
  const body = frameWithFcs.subarray(0, frameWithFcs.length - 4);
  const c = crc32(body);
  const t = frameWithFcs.length - 4;
  return (
    frameWithFcs[t] === (c & 0xff) &&
    frameWithFcs[t + 1] === ((c >>> 8) & 0xff) &&
    frameWithFcs[t + 2] === ((c >>> 16) & 0xff) &&
    frameWithFcs[t + 3] === ((c >>> 24) & 0xff)
  );
}
