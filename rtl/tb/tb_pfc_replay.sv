// Replays `dcbkit vectors pfc --format memh` vectors through dcb_pfc_acct, one line per clock, and
// compares the fields the module owns on every expected line: occupancy per unit and XOFF state on
// all lines; dropped, tx_mask and tx_time[9] on the event lines (a refresh line's frame comes from
// the refresh timer, which is outside the module; docs/rtl.md). Runs under Verilator (--binary
// --timing) and Icarus Verilog (-g2012); fields are read with the package's _LSB / _W part-selects.
// The package's STIMULUS_COUNT / EXPECTED_COUNT size the memories; a word that did not load (X) or
// a set with no words fails.
//   +vectors=DIR   directory with config.memh, stimulus.memh, expected.memh (default: .)
//   DCBKIT_REGS defined: the DUT's configuration comes from the register image (dcb_regs_pkg's
//   DCB_REGS_IMAGE through dcb_regs_pfc_cfg, port DCBKIT_PORT, default 0) instead of config.memh
// Prints "RESULT PASS <lines>" or "RESULT FAIL <mismatches>"; a failure also ends with $fatal.
`ifndef DCBKIT_PORT
`define DCBKIT_PORT 0
`endif
module tb_pfc_replay;
  import dcbkit_pfc_pkg::*;
  localparam int STIM_WORDS = STIMULUS_COUNT > 0 ? STIMULUS_COUNT : 1;
  localparam int EXP_WORDS = EXPECTED_COUNT > 0 ? EXPECTED_COUNT : 1;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk <= ~clk;

  logic [CONFIG_BITS-1:0] cfg_mem[1];
  logic [STIMULUS_BITS-1:0] stim_mem[STIM_WORDS];
  logic [EXPECTED_BITS-1:0] exp_mem[EXP_WORDS];
  /* verilator lint_off UNUSEDSIGNAL */  // fields the module does not own are not read
  logic [CONFIG_BITS-1:0] cfg;
  logic [STIMULUS_BITS-1:0] s;
  logic [EXPECTED_BITS-1:0] e;
  /* verilator lint_on UNUSEDSIGNAL */

  logic cfg_load = 1'b0, arrive = 1'b0, depart = 1'b0;
  logic [2:0] prio = 3'd0;
  logic [15:0] bytes = 16'd0;
  logic dropped;
  // the DUT's configuration: from config.memh, or from the register image
  logic [1:0] mode;
  logic [7:0] enable;
  logic [15:0] pause_time;
  logic [9*32-1:0] xoff, xon, limit;
`ifdef DCBKIT_REGS
  dcb_regs_pfc_cfg #(.PORT(`DCBKIT_PORT), .OCC_W(32)) regs (.mode, .enable, .pause_time, .xoff, .xon, .limit);
`else
  always_comb begin
    mode = cfg[CFG_MODE_LSB+:2];
    enable = cfg[CFG_ENABLE_LSB+:8];
    pause_time = cfg[CFG_PAUSE_TIME_LSB+:16];
    for (int u = 0; u < 9; u++) begin
      xoff[u*32+:32]  = cfg[CFG_XOFF_LSB+u*CFG_XOFF_W+:32];
      xon[u*32+:32]   = cfg[CFG_XON_LSB+u*CFG_XON_W+:32];
      limit[u*32+:32] = cfg[CFG_LIMIT_LSB+u*CFG_LIMIT_W+:32];
    end
  end
`endif
  logic [8:0] tx_mask, xoff_state;
  logic [8:0][15:0] tx_time;
  logic [8:0][31:0] occ;

  dcb_pfc_acct #(.OCC_W(32)) dut (
      .clk, .rst_n, .cfg_load, .cfg_mode(mode), .cfg_enable(enable),
      .cfg_pause_time(pause_time), .cfg_xoff(xoff), .cfg_xon(xon), .cfg_limit(limit),
      .arrive, .depart, .prio, .bytes, .dropped, .tx_mask, .tx_time, .occ, .xoff_state);

  int errors = 0;
  task automatic check(input int line, input string field, input longint got, input longint want);
    if (got != want) begin
      errors++;
      if (errors <= 20) $display("MISMATCH line %0d %s: got %0d, expected %0d", line, field, got, want);
    end
  endtask

  string dir;
  int compared = 0, j, ltype, stype;
  logic got_dropped;
  logic [8:0] got_mask;
  logic [8:0][15:0] got_time;

  initial begin
    if (!$value$plusargs("vectors=%s", dir)) dir = ".";
    $readmemh({dir, "/config.memh"}, cfg_mem);
    if (STIMULUS_COUNT > 0) $readmemh({dir, "/stimulus.memh"}, stim_mem, 0, STIMULUS_COUNT - 1);
    if (EXPECTED_COUNT > 0) $readmemh({dir, "/expected.memh"}, exp_mem, 0, EXPECTED_COUNT - 1);
    cfg = cfg_mem[0];
    @(negedge clk);
    rst_n = 1'b1;
    cfg_load = 1'b1;
    @(negedge clk);
    cfg_load = 1'b0;
    j = 0;
    for (int i = 0; i < EXPECTED_COUNT; i++) begin
      e = exp_mem[i];
      if ($isunknown(e)) begin  // a short or missing .memh file leaves X words
        $display("RESULT FAIL word %0d of expected.memh did not load", i);
        $fatal(1, "vectors shorter than the package says");
      end
      ltype = int'(e[EXP_TYPE_LSB+:EXP_TYPE_W]);
      arrive = 1'b0;
      depart = 1'b0;
      if (ltype != int'(EXP_TYPE_REFRESH)) begin
        // an event line: the next stimulus event, of the same type
        if (j >= STIMULUS_COUNT || $isunknown(stim_mem[j])) begin
          $display("RESULT FAIL event %0d of stimulus.memh did not load", j);
          $fatal(1, "vectors shorter than the package says");
        end
        s = stim_mem[j];
        j++;
        stype = int'(s[STIM_TYPE_LSB+:STIM_TYPE_W]);
        check(i, "type", longint'(stype), longint'(ltype));
        prio   = s[STIM_PRIO_LSB+:3];
        bytes  = s[STIM_BYTES_LSB+:16];
        arrive = stype == int'(STIM_TYPE_ARRIVE);
        depart = stype == int'(STIM_TYPE_DEPART);
      end
      #1;  // the decisions settle
      got_dropped = dropped;
      got_mask = tx_mask;
      got_time = tx_time;
      @(posedge clk);
      #1;
      for (int u = 0; u < 9; u++) check(i, $sformatf("occ[%0d]", u), longint'(occ[u]), longint'(e[EXP_OCC_LSB+u*EXP_OCC_W+:32]));
      check(i, "xoff_state", longint'(xoff_state), longint'(e[EXP_XOFF_STATE_LSB+:9]));
      if (ltype != int'(EXP_TYPE_REFRESH)) begin
        check(i, "dropped", longint'(got_dropped), longint'(e[EXP_DROPPED_LSB]));
        check(i, "tx_mask", longint'(got_mask), longint'(e[EXP_TX_MASK_LSB+:9]));
        for (int u = 0; u < 9; u++) check(i, $sformatf("tx_time[%0d]", u), longint'(got_time[u]), longint'(e[EXP_TX_TIME_LSB+u*EXP_TX_TIME_W+:16]));
      end
      compared++;
      @(negedge clk);
    end
    if (j != STIMULUS_COUNT) $fatal(1, "%0d event lines for %0d events", j, STIMULUS_COUNT);
    if (errors != 0 || compared == 0 || compared != EXPECTED_COUNT) begin
      $display("RESULT FAIL %0d mismatches, %0d of %0d lines compared", errors, compared, EXPECTED_COUNT);
      $fatal(1, "dcb_pfc_acct differs from the vectors, or compared none");
    end
    $display("RESULT PASS %0d", compared);
    $finish;
  end
endmodule
