// IEEE 802.1Qbb priority-based flow control (802.3 Annex 31D) and 802.3x PAUSE (Annex 31B), the
// ingress side: per-priority-group occupancy with the XOFF / XON / headroom decisions, written from
// docs/pfc.md. One frame event (arrival or departure) per clock.
//
// Units: 0..7 are the priorities, 8 the whole port (its occupancy is the sum of the others). A
// frame's flow-control unit is its priority in PFC and off modes, the port (8) in PAUSE mode.
//   arrival of `bytes` at priority p, unit u:
//     occ[u] + bytes > limit[u] (limit = xoff + headroom)  -> dropped, nothing else changes;
//     otherwise occ[p] and occ[8] grow by bytes, and if u is flow-controlled (a PFC-enabled
//     priority in PFC mode, the port in PAUSE mode), not in XOFF state, and occ[u] >= xoff[u]:
//     u enters XOFF state and an XOFF (time = pause_time) is generated for it.
//   departure of `bytes` at priority p: occ[p] and occ[8] shrink; if u is in XOFF state and
//     occ[u] <= xon[u]: u leaves it and one XON (time 0) is generated.
// The frame the event generates is reported combinationally in the same clock: tx_mask (bits 0..7:
// the priority-enable vector of one PFC frame, bit 8: a PAUSE frame) and tx_time per unit. The
// XOFF refresh timer and the egress pause timers are outside this module (the C model and the core
// have them; docs/rtl.md).
// Per-unit values travel as flat vectors, unit u in bits [u*W +: W] (Verilog-2005 style, which every
// synthesis tool reads; Yosys 0.23 takes no multi-dimensional packed arrays).
// State: occ[9] and xoff_state (9 bits). Invariants: occ[u] <= limit[u] for the unit of every
// accepted frame; occ[8] = sum of occ[0..7]; xoff_state[u] only for a flow-controlled unit.
module dcb_pfc_acct #(
    parameter int OCC_W = 32  // bytes of occupancy and thresholds
) (
    input  logic                  clk,
    input  logic                  rst_n,
    input  logic                  cfg_load,     // clears occupancy and XOFF state
    input  logic [1:0]            cfg_mode,     // 0 off, 1 PFC, 2 PAUSE (802.3x)
    input  logic [7:0]            cfg_enable,   // PFC-enabled priorities
    input  logic [15:0]           cfg_pause_time,
    input  logic [9*OCC_W-1:0]    cfg_xoff,
    input  logic [9*OCC_W-1:0]    cfg_xon,
    input  logic [9*OCC_W-1:0]    cfg_limit,    // xoff + headroom, saturated
    input  logic                  arrive,
    input  logic                  depart,
    input  logic [2:0]            prio,
    input  logic [15:0]           bytes,
    output logic                  dropped,
    output logic [8:0]            tx_mask,
    output logic [9*16-1:0]       tx_time,
    output logic [9*OCC_W-1:0]    occ,
    output logic [8:0]            xoff_state
);
  localparam logic [1:0] MODE_PFC = 2'd1;
  localparam logic [1:0] MODE_PAUSE = 2'd2;
  localparam int PORT = 8;

  logic [3:0]       unit;
  logic             controlled;
  logic [OCC_W-1:0] occ_unit, occ_prio, occ_port;
  logic [OCC_W:0]   occ_unit_in;   // one bit more: the sum cannot wrap
  logic [OCC_W-1:0] occ_unit_out;
  logic [9*OCC_W-1:0] occ_next;
  logic [8:0]       xoff_state_next;

  always_comb begin
    unit = cfg_mode == MODE_PAUSE ? 4'(PORT) : {1'b0, prio};
    controlled = cfg_mode == MODE_PFC ? (unit != 4'(PORT) && cfg_enable[unit[2:0]]) : (cfg_mode == MODE_PAUSE && unit == 4'(PORT));
    occ_unit = occ[32'(unit)*OCC_W+:OCC_W];
    occ_prio = occ[32'(prio)*OCC_W+:OCC_W];
    occ_port = occ[PORT*OCC_W+:OCC_W];
    occ_unit_in  = {1'b0, occ_unit} + (OCC_W + 1)'(bytes);
    occ_unit_out = occ_unit - OCC_W'(bytes);
    occ_next        = occ;
    xoff_state_next = xoff_state;
    dropped = 1'b0;
    tx_mask = '0;
    tx_time = '0;
    if (arrive) begin
      if (occ_unit_in > {1'b0, cfg_limit[32'(unit)*OCC_W+:OCC_W]}) begin
        dropped = 1'b1;
      end else begin
        occ_next[32'(prio)*OCC_W+:OCC_W] = occ_prio + OCC_W'(bytes);
        occ_next[PORT*OCC_W+:OCC_W] = occ_port + OCC_W'(bytes);
        if (controlled && !xoff_state[unit] && occ_unit_in >= {1'b0, cfg_xoff[32'(unit)*OCC_W+:OCC_W]}) begin
          xoff_state_next[unit] = 1'b1;
          tx_mask[unit] = 1'b1;
          tx_time[32'(unit)*16+:16] = cfg_pause_time;
        end
      end
    end else if (depart) begin
      occ_next[32'(prio)*OCC_W+:OCC_W] = occ_prio - OCC_W'(bytes);
      occ_next[PORT*OCC_W+:OCC_W] = occ_port - OCC_W'(bytes);
      if (xoff_state[unit] && occ_unit_out <= cfg_xon[32'(unit)*OCC_W+:OCC_W]) begin
        xoff_state_next[unit] = 1'b0;
        tx_mask[unit] = 1'b1;  // XON: time 0
      end
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      occ        <= '0;
      xoff_state <= '0;
    end else if (cfg_load) begin
      occ        <= '0;
      xoff_state <= '0;
    end else begin
      occ        <= occ_next;
      xoff_state <= xoff_state_next;
    end
  end
endmodule
