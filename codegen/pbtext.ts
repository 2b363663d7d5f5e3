// Writers for protobuf messages held as plain objects, in the two textual encodings P4Runtime tools
// read: the protobuf text format (what protoc --encode and p4c's .txtpb use) and the proto3 JSON
// mapping (lowerCamelCase keys, bytes as base64, 64-bit integers as strings, enums by name).
// Field names in the objects are the .proto names (snake_case); values are numbers, strings,
// booleans, Uint8Array (bytes), PbEnum / PbU64 wrappers, nested objects or arrays (repeated).

export class PbEnum {
  constructor(readonly name: string) {}
}
export class PbU64 {
  constructor(readonly value: bigint | number) {}
}

export type PbValue = number | string | boolean | Uint8Array | PbEnum | PbU64 | PbMessage;
export interface PbMessage {
  [field: string]: PbValue | PbValue[] | undefined;
}

function textString(s: string | Uint8Array): string {
  const bytes = typeof s === 'string' ? new TextEncoder().encode(s) : s;
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22) out += '\\"';
    else if (b === 0x5c) out += '\\\\';
    else if (b >= 0x20 && b < 0x7f && typeof s === 'string') out += String.fromCharCode(b);
    else out += '\\x' + b.toString(16).padStart(2, '0');
  }
  return out + '"';
}

function isMessage(v: PbValue): v is PbMessage {
  return typeof v === 'object' && !(v instanceof Uint8Array) && !(v instanceof PbEnum) && !(v instanceof PbU64);
}

/** Protobuf text format, two-space indentation, fields in object order. */
export function toTextFormat(msg: PbMessage, indent = ''): string {
  let out = '';
  for (const [name, raw] of Object.entries(msg)) {
    if (raw === undefined) continue;
    for (const v of Array.isArray(raw) ? raw : [raw]) {
      if (isMessage(v)) out += `${indent}${name} {\n${toTextFormat(v, indent + '  ')}${indent}}\n`;
      else if (v instanceof PbEnum) out += `${indent}${name}: ${v.name}\n`;
      else if (v instanceof PbU64) out += `${indent}${name}: ${v.value}\n`;
      else if (v instanceof Uint8Array || typeof v === 'string') out += `${indent}${name}: ${textString(v)}\n`;
      else out += `${indent}${name}: ${v}\n`;
    }
  }
  return out;
}

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function jsonValue(v: PbValue): unknown {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof PbEnum) return v.name;
  if (v instanceof PbU64) return String(v.value);
  if (isMessage(v)) return toProto3Json(v);
  return v;
}

/** Proto3 JSON mapping as a plain object (stringify it for the file). */
export function toProto3Json(msg: PbMessage): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(msg)) {
    if (raw === undefined) continue;
    out[camel(name)] = Array.isArray(raw) ? raw.map(jsonValue) : jsonValue(raw);
  }
  return out;
}
