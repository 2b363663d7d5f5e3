// Reads a field of the DCB register image (dcb_regs.bin as the localparam DCB_REGS_IMAGE of the
// generated dcb_regs_pkg, `dcbkit codegen --target sv`): the 32-bit little-endian word at byte
// block base + instance x stride + offset, bits [shift +: width]. Used by the configuration shims
// (dcb_regs_ets_cfg, dcb_regs_pfc_cfg) that program the reference RTL from the image.
package dcb_regs_read_pkg;
  import dcb_regs_pkg::*;

  function automatic logic [31:0] dcb_field(input int base, input int stride, input int i, input int offset, input int shift, input int width);
    logic [31:0] word;
    word = DCB_REGS_IMAGE[(base + stride * i + offset) * 8 +: 32];
    return width >= 32 ? word : (word >> shift) & ((32'd1 << width) - 32'd1);
  endfunction
endpackage
