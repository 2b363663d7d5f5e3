-- Wireshark dissectors for the dcbkit frames tshark 4.0 does not know (used by the oracle tests):
--   * credit exchange, MAC Control opcodes 0x0110 (request/sync) and 0x0111 (grant), layout in
--     docs/frames.md; every other MAC Control opcode goes back to Wireshark's own dissector, so
--     macc.* (PFC, PAUSE) keeps working;
--   * the 802.1Qau CNM (EtherType 0x22E7) and the CN-TAG (0x22E9).
-- Fields are read independently of dcbkit's TypeScript decoders (offsets from docs/frames.md).
local ethertype = DissectorTable.get("ethertype")
local macc_builtin = ethertype:get_dissector(0x8808)

local ce = Proto("dcbkit_ce", "dcbkit credit exchange")
local ce_fields = {
  opcode = ProtoField.uint16("dcbkit_ce.opcode", "Opcode", base.HEX),
  channel = ProtoField.uint16("dcbkit_ce.channel", "Channel id", base.DEC),
  enbv = ProtoField.uint16("dcbkit_ce.enbv", "Priority enable vector", base.HEX),
}
for n = 0, 7 do
  ce_fields["count" .. n] = ProtoField.uint16("dcbkit_ce.count" .. n, "Counter (TBS or CL) priority " .. n, base.DEC)
  ce_fields["request" .. n] = ProtoField.uint16("dcbkit_ce.request" .. n, "Request priority " .. n, base.DEC)
end
local ce_list = {}
for _, f in pairs(ce_fields) do table.insert(ce_list, f) end
ce.fields = ce_list

function ce.dissector(tvb, pinfo, tree)
  local op = tvb(0, 2):uint()
  if op ~= 0x0110 and op ~= 0x0111 then
    return macc_builtin:call(tvb, pinfo, tree)
  end
  pinfo.cols.protocol = "CE"
  local t = tree:add(ce, tvb(0, op == 0x0110 and 38 or 22))
  t:add(ce_fields.opcode, tvb(0, 2))
  t:add(ce_fields.channel, tvb(2, 2))
  t:add(ce_fields.enbv, tvb(4, 2))
  for n = 0, 7 do t:add(ce_fields["count" .. n], tvb(6 + 2 * n, 2)) end
  if op == 0x0110 then
    for n = 0, 7 do t:add(ce_fields["request" .. n], tvb(22 + 2 * n, 2)) end
  end
  return tvb:len()
end
ethertype:add(0x8808, ce)

local cnm = Proto("dcbkit_cnm", "IEEE 802.1Qau congestion notification message")
local cf = {
  version = ProtoField.uint16("dcbkit_cnm.version", "Version", base.DEC, nil, 0xF000),
  reserved = ProtoField.uint16("dcbkit_cnm.reserved", "ReservedV", base.DEC, nil, 0x0FC0),
  qf = ProtoField.uint16("dcbkit_cnm.qf", "Quantized feedback", base.DEC, nil, 0x003F),
  cpid = ProtoField.bytes("dcbkit_cnm.cpid", "CPID"),
  qoff = ProtoField.int16("dcbkit_cnm.qoff", "cnmQOffset", base.DEC),
  qdelta = ProtoField.int16("dcbkit_cnm.qdelta", "cnmQDelta", base.DEC),
  prio = ProtoField.uint16("dcbkit_cnm.prio", "Encapsulated priority", base.DEC, nil, 0xE000),
  edst = ProtoField.ether("dcbkit_cnm.encap_dst", "Encapsulated destination"),
  elen = ProtoField.uint16("dcbkit_cnm.msdu_len", "Encapsulated MSDU length", base.DEC),
  msdu = ProtoField.bytes("dcbkit_cnm.msdu", "Encapsulated MSDU"),
}
cnm.fields = { cf.version, cf.reserved, cf.qf, cf.cpid, cf.qoff, cf.qdelta, cf.prio, cf.edst, cf.elen, cf.msdu }

function cnm.dissector(tvb, pinfo, tree)
  pinfo.cols.protocol = "CNM"
  local t = tree:add(cnm, tvb())
  t:add(cf.version, tvb(0, 2))
  t:add(cf.reserved, tvb(0, 2))
  t:add(cf.qf, tvb(0, 2))
  t:add(cf.cpid, tvb(2, 8))
  t:add(cf.qoff, tvb(10, 2))
  t:add(cf.qdelta, tvb(12, 2))
  t:add(cf.prio, tvb(14, 2))
  t:add(cf.edst, tvb(16, 6))
  t:add(cf.elen, tvb(22, 2))
  local n = tvb(22, 2):uint()
  if n > 0 then t:add(cf.msdu, tvb(24, n)) end
  return tvb:len()
end
ethertype:add(0x22E7, cnm)

local cntag = Proto("dcbkit_cntag", "CN-TAG")
local cnt_flow = ProtoField.uint16("dcbkit_cntag.flow", "Flow id", base.DEC)
local cnt_type = ProtoField.uint16("dcbkit_cntag.type", "EtherType", base.HEX)
cntag.fields = { cnt_flow, cnt_type }
function cntag.dissector(tvb, pinfo, tree)
  local t = tree:add(cntag, tvb(0, 4))
  t:add(cnt_flow, tvb(0, 2))
  t:add(cnt_type, tvb(2, 2))
  ethertype:try(tvb(2, 2):uint(), tvb(4):tvb(), pinfo, tree)
  return tvb:len()
end
ethertype:add(0x22E9, cntag)
