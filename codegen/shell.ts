// Quoting for the Linux target's outputs: POSIX sh words for the scripts, iproute2 batch words for
// tc.batch. Every value a script interpolates that is not a number the generator made goes through
// shellQuote, so a valid interface name such as `eth0;reboot` stays one inert word.

/** A POSIX sh word for `value`: bare when it holds only characters no shell treats specially,
 * else single-quoted (a single quote inside becomes '\'' ). The one quoting rule of every script. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_.,:=@%+\/-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/**
 * A word for tc -batch (iproute2 lib/utils.c getcmdline/makeargs): `#` anywhere starts a comment,
 * a word that opens with ' or " runs to the next same quote, no escapes. So a name with `#`, or one
 * opening with a quote it cannot be wrapped around, has no spelling there (undefined).
 */
export function tcBatchWord(name: string): string | undefined {
  if (name.includes('#')) return undefined;
  if (name[0] !== "'" && name[0] !== '"') return name;
  if (!name.includes('"')) return `"${name}"`;
  if (!name.includes("'")) return `'${name}'`;
  return undefined;
}
