// Random-stimulus testbench of dcb_pfc_acct against the C reference model through the DPI-C layer
// (rtl/dcbkit_dpi.sv): every clock one arrival or departure goes to both; the DUT's drop decision
// and generated frame (tx_mask, tx_time) must equal the model's (pfc_arrive's result, then the
// pending mask and time fields it took), and after the clock edge the occupancy of every unit and
// the XOFF state must equal the model's record. Each of CONFIGS configurations (mode, enabled
// priorities, thresholds; sizes in 64-byte steps so that occupancies often land exactly on a
// threshold) runs CYCLES clocks. Verilator only (DPI).   +seed=S (default 1)
// Prints "RESULT PASS <events> (XOFF x, XON y, drops z)" or "RESULT FAIL <mismatches>"; a failure also ends with $fatal.
module tb_pfc_random #(
    parameter int CONFIGS = 25,
    parameter int CYCLES = 2000
);
  import dcbkit_dpi::*;
  import dcb_layout_pkg::*;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk <= ~clk;

  logic cfg_load = 1'b0, arrive = 1'b0, depart = 1'b0;
  logic [1:0] mode;
  logic [7:0] enable;
  logic [15:0] pause_time;
  logic [8:0][31:0] xoff, xon, limit;
  logic [2:0] prio = 3'd0;
  logic [15:0] bytes = 16'd0;
  logic dropped;
  logic [8:0] tx_mask, xoff_state;
  logic [8:0][15:0] tx_time;
  logic [8:0][31:0] occ;

  dcb_pfc_acct #(.OCC_W(32)) dut (
      .clk, .rst_n, .cfg_load, .cfg_mode(mode), .cfg_enable(enable), .cfg_pause_time(pause_time),
      .cfg_xoff(xoff), .cfg_xon(xon), .cfg_limit(limit),
      .arrive, .depart, .prio, .bytes, .dropped, .tx_mask, .tx_time, .occ, .xoff_state);

  int errors = 0, events = 0, xoffs = 0, xons = 0, drops = 0;
  int unsigned rnd;
  chandle rec;

  function automatic int unsigned next_rand();
    rnd ^= rnd << 13;
    rnd ^= rnd >> 17;
    rnd ^= rnd << 5;
    return rnd;
  endfunction

  task automatic check(input string field, input longint got, input longint want);
    if (got != want) begin
      errors++;
      if (errors <= 20) $display("MISMATCH at %0t %s: DUT %0d, model %0d", $time, field, got, want);
    end
  endtask

  int seed, held, pending;
  int unsigned step;
  longint now;
  logic model_dropped;

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    rnd = seed == 0 ? 32'h6D2B79F5 : 32'(seed);
    rec = dcb_dpi_alloc(PFC_SIZE);
    now = 0;
    @(negedge clk);
    rst_n = 1'b1;
    for (int c = 0; c < CONFIGS; c++) begin
      // configure the model the core's way: the config fields, then configure
      mode = 2'(next_rand() % 3);
      enable = 8'(next_rand());
      pause_time = 16'(next_rand());
      dcb_dpi_st32(rec, PFC_MODE, int'(mode));
      dcb_dpi_st32(rec, PFC_ENABLE, int'(enable));
      dcb_dpi_st32(rec, PFC_PAUSE_TIME, int'(pause_time));
      dcb_dpi_st32(rec, PFC_REFRESH_QUANTA, 0);
      dcb_dpi_st64(rec, PFC_SPEED_BPS, 64'd100000000000);
      for (int u = 0; u < 9; u++) begin
        xoff[u] = 64 * (4 + next_rand() % 200);
        xon[u] = 64 * (next_rand() % (xoff[u] / 64 + 1));
        dcb_dpi_st32(rec, PFC_XOFF_TH + 4 * u, int'(xoff[u]));
        dcb_dpi_st32(rec, PFC_XON_TH + 4 * u, int'(xon[u]));
        dcb_dpi_st32(rec, PFC_HEADROOM + 4 * u, 64 * int'(next_rand() % 100));
      end
      dcb_dpi_pfc_configure(rec);
      for (int u = 0; u < 9; u++) limit[u] = 32'(dcb_dpi_ld32(rec, PFC_LIMIT + 4 * u));
      cfg_load = 1'b1;
      @(negedge clk);
      cfg_load = 1'b0;
      for (int i = 0; i < CYCLES; i++) begin
        step = next_rand() % 100000;
        now += longint'(step);
        prio = 3'(next_rand() % 8);
        held = dcb_dpi_ld32(rec, PFC_OCC + 4 * int'(prio));
        // depart more often when the port holds much, so occupancies sweep the thresholds
        if (held > 0 && (next_rand() % 100) < (dcb_dpi_ld32(rec, PFC_OCC + 32) > 12000 ? 60 : 35)) begin
          depart = 1'b1;
          bytes = 16'(64 * (1 + next_rand() % (held / 64 < 150 ? held / 64 : 150)));
          dcb_dpi_pfc_depart(rec, int'(prio), int'(bytes));
          model_dropped = 1'b0;
        end else begin
          arrive = 1'b1;
          bytes = 16'(64 * (1 + next_rand() % 150));
          model_dropped = dcb_dpi_pfc_arrive(rec, int'(prio), int'(bytes), now) == 0;
        end
        pending = dcb_dpi_pfc_take_pending(rec);
        if (model_dropped) drops++;
        if (pending != 0 && arrive) xoffs++;
        if (pending != 0 && depart) xons++;
        #1;
        check("dropped", longint'(dropped), longint'(model_dropped));
        check("tx_mask", longint'(tx_mask), longint'(pending));
        for (int u = 0; u < 9; u++) begin
          check($sformatf("tx_time[%0d]", u), longint'(tx_time[u]), ((pending >> u) & 1) != 0 ? longint'(dcb_dpi_ld32(rec, PFC_TX_TIME + 4 * u)) : 0);
        end
        @(posedge clk);
        #1;
        for (int u = 0; u < 9; u++) check($sformatf("occ[%0d]", u), longint'(occ[u]), longint'(dcb_dpi_ld32(rec, PFC_OCC + 4 * u)));
        check("xoff_state", longint'(xoff_state), longint'(dcb_dpi_ld32(rec, PFC_XOFF_STATE)));
        events++;
        @(negedge clk);
        arrive = 1'b0;
        depart = 1'b0;
      end
    end
    dcb_dpi_free(rec);
    if (errors != 0) begin
      $display("RESULT FAIL %0d", errors);
      $fatal(1, "dcb_pfc_acct differs from the C model");
    end
    $display("RESULT PASS %0d (XOFF %0d, XON %0d, drops %0d)", events, xoffs, xons, drops);
    $finish;
  end
endmodule
