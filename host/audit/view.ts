// A device's DCB settings as one flat view, path -> value, and the difference of two views. `dcbkit
// audit` builds both views with the same function: one from what the device reports, one from what
// dcbkit's own generators write for the config (codegen/linux.ts dcbIntent and lldpadIntent,
// codegen/sonic.ts sonicTables), so the audit can only call "intended" what codegen emits.
//
// Invariants: a value is a string as the device shows it after one normalisation shared by both
// sides (lists sorted, booleans on/off); an intended value of null means "not set by the
// generator, so not audited" (the device may hold anything there). A path ending in `[i]` belongs
// to the array named by the path without that index: when one side has no element of such an array
// at all (a map not bound, a table missing), the difference is one line for the array, not one per
// element.

export interface Difference {
  path: string;
  /** null: the device holds nothing there. */
  running: string | null;
  /** null: the config means nothing there (the device holds something the generators never write). */
  intended: string | null;
}

export class View {
  /** Insertion order is report order. */
  readonly values = new Map<string, string | null>();

  set(path: string, value: string | null): void {
    this.values.set(path, value);
  }

  /** `path[i]` for every i with a value (undefined: the device holds nothing at i). */
  array(path: string, values: readonly (string | number | boolean | null | undefined)[]): void {
    values.forEach((v, i) => {
      if (v !== undefined) this.set(`${path}[${i}]`, v === null ? null : show(v));
    });
  }

  /** Every path of `other` under `prefix`, prefixed (views of parts merged into one). */
  merge(other: View, prefix = ''): void {
    for (const [k, v] of other.values) this.set(prefix + k, v);
  }
}

/** Booleans as dcb and lldpad print them; numbers in decimal. */
export function show(v: string | number | boolean): string {
  return typeof v === 'boolean' ? (v ? 'on' : 'off') : String(v);
}

/** A set of small integers as a sorted comma list (`none` when empty): pfc_enable, prio-pfc. */
export function intSet(values: Iterable<number>): string {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  return sorted.length ? sorted.join(',') : 'none';
}

const ELEMENT = /^(.*)\[(\d+)\]$/;

/** The differences of `running` from `intended`, in the intended view's order, then what only the device has. */
export function diffViews(running: View, intended: View): Difference[] {
  const keys = [...intended.values.keys(), ...[...running.values.keys()].filter((k) => !intended.values.has(k))];
  const arrayOf = (k: string) => ELEMENT.exec(k)?.[1];
  const hasAny = (view: View, array: string) => [...view.values.keys()].some((k) => arrayOf(k) === array);
  const out: Difference[] = [];
  const collapsed = new Set<string>();
  for (const k of keys) {
    const want = intended.values.has(k) ? intended.values.get(k)! : null;
    if (intended.values.has(k) && want === null) continue;
    const got = running.values.get(k) ?? null;
    if (got === want) continue;
    const array = arrayOf(k);
    if (array !== undefined && (!hasAny(running, array) || !hasAny(intended, array))) {
      if (collapsed.has(array)) continue;
      collapsed.add(array);
      out.push({ path: array, running: listOf(running, array), intended: listOf(intended, array) });
      continue;
    }
    out.push({ path: k, running: got, intended: want });
  }
  return out;
}

/** An array of the view as `i:value i:value ...` (null when the view has none of it). */
function listOf(view: View, array: string): string | null {
  const items = [...view.values].flatMap(([k, v]) => {
    const m = ELEMENT.exec(k);
    return m && m[1] === array && v !== null ? [`${m[2]}:${v}`] : [];
  });
  return items.length ? items.join(' ') : null;
}

/** Number of settings the audit compares (every intended path that is audited). */
export function comparedCount(intended: View): number {
  return [...intended.values.values()].filter((v) => v !== null).length;
}

export function formatDifference(d: Difference): string {
  return `${d.path}: running ${d.running ?? 'absent'}, intended ${d.intended ?? 'absent'}`;
}
