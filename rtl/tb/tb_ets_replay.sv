// Replays `dcbkit vectors ets --format memh` vectors through dcb_ets_sel, one event per clock, and
// compares every field of every expected line (docs/rtl.md). Runs under Verilator (--binary
// --timing) and Icarus Verilog (-g2012). The testbench keeps the per-TC FIFOs of frame sizes, as the
// host does for the core; the DUT owns the DRR state. Fields are read with the package's _LSB / _W
// part-selects (portable to simulators without variable indexing of packed struct members). The
// package's STIMULUS_COUNT / EXPECTED_COUNT size the memories; a word that did not load (X) or a
// set with no words fails.
//   +vectors=DIR   directory with config.memh, stimulus.memh, expected.memh (default: .)
//   DCBKIT_REGS defined: the DUT's configuration comes from the register image (dcb_regs_pkg's
//   DCB_REGS_IMAGE through dcb_regs_ets_cfg) instead of config.memh
// Prints "RESULT PASS <lines>" or "RESULT FAIL <mismatches>"; a failure also ends with $fatal.
module tb_ets_replay #(
    parameter int FIFO_DEPTH = 1024  // frames a TC may hold
);
  import dcbkit_ets_pkg::*;
  localparam int WORDS = EXPECTED_COUNT > 0 ? EXPECTED_COUNT : 1;
  localparam int OVERHEAD = 20;  // preamble + SFD + IFG: wire bytes beyond the frame

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk <= ~clk;

  logic [CONFIG_BITS-1:0] cfg_mem[1];
  logic [STIMULUS_BITS-1:0] stim_mem[WORDS];
  logic [EXPECTED_BITS-1:0] exp_mem[WORDS];
  /* verilator lint_off UNUSEDSIGNAL */  // the _valid bits the events imply are not read
  logic [CONFIG_BITS-1:0] cfg;  // (with DCBKIT_REGS the image replaces it)
  logic [STIMULUS_BITS-1:0] s;
  logic [EXPECTED_BITS-1:0] e;
  /* verilator lint_on UNUSEDSIGNAL */

  logic cfg_load = 1'b0, sel_req = 1'b0;
  logic [7:0] backlog, blocked = 8'd0, head_last;
  logic [7:0][15:0] head_wire;
  logic sel_found;
  logic [2:0] sel_tc, cur;
  logic [7:0][23:0] deficit;
  // the DUT's configuration: from config.memh, or from the register image
  logic [7:0] strict_mask, weighted_mask, zero_mask;
  logic [15:0] max_wire;
  logic [8*24-1:0] quantum;
  logic [8*3-1:0] prio_tc;
`ifdef DCBKIT_REGS
  dcb_regs_ets_cfg #(.WIRE_W(16), .DEF_W(24)) regs (.strict_mask, .weighted_mask, .zero_mask, .max_wire, .quantum, .prio_tc);
`else
  always_comb begin
    strict_mask = cfg[CFG_STRICT_MASK_LSB+:8];
    weighted_mask = cfg[CFG_WEIGHTED_MASK_LSB+:8];
    zero_mask = cfg[CFG_ZERO_MASK_LSB+:8];
    max_wire = cfg[CFG_MAX_WIRE_LSB+:16];
    for (int t = 0; t < 8; t++) begin
      quantum[t*24+:24] = cfg[CFG_QUANTUM_LSB+t*CFG_QUANTUM_W+:24];
      prio_tc[t*3+:3] = cfg[CFG_PRIO_TC_LSB+t*CFG_PRIO_TC_W+:3];
    end
  end
`endif

  dcb_ets_sel #(.WIRE_W(16), .DEF_W(24)) dut (
      .clk, .rst_n, .cfg_load,
      .cfg_strict_mask(strict_mask), .cfg_weighted_mask(weighted_mask),
      .cfg_zero_mask(zero_mask), .cfg_max_wire(max_wire), .cfg_quantum(quantum),
      .sel_req, .backlog, .blocked, .head_wire, .head_last,
      .sel_found, .sel_tc, .cur, .deficit);

  // host FIFOs: frame bytes per TC
  int unsigned fifo[8][FIFO_DEPTH];
  int unsigned head[8], count[8];
  int errors = 0;

  task automatic check(input int line, input string field, input longint got, input longint want);
    if (got != want) begin
      errors++;
      if (errors <= 20) $display("MISMATCH line %0d %s: got %0d, expected %0d", line, field, got, want);
    end
  endtask

  // the DUT's view of the FIFOs: called after every change (not always_comb: Icarus 11 cannot
  // make an array read sensitive)
  task automatic show_queues;
    for (int t = 0; t < 8; t++) begin
      backlog[t]   = count[t] != 0;
      head_wire[t] = count[t] != 0 ? 16'(fifo[t][head[t]] + OVERHEAD) : 16'd0;
      head_last[t] = count[t] == 1;
    end
  endtask

  string dir;
  int compared = 0, stype, prio;
  logic [2:0] tc;
  logic got_valid;
  int got_tc, got_bytes;

  initial begin
    if (!$value$plusargs("vectors=%s", dir)) dir = ".";
    if (STIMULUS_COUNT != EXPECTED_COUNT) $fatal(1, "ets vectors have one line per event");
    for (int t = 0; t < 8; t++) begin
      head[t] = 0;
      count[t] = 0;
    end
    $readmemh({dir, "/config.memh"}, cfg_mem);
    if (EXPECTED_COUNT > 0) begin
      $readmemh({dir, "/stimulus.memh"}, stim_mem, 0, STIMULUS_COUNT - 1);
      $readmemh({dir, "/expected.memh"}, exp_mem, 0, EXPECTED_COUNT - 1);
    end
    cfg = cfg_mem[0];
    show_queues();
    @(negedge clk);
    rst_n = 1'b1;
    cfg_load = 1'b1;
    @(negedge clk);
    cfg_load = 1'b0;
    for (int i = 0; i < EXPECTED_COUNT; i++) begin
      s = stim_mem[i];
      e = exp_mem[i];
      if ($isunknown(s) || $isunknown(e)) begin  // a short or missing .memh file leaves X words
        $display("RESULT FAIL word %0d of %s did not load", i, $isunknown(e) ? "expected.memh" : "stimulus.memh");
        $fatal(1, "vectors shorter than the package says");
      end
      stype = int'(s[STIM_TYPE_LSB+:STIM_TYPE_W]);
      sel_req = stype == int'(STIM_TYPE_TX);
      #1;  // the selection settles
      got_valid = 1'b0;
      got_tc = 0;
      got_bytes = 0;
      if (stype == int'(STIM_TYPE_ENQ)) begin
        prio = int'(s[STIM_PRIO_LSB+:3]);
        got_valid = 1'b1;
        got_tc = int'(prio_tc[prio*3+:3]);
        got_bytes = int'(s[STIM_BYTES_LSB+:16]);
      end else if (stype == int'(STIM_TYPE_TX) && sel_found) begin
        got_valid = 1'b1;
        got_tc = int'(sel_tc);
        got_bytes = int'(fifo[sel_tc][head[sel_tc]]);
      end
      @(posedge clk);
      #1;  // after the DUT's clock edge: the host's FIFOs and blocked set follow the event
      tc = 3'(got_tc);
      if (stype == int'(STIM_TYPE_ENQ)) begin
        if (count[tc] == FIFO_DEPTH) $fatal(1, "a TC holds more than FIFO_DEPTH frames");
        fifo[tc][(head[tc]+count[tc])%FIFO_DEPTH] = got_bytes;
        count[tc]++;
      end else if (stype == int'(STIM_TYPE_TX) && got_valid) begin
        head[tc] = (head[tc] + 1) % FIFO_DEPTH;
        count[tc]--;
      end else if (stype == int'(STIM_TYPE_BLOCK)) begin
        blocked = s[STIM_TCS_LSB+:8];
      end
      show_queues();
      check(i, "type", longint'(stype), longint'(e[EXP_TYPE_LSB+:EXP_TYPE_W]));
      check(i, "tc_valid", longint'(got_valid), longint'(e[EXP_TC_VALID_LSB]));
      if (e[EXP_TC_VALID_LSB]) check(i, "tc", longint'(got_tc), longint'(e[EXP_TC_LSB+:3]));
      check(i, "bytes", longint'(got_bytes), longint'(e[EXP_BYTES_LSB+:16]));
      check(i, "cur", longint'(cur), longint'(e[EXP_CUR_LSB+:3]));
      for (int t = 0; t < 8; t++) begin
        check(i, $sformatf("deficit[%0d]", t), longint'(deficit[t]), longint'(e[EXP_DEFICIT_LSB+t*EXP_DEFICIT_W+:24]));
        check(i, $sformatf("queued_frames[%0d]", t), longint'(count[t]), longint'(e[EXP_QUEUED_FRAMES_LSB+t*EXP_QUEUED_FRAMES_W+:32]));
      end
      check(i, "blocked", longint'(blocked), longint'(e[EXP_BLOCKED_LSB+:8]));
      compared++;
      @(negedge clk);
      sel_req = 1'b0;
    end
    if (errors != 0 || compared == 0 || compared != EXPECTED_COUNT) begin
      $display("RESULT FAIL %0d mismatches, %0d of %0d lines compared", errors, compared, EXPECTED_COUNT);
      $fatal(1, "dcb_ets_sel differs from the vectors, or compared none");
    end
    $display("RESULT PASS %0d", compared);
    $finish;
  end
endmodule
