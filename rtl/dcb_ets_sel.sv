// IEEE 802.1Qaz-2011 clause 37.3 (802.1Q-2018 §8.6.8) Enhanced Transmission Selection: one
// selection per clock over the 8 traffic classes of an egress port, written from docs/ets.md.
//
//   1. Strict TCs (TSA strict or cbs) first, the highest TC number first.
//   2. The ETS TCs share the rest by deficit round robin over an 8-bit candidate mask, in ascending
//      TC order from the TC after the one whose visit ended. quantum_i = bw_i * Q with
//      Q = ceil(max_wire / min non-zero bw), so a visit's first frame always fits: a selection is a
//      cyclic first-one search, never a loop over under-funded TCs.
//   3. ETS TCs with 0 % are candidates only when no weighted TC is backlogged and unblocked.
//   4. A TC leaving its visit keeps at most max_wire - 1 bytes of deficit; a TC whose queue
//      empties keeps none (its deficit is reset).
// Blocked (PFC-paused) TCs are not eligible; the selection is work conserving over the rest.
//
// Configuration (cfg_*) is quasi-static: the quanta and masks are derived in software (the
// configure step of the C model / core, or the vectors' config.memh), and a cfg_load pulse resets
// the DRR state (every deficit 0, cur = 7, so TC 0 is visited first).
// Per clock with sel_req: sel_found / sel_tc say, combinationally, which TC sends its head frame;
// at the clock edge the DRR state moves on (a DRR TC is charged head_wire, the wire size of its
// head frame = frame + 20). head_last[t] = 1 says TC t's head frame is its last, so the TC's
// deficit is reset when it is selected.
// State: cur (3 bits) and deficit[8]. Invariants (docs/ets.md): deficit[i] < quantum[i] + max_wire,
// and deficit[i] < max_wire for every TC but cur.
// Per-TC values travel as flat vectors, TC t in bits [t*W +: W] (Verilog-2005 style, which every
// synthesis tool reads; Yosys 0.23 takes no multi-dimensional packed arrays).
module dcb_ets_sel #(
    parameter int WIRE_W = 16,  // wire bytes of one frame (max_wire < 2^WIRE_W)
    parameter int DEF_W  = 24   // deficit and quantum (quantum + max_wire < 2^DEF_W)
) (
    input  logic                         clk,
    input  logic                         rst_n,
    input  logic                         cfg_load,
    input  logic [7:0]                   cfg_strict_mask,
    input  logic [7:0]                   cfg_weighted_mask,
    input  logic [7:0]                   cfg_zero_mask,
    input  logic [WIRE_W-1:0]            cfg_max_wire,
    input  logic [8*DEF_W-1:0]           cfg_quantum,
    input  logic                         sel_req,
    input  logic [7:0]                   backlog,
    input  logic [7:0]                   blocked,
    input  logic [8*WIRE_W-1:0]          head_wire,
    input  logic [7:0]                   head_last,
    output logic                         sel_found,
    output logic [2:0]                   sel_tc,
    output logic [2:0]                   cur,
    output logic [8*DEF_W-1:0]           deficit
);
  logic [7:0] eligible, strict, cand;
  logic [2:0] strict_tc, next_tc;
  logic       drr, stay;
  logic [DEF_W-1:0] cur_deficit, cur_head, capped, cap, next_old, next_quantum, next_head, next_deficit, d;
  logic [8*DEF_W-1:0] deficit_next;
  logic [2:0] cur_next;

  // Reads of the TC in its visit (cur) and of the next candidate are one-hot selections over the
  // eight TCs, and each deficit is written by its own comparison with cur / next / sel_tc: a mux
  // per TC instead of a shifter over the whole vector.
  always_comb begin
    eligible = backlog & ~blocked;
    strict   = eligible & cfg_strict_mask;
    cand     = eligible & cfg_weighted_mask;
    if (cand == 8'd0) cand = eligible & cfg_zero_mask;
    // highest strict TC: the last set bit found upwards
    strict_tc = 3'd0;
    for (int i = 0; i < 8; i++) if (strict[i]) strict_tc = 3'(i);
    // first candidate after cur, cyclically: the first one found from cur + 1 upwards, wrapping
    next_tc = cur;
    for (int i = 8; i >= 1; i--) if (cand[3'(32'(cur) + i)]) next_tc = 3'(32'(cur) + i);
    cur_deficit  = '0;
    cur_head     = '0;
    next_old     = '0;
    next_quantum = '0;
    next_head    = '0;
    for (int t = 0; t < 8; t++) begin  // AND-OR over one-hot selects: a balanced tree, not a chain
      cur_deficit  = cur_deficit | ({DEF_W{3'(t) == cur}} & deficit[t*DEF_W+:DEF_W]);
      cur_head     = cur_head | ({DEF_W{3'(t) == cur}} & DEF_W'(head_wire[t*WIRE_W+:WIRE_W]));
      next_old     = next_old | ({DEF_W{3'(t) == next_tc}} & deficit[t*DEF_W+:DEF_W]);
      next_quantum = next_quantum | ({DEF_W{3'(t) == next_tc}} & cfg_quantum[t*DEF_W+:DEF_W]);
      next_head    = next_head | ({DEF_W{3'(t) == next_tc}} & DEF_W'(head_wire[t*WIRE_W+:WIRE_W]));
    end
    stay   = cand[cur] && cur_head <= cur_deficit;
    cap    = DEF_W'(cfg_max_wire) - 1'b1;
    capped = cur_deficit < cap ? cur_deficit : cap;
    // the next TC's deficit after cur's visit ends (cur's own, capped, when it is the only candidate)
    next_deficit = (next_tc == cur ? capped : next_old) + next_quantum - next_head;

    drr       = strict == 8'd0 && cand != 8'd0;
    sel_found = strict != 8'd0 || cand != 8'd0;
    sel_tc    = strict != 8'd0 ? strict_tc : stay ? cur : next_tc;
    cur_next  = drr ? sel_tc : cur;
    for (int t = 0; t < 8; t++) begin
      d = deficit[t*DEF_W+:DEF_W];
      if (drr && 3'(t) == cur) d = stay ? cur_deficit - cur_head : capped;  // the visit goes on, or ends
      if (drr && !stay && 3'(t) == next_tc) d = next_deficit;               // the next TC is funded
      if (sel_found && head_last[t] && 3'(t) == sel_tc) d = '0;              // its queue empties
      deficit_next[t*DEF_W+:DEF_W] = d;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      cur     <= 3'd7;
      deficit <= '0;
    end else if (cfg_load) begin
      cur     <= 3'd7;
      deficit <= '0;
    end else if (sel_req) begin
      cur     <= cur_next;
      deficit <= deficit_next;
    end
  end
endmodule
