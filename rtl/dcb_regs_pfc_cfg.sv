// The configuration of dcb_pfc_acct (IEEE 802.1Qbb; docs/pfc.md) for one port of the DCB register
// image: PFC mode when some priority has PFC on (off otherwise), the enabled priorities, the pause
// time, and per priority the thresholds of its priority group, converted from cells to bytes:
//   lossless PG: xoff, xon = the PG's cells x cell size; limit = reserved size (xoff + headroom);
//   lossy PG and the port unit (8): no per-PG reservation in the register map (shared pool), so no
//   drop limit (2^31 - 1) and thresholds never reached (2^30), as `dcbkit vectors pfc --config` does.
module dcb_regs_pfc_cfg #(
    parameter int PORT  = 0,  // PORT block instance
    parameter int OCC_W = 32
) (
    output logic [1:0]          mode,
    output logic [7:0]          enable,
    output logic [15:0]         pause_time,
    output logic [9*OCC_W-1:0]  xoff,
    output logic [9*OCC_W-1:0]  xon,
    output logic [9*OCC_W-1:0]  limit
);
  import dcb_regs_pkg::*;
  import dcb_regs_read_pkg::*;
  localparam logic [OCC_W-1:0] LOSSY = OCC_W'(32'h4000_0000);
  localparam logic [OCC_W-1:0] NO_LIMIT = OCC_W'(32'h7fff_ffff);
  localparam int PG_STRIDE = DCB_port_pg1_xon_cells_OFFSET - DCB_port_pg0_xon_cells_OFFSET;

  function automatic logic [31:0] pg_field(input int pg, input int offset, input int shift, input int width);
    return dcb_field(DCB_port_BASE, DCB_port_STRIDE, PORT, offset + PG_STRIDE * pg, shift, width);
  endfunction

  logic [31:0] cell_bytes, pg;
  always_comb begin
    cell_bytes = dcb_field(DCB_glb_BASE, DCB_glb_STRIDE, 0, DCB_glb_cell_bytes_OFFSET, DCB_glb_cell_bytes_SHIFT, DCB_glb_cell_bytes_WIDTH);
    enable = 8'(dcb_field(DCB_glb_BASE, DCB_glb_STRIDE, 0, DCB_glb_pfc_enable_OFFSET, DCB_glb_pfc_enable_SHIFT, DCB_glb_pfc_enable_WIDTH));
    mode = enable != 8'd0 ? 2'd1 : 2'd0;
    pause_time = 16'(dcb_field(DCB_glb_BASE, DCB_glb_STRIDE, 0, DCB_glb_pause_time_OFFSET, DCB_glb_pause_time_SHIFT, DCB_glb_pause_time_WIDTH));
    for (int u = 0; u < 9; u++) begin
      xoff[u*OCC_W+:OCC_W] = LOSSY;
      xon[u*OCC_W+:OCC_W] = LOSSY;
      limit[u*OCC_W+:OCC_W] = NO_LIMIT;
      if (u < 8) begin
        pg = dcb_field(DCB_prio_BASE, DCB_prio_STRIDE, u, DCB_prio_pg_OFFSET, DCB_prio_pg_SHIFT, DCB_prio_pg_WIDTH);
        if (pg_field(int'(pg), DCB_port_pg0_lossless_OFFSET, DCB_port_pg0_lossless_SHIFT, DCB_port_pg0_lossless_WIDTH) != 32'd0) begin
          xoff[u*OCC_W+:OCC_W] = OCC_W'(pg_field(int'(pg), DCB_port_pg0_xoff_cells_OFFSET, DCB_port_pg0_xoff_cells_SHIFT, DCB_port_pg0_xoff_cells_WIDTH) * cell_bytes);
          xon[u*OCC_W+:OCC_W] = OCC_W'(pg_field(int'(pg), DCB_port_pg0_xon_cells_OFFSET, DCB_port_pg0_xon_cells_SHIFT, DCB_port_pg0_xon_cells_WIDTH) * cell_bytes);
          limit[u*OCC_W+:OCC_W] = OCC_W'(pg_field(int'(pg), DCB_port_pg0_size_cells_OFFSET, DCB_port_pg0_size_cells_SHIFT, DCB_port_pg0_size_cells_WIDTH) * cell_bytes);
        end
      end
    end
  end
endmodule
