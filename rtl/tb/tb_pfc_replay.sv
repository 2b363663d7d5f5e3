// Replays `dcbkit vectors pfc --format memh` vectors through dcb_pfc_acct, one line per clock, and
// compares the fields the module owns on every expected line: occupancy per unit and XOFF state on
// all lines; dropped, tx_mask and tx_time[9] on the event lines (a refresh line's frame comes from
// the refresh timer, which is outside the module; docs/rtl.md). Runs under Verilator (--binary
// --timing) and Icarus Verilog (-g2012); fields are read with the package's _LSB / _W part-selects.
//   +vectors=DIR   directory with config.memh, stimulus.memh, expected.memh
//   +events=N +lines=M   stimulus and expected words (manifest.json "counts")
// Prints "RESULT PASS <lines>" or "RESULT FAIL <mismatches>"; a failure also ends with $fatal.
module tb_pfc_replay #(
    parameter int MAX_EVENTS = 4096  // memory words (override for longer vector sets)
);
  import dcbkit_pfc_pkg::*;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk <= ~clk;

  logic [CONFIG_BITS-1:0] cfg_mem[1];
  logic [STIMULUS_BITS-1:0] stim_mem[MAX_EVENTS];
  logic [EXPECTED_BITS-1:0] exp_mem[MAX_EVENTS];
  /* verilator lint_off UNUSEDSIGNAL */  // fields the module does not own are not read
  logic [CONFIG_BITS-1:0] cfg;
  logic [STIMULUS_BITS-1:0] s;
  logic [EXPECTED_BITS-1:0] e;
  /* verilator lint_on UNUSEDSIGNAL */

  logic cfg_load = 1'b0, arrive = 1'b0, depart = 1'b0;
  logic [2:0] prio = 3'd0;
  logic [15:0] bytes = 16'd0;
  logic [8:0][31:0] xoff, xon, limit;
  logic dropped;
  logic [8:0] tx_mask, xoff_state;
  logic [8:0][15:0] tx_time;
  logic [8:0][31:0] occ;

  dcb_pfc_acct #(.OCC_W(32)) dut (
      .clk, .rst_n, .cfg_load, .cfg_mode(cfg[CFG_MODE_LSB+:2]), .cfg_enable(cfg[CFG_ENABLE_LSB+:8]),
      .cfg_pause_time(cfg[CFG_PAUSE_TIME_LSB+:16]), .cfg_xoff(xoff), .cfg_xon(xon), .cfg_limit(limit),
      .arrive, .depart, .prio, .bytes, .dropped, .tx_mask, .tx_time, .occ, .xoff_state);

  int errors = 0;
  task automatic check(input int line, input string field, input longint got, input longint want);
    if (got != want) begin
      errors++;
      if (errors <= 20) $display("MISMATCH line %0d %s: got %0d, expected %0d", line, field, got, want);
    end
  endtask

  string dir;
  int n_events, n_lines, j, ltype, stype;
  logic got_dropped;
  logic [8:0] got_mask;
  logic [8:0][15:0] got_time;

  initial begin
    if (!$value$plusargs("vectors=%s", dir) || !$value$plusargs("events=%d", n_events) || !$value$plusargs("lines=%d", n_lines)) begin
      $fatal(1, "usage: +vectors=DIR +events=N +lines=M");
    end
    if (n_events > MAX_EVENTS || n_lines > MAX_EVENTS) $fatal(1, "more than MAX_EVENTS words");
    $readmemh({dir, "/config.memh"}, cfg_mem);
    if (n_events > 0) begin
      $readmemh({dir, "/stimulus.memh"}, stim_mem, 0, n_events - 1);
      $readmemh({dir, "/expected.memh"}, exp_mem, 0, n_lines - 1);
    end
    cfg = cfg_mem[0];
    for (int u = 0; u < 9; u++) begin
      xoff[u]  = cfg[CFG_XOFF_LSB+u*CFG_XOFF_W+:32];
      xon[u]   = cfg[CFG_XON_LSB+u*CFG_XON_W+:32];
      limit[u] = cfg[CFG_LIMIT_LSB+u*CFG_LIMIT_W+:32];
    end
    @(negedge clk);
    rst_n = 1'b1;
    cfg_load = 1'b1;
    @(negedge clk);
    cfg_load = 1'b0;
    j = 0;
    for (int i = 0; i < n_lines; i++) begin
      e = exp_mem[i];
      ltype = int'(e[EXP_TYPE_LSB+:EXP_TYPE_W]);
      arrive = 1'b0;
      depart = 1'b0;
      if (ltype != int'(EXP_TYPE_REFRESH)) begin
        // an event line: the next stimulus event, of the same type
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
      @(negedge clk);
    end
    if (j != n_events) $fatal(1, "%0d event lines for %0d events", j, n_events);
    if (errors != 0) begin
      $display("RESULT FAIL %0d", errors);
      $fatal(1, "dcb_pfc_acct differs from the vectors");
    end
    $display("RESULT PASS %0d", n_lines);
    $finish;
  end
endmodule
