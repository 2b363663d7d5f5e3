// Test helper: tshark -T pdml as a tree. PDML keeps every field in wire order with its position,
// where -T json merges repeated labels (two "Unknown Application" entries, for instance).
import { spawnSync } from 'node:child_process';
import { requireTool } from '../helpers.js';

export interface PdmlNode {
  name: string;
  show: string;
  value: string;
  pos: number;
  children: PdmlNode[];
}

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

export function parsePdml(xml: string): PdmlNode[] {
  const packets: PdmlNode[] = [];
  const stack: PdmlNode[] = [];
  const re = /<(\/?)(packet|proto|field)\b([^>]*?)(\/?)>/g;
  for (let m = re.exec(xml); m; m = re.exec(xml)) {
    const [, close, tag, attrText, selfClose] = m;
    if (close) {
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(/(\w+)="([^"]*)"/g)) attrs[a[1]] = unescape(a[2]);
    const node: PdmlNode = { name: tag === 'packet' ? 'packet' : attrs.name ?? '', show: attrs.show ?? attrs.showname ?? '', value: attrs.value ?? '', pos: Number(attrs.pos ?? 0), children: [] };
    if (stack.length) stack[stack.length - 1].children.push(node);
    else packets.push(node);
    if (!selfClose) stack.push(node);
  }
  return packets;
}

export function tsharkPdml(pcap: string, extra: string[] = []): PdmlNode[] {
  requireTool('tshark');
  const r = spawnSync('tshark', ['-r', pcap, '-T', 'pdml', ...extra], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`tshark failed (${r.status}): ${r.stderr}`);
  return parsePdml(r.stdout);
}

/** Every descendant field, depth first, in wire order. */
export function fields(n: PdmlNode): PdmlNode[] {
  return n.children.flatMap((c) => [c, ...fields(c)]);
}

export function find(n: PdmlNode, name: string): PdmlNode | undefined {
  return fields(n).find((f) => f.name === name);
}
