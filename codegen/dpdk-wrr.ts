// rte_sched best-effort WRR weights for 802.1Qaz ETS shares (DPDK 22.11, lib/sched/rte_sched.c).
//
// What rte_sched does with the four `uint8_t wrr_weights` of a pipe profile:
//  - rte_sched_pipe_profile_convert: lcd = lcm(lcm(w0, w1), lcm(w2, w3)); cost_i = lcd / w_i, stored
//    as uint8_t (a cost above 255 is truncated, silently);
//  - grinder_schedule: after each frame of queue i, tokens_i += cost_i x (pkt_len + frame_overhead)
//    in a uint16_t (a sum above 65535 wraps, silently); grinder_wrr then sends from the queue with the
//    fewest tokens and subtracts that minimum from all.
// So while every cost is <= 255 and cost x largest wire frame <= 65535, saturated queue i gets the
// wire-byte share (1/cost_i) / sum_j (1/cost_j); pipe_profile_check rejects only zero weights.
// Measured with the real library (docs/codegen.md, "dpdk"): 50/30/20 as weights 5/3/2 with 9216-B
// frames (cost 15, 15 x 9236 > 65535) gives 9.5/19.7/70.8 %.
//
// The search: C = min(255, floor(65535 / largest wire frame)) is the largest safe cost. A TC with a
// larger share never needs a larger cost (swapping two costs that are the wrong way round moves
// both shares between the two old errors, so the worse error does not grow), so the search walks cost vectors 1..C that rise as the shares fall: all of
// them when there are at most EXHAUSTIVE_VECTORS (always at MTU 1500 and above, C <= 43), else,
// for each cost k of the largest-share TC, the integers nearest k x share_top / share_i for the
// others. The weights are lcm(costs) / cost_i (costs reduced by their gcd first). A vector is kept
// when every weight is 1..255 and the costs rte_sched derives from the four weights (the idle
// queues get the largest weight, which leaves the lcm alone) are all safe. The smallest worst-case
// share error wins; ties go to the smaller largest cost, then the first found, so the result is a
// pure function of the shares and the frame size.

export const BE_QUEUES = 4;
export const WRR_WEIGHT_MAX = 255;
export const WRR_COST_MAX = 255;
export const WRR_TOKEN_MAX = 65535;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const lcm = (a: number, b: number): number => (a / gcd(a, b)) * b;

/** The costs rte_sched_pipe_profile_convert derives from four weights (before its uint8_t cast). */
export function rteWrrCosts(weights: readonly number[]): number[] {
  const lcd = lcm(lcm(weights[0], weights[1]), lcm(weights[2], weights[3]));
  return weights.map((w) => lcd / w);
}

/** The largest cost whose token charge for one largest frame fits the 16-bit counter (and the 8-bit field). */
export function maxSafeCost(maxWireBytes: number): number {
  return Math.min(WRR_COST_MAX, Math.floor(WRR_TOKEN_MAX / maxWireBytes));
}

/** Wire-byte shares in percent of saturated queues with these costs. */
export function wrrShares(costs: readonly number[]): number[] {
  const inv = costs.map((c) => 1 / c);
  const sum = inv.reduce((a, b) => a + b, 0);
  return inv.map((x) => (100 * x) / sum);
}

/** The four weights for `used` (one per ETS TC, in queue order); the idle queues repeat the largest. */
export function padWeights(used: readonly number[]): number[] {
  const fill = used.length ? Math.max(...used) : 1;
  return [...used, ...Array(BE_QUEUES - used.length).fill(fill)];
}

export interface WrrFit {
  /** One weight per ETS TC, in the order given. */
  weights: number[];
  /** rte_sched's cost of each of those queues. */
  costs: number[];
  /** Wire-byte share of each, in percent, when all are backlogged. */
  sharesPercent: number[];
  /** max |share - wanted| in percentage points. */
  maxErrorPp: number;
  /** The largest safe cost at this frame size. */
  costLimit: number;
}

function evaluate(costsIn: number[], wanted: readonly number[], limit: number): WrrFit | null {
  const g = costsIn.reduce(gcd);
  const costs = costsIn.map((c) => c / g);
  const m = costs.reduce(lcm);
  const weights = costs.map((c) => m / c);
  if (weights.some((w) => w > WRR_WEIGHT_MAX)) return null;
  const rte = rteWrrCosts(padWeights(weights)).slice(0, weights.length);
  if (rte.some((c) => c > limit)) return null;
  const sharesPercent = wrrShares(rte);
  const maxErrorPp = Math.max(...sharesPercent.map((s, i) => Math.abs(s - wanted[i])));
  return { weights, costs: rte, sharesPercent, maxErrorPp, costLimit: limit };
}

/** Sorted cost vectors walked exhaustively up to this many (C(C + n - 1, n) of them). */
export const EXHAUSTIVE_VECTORS = 200_000;

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/**
 * Weights for ETS shares `wantedPercent` (one per TC, each > 0, at most four; they need not sum to
 * 100: shares are relative) that rte_sched holds without overflow at wire frames up to `maxWireBytes`.
 */
export function fitWrrWeights(wantedPercent: readonly number[], maxWireBytes: number): WrrFit {
  const n = wantedPercent.length;
  if (n === 0 || n > BE_QUEUES || wantedPercent.some((w) => !(w > 0))) throw new RangeError('fitWrrWeights wants 1..4 positive shares');
  const total = wantedPercent.reduce((a, b) => a + b, 0);
  const wanted = wantedPercent.map((w) => (100 * w) / total);
  const limit = maxSafeCost(maxWireBytes);
  // TCs by falling share (ties by position): costs rise along this order.
  const order = wanted.map((_, i) => i).sort((a, b) => wanted[b] - wanted[a] || a - b);
  let best: WrrFit | null = evaluate(Array(n).fill(1), wanted, limit);
  const consider = (costs: number[]) => {
    // Reduced by their gcd, the costs are rte_sched's own (lcm of the weights lcm(c)/c_i is lcm(c)),
    // so the shares follow from them directly: only a vector at least as good as the best so far
    // is checked in full.
    let inv = 0;
    for (let i = 0; i < n; i++) inv += 1 / costs[i];
    let err = 0;
    for (let i = 0; i < n; i++) err = Math.max(err, Math.abs(100 / costs[i] / inv - wanted[i]));
    if (err > best!.maxErrorPp + 1e-9) return;
    const fit = evaluate(costs, wanted, limit);
    if (!fit) return;
    const b = best!;
    if (fit.maxErrorPp < b.maxErrorPp - 1e-12 || (Math.abs(fit.maxErrorPp - b.maxErrorPp) <= 1e-12 && Math.max(...fit.costs) < Math.max(...b.costs))) best = fit;
  };
  const pick: number[] = Array(n).fill(1);
  if (binomial(limit + n - 1, n) <= EXHAUSTIVE_VECTORS) {
    const walk = (j: number, from: number) => {
      if (j === n) return consider([...pick]);
      for (let c = from; c <= limit; c++) {
        pick[order[j]] = c;
        walk(j + 1, c);
      }
    };
    walk(0, 1);
    return best!;
  }
  const top = order[0];
  for (let k = 1; k <= limit; k++) {
    const options = wanted.map((w, i) => {
      if (i === top) return [k];
      const ideal = (k * wanted[top]) / w;
      const near = [Math.floor(ideal) - 1, Math.floor(ideal), Math.ceil(ideal), Math.ceil(ideal) + 1].map((c) => Math.min(limit, Math.max(1, c)));
      return [...new Set(near)];
    });
    const walk = (i: number) => {
      if (i === n) return consider([...pick]);
      for (const c of options[i]) {
        pick[i] = c;
        walk(i + 1);
      }
    };
    walk(0);
  }
  // Equal weights (all costs 1) are always valid, so `best` is set.
  return best!;
}
