// DPI-C layer over the dcbkit C reference model (cmodel/dcbkit.h; C glue in rtl/dcbkit_dpi.c), for
// scoreboards and random testbenches: a record of any kernel lives in C memory behind a chandle;
// the testbench fills its config fields by the offsets of dcb_layout_pkg (build/dcb_layout_pkg.sv,
// generated with build/dcb_layout.h), calls the kernel's configure, then drives events and reads
// fields, exactly as the core is driven (docs/rtl.md). Times are ps (longint), sizes bytes.
// Simulators: any with DPI-C and chandle (IEEE 1800-2017 §35); tested with Verilator 5.
package dcbkit_dpi;
  // records: zeroed, 16-byte aligned; fields by byte offset
  import "DPI-C" function chandle dcb_dpi_alloc(input int bytes);
  import "DPI-C" function void dcb_dpi_free(input chandle rec);
  import "DPI-C" function int dcb_dpi_ld8(input chandle rec, input int offset);
  import "DPI-C" function void dcb_dpi_st8(input chandle rec, input int offset, input int value);
  import "DPI-C" function int dcb_dpi_ld32(input chandle rec, input int offset);
  import "DPI-C" function void dcb_dpi_st32(input chandle rec, input int offset, input int value);
  import "DPI-C" function longint dcb_dpi_ld64(input chandle rec, input int offset);
  import "DPI-C" function void dcb_dpi_st64(input chandle rec, input int offset, input longint value);

  // ETS (cmodel/ets.c); head_wire: 8 x 32-bit head-of-line wire sizes, TC 0 in bits 31:0
  import "DPI-C" function void dcb_dpi_ets_configure(input chandle rec, input int max_frame);
  import "DPI-C" function int dcb_dpi_ets_select(input chandle rec, input int backlog, input int blocked, input bit [255:0] head_wire);
  import "DPI-C" function void dcb_dpi_ets_emptied(input chandle rec, input int tc);

  // PFC / PAUSE (cmodel/pfc.c); times: 8 x 16-bit time fields, priority 0 in bits 15:0
  import "DPI-C" function void dcb_dpi_pfc_configure(input chandle rec);
  import "DPI-C" function int dcb_dpi_pfc_arrive(input chandle rec, input int prio, input int bytes, input longint now);
  import "DPI-C" function void dcb_dpi_pfc_depart(input chandle rec, input int prio, input int bytes);
  import "DPI-C" function longint dcb_dpi_pfc_next_refresh(input chandle rec);
  import "DPI-C" function int dcb_dpi_pfc_refresh_due(input chandle rec, input longint now);
  import "DPI-C" function int dcb_dpi_pfc_take_pending(input chandle rec);
  import "DPI-C" function void dcb_dpi_pfc_receive_pfc(input chandle rec, input int enable, input bit [127:0] times, input longint now);
  import "DPI-C" function void dcb_dpi_pfc_receive_pause(input chandle rec, input int quanta, input longint now);
  import "DPI-C" function int dcb_dpi_pfc_blocked_mask(input chandle rec, input longint now);
  import "DPI-C" function int dcb_dpi_pfc_blocked_tcs(input int blocked_prios, input int prio_tc);
  import "DPI-C" function longint dcb_dpi_pfc_paused_ps(input chandle rec, input int unit, input longint now);

  // credit-based flow control (cmodel/credit.c)
  import "DPI-C" function void dcb_dpi_credit_configure(input chandle rec);
  import "DPI-C" function int dcb_dpi_credit_try_send(input chandle rec, input int bytes, input longint now);
  import "DPI-C" function void dcb_dpi_credit_on_grant(input chandle rec, input int cl, input longint now);
  import "DPI-C" function int dcb_dpi_credit_sync_value(input chandle rec);
  import "DPI-C" function int dcb_dpi_credit_age(input chandle rec, input longint now);
  import "DPI-C" function int dcb_dpi_credit_available(input chandle rec, input longint now);
  import "DPI-C" function int dcb_dpi_credit_receive(input chandle rec, input int bytes);
  import "DPI-C" function void dcb_dpi_credit_drain(input chandle rec, input int bytes);
  import "DPI-C" function int dcb_dpi_credit_grant_value(input chandle rec);
  import "DPI-C" function void dcb_dpi_credit_on_sync(input chandle rec, input int tbs);

  // QCN / DCQCN congestion points (cmodel/qcn_cp.c)
  import "DPI-C" function void dcb_dpi_qcn_cp_configure(input chandle rec, input int unsigned seed, input int unsigned id);
  import "DPI-C" function int dcb_dpi_qcn_cp_enqueue(input chandle rec, input int len);
  import "DPI-C" function void dcb_dpi_qcn_cp_dequeue(input chandle rec, input int len);
  import "DPI-C" function void dcb_dpi_dcqcn_cp_configure(input chandle rec, input int unsigned seed, input int unsigned id);
  import "DPI-C" function int dcb_dpi_dcqcn_cp_enqueue(input chandle rec, input int len);
  import "DPI-C" function void dcb_dpi_dcqcn_cp_dequeue(input chandle rec, input int len);

  // QCN / DCQCN reaction point and DCQCN notification point (cmodel/qcn_rp.c)
  import "DPI-C" function void dcb_dpi_qcn_rp_configure(input chandle rec, input int unsigned seed, input int unsigned id);
  import "DPI-C" function int dcb_dpi_qcn_rp_fire_due(input chandle rec, input longint now);
  import "DPI-C" function void dcb_dpi_qcn_rp_on_cnm(input chandle rec, input longint now, input int qf);
  import "DPI-C" function void dcb_dpi_qcn_rp_on_frame_sent(input chandle rec, input longint now, input int len, input int backlog);
  import "DPI-C" function void dcb_dpi_dcqcn_rp_on_cnp(input chandle rec, input longint now);
  import "DPI-C" function void dcb_dpi_dcqcn_np_configure(input chandle rec);
  import "DPI-C" function int dcb_dpi_dcqcn_np_on_ce(input chandle rec, input longint now);
endpackage
