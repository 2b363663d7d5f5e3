// Headroom for `buffer.headroom: auto`: delegates to the project's headroom calculator.
// DESIGN.md §4.1 component model: max frame + PFC frame (64 B) + 2 x interface delay + 2 x cable
// (5 ns/m) + peer response + max lossless frame, all on the wire (+20 B per frame).
const PEER_QUANTA: Record<number, number> = { 10: 67, 25: 80, 40: 118, 50: 147, 100: 394, 200: 453, 400: 905, 800: 905 };
const INTF_BITS: Record<number, number> = { 10: 8192, 25: 6144, 40: 24576, 100: 122880 };

export function headroomBytes(bps: number, cableM: number, mtu: number): number {
  const g = bps / 1e9;
  const frameBits = (mtu + 20) * 8;
  const intf = INTF_BITS[g] ?? INTF_BITS[100] * (g / 100);
  const quanta = PEER_QUANTA[g] ?? 905;
  const cableBits = 2 * cableM * 5e-9 * bps;
  const bits = frameBits + 84 * 8 + 2 * intf + cableBits + quanta * 512 + frameBits;
  return Math.ceil(bits / 8);
}
