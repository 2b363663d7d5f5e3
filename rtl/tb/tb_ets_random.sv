// Random-stimulus testbench of dcb_ets_sel against the C reference model through the DPI-C layer
// (rtl/dcbkit_dpi.sv): a scoreboard that compares, every clock, the DUT's selection with the
// model's, and after every clock edge the DRR state (cur and the eight deficits). Each of CONFIGS
// configurations (random TSA, bandwidths and maximum frame, derived by the model's configure)
// runs CYCLES clocks of random enqueues, blocked-set changes and selections. Verilator only (DPI).
//   +seed=S  (default 1)
// Prints "RESULT PASS <selections> (strict a, weighted b, zero-bandwidth c)" or "RESULT FAIL <mismatches>"; a failure also ends with $fatal.
module tb_ets_random #(
    parameter int CONFIGS = 25,
    parameter int CYCLES = 2000,
    parameter int FIFO_DEPTH = 256
);
  import dcbkit_dpi::*;
  import dcb_layout_pkg::*;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  always #5 clk <= ~clk;

  logic cfg_load = 1'b0, sel_req = 1'b0;
  logic [7:0] strict_mask, weighted_mask, zero_mask;
  logic [15:0] max_wire;
  logic [7:0][23:0] quantum;
  logic [7:0] backlog, blocked = 8'd0, head_last;
  logic [7:0][15:0] head_wire;
  logic sel_found;
  logic [2:0] sel_tc, cur;
  logic [7:0][23:0] deficit;

  dcb_ets_sel #(.WIRE_W(16), .DEF_W(24)) dut (
      .clk, .rst_n, .cfg_load, .cfg_strict_mask(strict_mask), .cfg_weighted_mask(weighted_mask),
      .cfg_zero_mask(zero_mask), .cfg_max_wire(max_wire), .cfg_quantum(quantum),
      .sel_req, .backlog, .blocked, .head_wire, .head_last, .sel_found, .sel_tc, .cur, .deficit);

  int unsigned fifo[8][FIFO_DEPTH];
  int unsigned head[8], count[8];
  int errors = 0, selections = 0, strict_sel = 0, drr_sel = 0, zero_sel = 0;
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

  task automatic show_queues;
    for (int t = 0; t < 8; t++) begin
      backlog[t]   = count[t] != 0;
      head_wire[t] = count[t] != 0 ? 16'(fifo[t][head[t]] + 32'(WIRE_OVERHEAD)) : 16'd0;
      head_last[t] = count[t] == 1;
    end
  endtask

  int max_frame, model_tc, seed;
  logic [255:0] heads;

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    rnd = seed == 0 ? 32'h6D2B79F5 : 32'(seed);
    rec = dcb_dpi_alloc(ETS_BYTES);
    @(negedge clk);
    rst_n = 1'b1;
    for (int c = 0; c < CONFIGS; c++) begin
      // configure the model the core's way: the config bytes, then configure
      max_frame = (next_rand() % 2) != 0 ? 1518 : 9216;
      for (int t = 0; t < 8; t++) begin
        dcb_dpi_st8(rec, ETS_PRIO_TC + t, t);
        case (next_rand() % 5)
          0: dcb_dpi_st8(rec, ETS_TSA + t, TSA_STRICT);
          1: dcb_dpi_st8(rec, ETS_TSA + t, TSA_CBS);
          default: dcb_dpi_st8(rec, ETS_TSA + t, TSA_ETS);
        endcase
        dcb_dpi_st8(rec, ETS_BW + t, (next_rand() % 4) == 0 ? 0 : int'(next_rand() % 101));
      end
      dcb_dpi_ets_configure(rec, max_frame);
      strict_mask = 8'(dcb_dpi_ld32(rec, ETS_STRICT_MASK));
      weighted_mask = 8'(dcb_dpi_ld32(rec, ETS_WEIGHTED_MASK));
      zero_mask = 8'(dcb_dpi_ld32(rec, ETS_ZERO_MASK));
      max_wire = 16'(dcb_dpi_ld32(rec, ETS_MAX_WIRE));
      for (int t = 0; t < 8; t++) begin
        quantum[t] = 24'(dcb_dpi_ld32(rec, ETS_QUANTUM + 4 * t));
        head[t] = 0;
        count[t] = 0;
      end
      blocked = 8'd0;
      show_queues();
      cfg_load = 1'b1;
      @(negedge clk);
      cfg_load = 1'b0;
      for (int i = 0; i < CYCLES; i++) begin
        // the host side of this clock: an enqueue, maybe a new blocked set, then maybe a selection
        if ((next_rand() % 100) < 55) begin
          automatic logic [2:0] t = 3'(next_rand() % 8);
          if (count[t] < FIFO_DEPTH) begin
            fifo[t][(head[t]+count[t])%FIFO_DEPTH] = 64 + next_rand() % (max_frame - 63);
            count[t]++;
          end
        end
        if ((next_rand() % 100) < 4) blocked = 8'(next_rand() & next_rand());
        show_queues();
        sel_req = (next_rand() % 100) < 70;
        #1;
        if (sel_req) begin
          for (int t = 0; t < 8; t++) heads[t*32+:32] = 32'(head_wire[t]);
          model_tc = dcb_dpi_ets_select(rec, int'(backlog), int'(blocked), heads);
          if (model_tc >= 0 && count[model_tc] == 1) dcb_dpi_ets_emptied(rec, model_tc);
          check("sel_found", longint'(sel_found), longint'(model_tc >= 0));
          if (model_tc >= 0) check("sel_tc", longint'(sel_tc), longint'(model_tc));
          selections++;
          if (model_tc >= 0) begin
            if (strict_mask[model_tc]) strict_sel++;
            else if (weighted_mask[model_tc]) drr_sel++;
            else zero_sel++;
          end
        end
        @(posedge clk);
        #1;
        check("cur", longint'(cur), longint'(dcb_dpi_ld32(rec, ETS_CUR)));
        for (int t = 0; t < 8; t++) check($sformatf("deficit[%0d]", t), longint'(deficit[t]), longint'(dcb_dpi_ld32(rec, ETS_DEFICIT + 4 * t)));
        if (sel_req && model_tc >= 0) begin  // the model's choice leaves the FIFOs
          head[model_tc] = (head[model_tc] + 1) % FIFO_DEPTH;
          count[model_tc]--;
        end
        @(negedge clk);
        sel_req = 1'b0;
      end
    end
    dcb_dpi_free(rec);
    if (errors != 0) begin
      $display("RESULT FAIL %0d", errors);
      $fatal(1, "dcb_ets_sel differs from the C model");
    end
    $display("RESULT PASS %0d (strict %0d, weighted %0d, zero-bandwidth %0d)", selections, strict_sel, drr_sel, zero_sel);
    $finish;
  end
endmodule
