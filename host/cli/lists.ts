// Lists on the command line (docs/units.md, "Lists"): a flag that takes several values takes them
// comma-separated, repeated, or both (`--target sonic,linux --target p4`), for every such flag alike.
import { InputError } from '../errors/errors.js';

/**
 * The items of a list flag as typed: each occurrence split at commas, spaces around an item dropped.
 * An empty item (`a,,b`, a trailing comma) is refused, naming the flag: it is a slip, not a value.
 */
export function splitList(values: string | readonly string[] | undefined, flag: string): string[] {
  if (values === undefined) return [];
  const items = (typeof values === 'string' ? [values] : values).flatMap((v) => String(v).split(',')).map((v) => v.trim());
  if (items.some((v) => v === '')) {
    throw new InputError({ path: flag, rule: `a list of names separated by commas, without empty items (got ${JSON.stringify((typeof values === 'string' ? [values] : values).join(','))})` });
  }
  return items;
}
