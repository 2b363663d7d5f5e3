// The configure step of dcb_ets_sel (IEEE 802.1Qaz-2011 clause 37.3; docs/ets.md) from the DCB
// register image: what a driver does after writing dcb_regs.bin, as constant logic.
//   strict TCs:   TSA strict (0) or CBS (1);
//   weighted TCs: any other TSA with a bandwidth above 0 %, quantum = quantum_credits x 64 bytes;
//   0 % TCs:      the rest, quantum = one maximum wire frame (MTU + 20).
// The TC of each priority comes from the PRIO block. Every value is read from DCB_REGS_IMAGE, so a
// changed register changes the block's behaviour (the wrong-register test relies on it).
module dcb_regs_ets_cfg #(
    parameter int WIRE_W = 16,
    parameter int DEF_W  = 24
) (
    output logic [7:0]          strict_mask,
    output logic [7:0]          weighted_mask,
    output logic [7:0]          zero_mask,
    output logic [WIRE_W-1:0]   max_wire,
    output logic [8*DEF_W-1:0]  quantum,
    output logic [8*3-1:0]      prio_tc
);
  import dcb_regs_pkg::*;
  import dcb_regs_read_pkg::*;
  localparam int OVERHEAD = 20;  // preamble + SFD + IFG: wire bytes beyond the frame

  logic [31:0] tsa, bw, credits;
  always_comb begin
    max_wire = WIRE_W'(dcb_field(DCB_glb_BASE, DCB_glb_STRIDE, 0, DCB_glb_mtu_OFFSET, DCB_glb_mtu_SHIFT, DCB_glb_mtu_WIDTH) + OVERHEAD);
    for (int t = 0; t < 8; t++) begin
      tsa = dcb_field(DCB_tc_BASE, DCB_tc_STRIDE, t, DCB_tc_tsa_OFFSET, DCB_tc_tsa_SHIFT, DCB_tc_tsa_WIDTH);
      bw = dcb_field(DCB_tc_BASE, DCB_tc_STRIDE, t, DCB_tc_dwrr_weight_OFFSET, DCB_tc_dwrr_weight_SHIFT, DCB_tc_dwrr_weight_WIDTH);
      credits = dcb_field(DCB_tc_BASE, DCB_tc_STRIDE, t, DCB_tc_quantum_credits_OFFSET, DCB_tc_quantum_credits_SHIFT, DCB_tc_quantum_credits_WIDTH);
      strict_mask[t] = tsa == 32'd0 || tsa == 32'd1;
      weighted_mask[t] = !strict_mask[t] && bw != 32'd0;
      zero_mask[t] = !strict_mask[t] && bw == 32'd0;
      quantum[t*DEF_W+:DEF_W] = weighted_mask[t] ? DEF_W'(credits * DCB_REGS_CREDIT_BYTES) : zero_mask[t] ? DEF_W'(max_wire) : '0;
    end
    for (int p = 0; p < 8; p++) prio_tc[p*3+:3] = 3'(dcb_field(DCB_prio_BASE, DCB_prio_STRIDE, p, DCB_prio_tc_OFFSET, DCB_prio_tc_SHIFT, DCB_prio_tc_WIDTH));
  end
endmodule
