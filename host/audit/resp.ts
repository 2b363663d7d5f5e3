// A minimal Redis client for reading SONiC's CONFIG_DB (database 4): RESP2 requests as arrays of bulk
// strings, replies parsed from the Redis protocol specification (redis.io/docs/latest/develop/
// reference/protocol-spec: `+` simple string, `-` error, `:` integer, `$` bulk string, `*` array,
// lengths -1 for null). Only what the audit needs: SELECT, SCAN and HGETALL, pipelined, one
// connection, a deadline for the whole read. Every failure (no server, a refused command, a reply
// that is not RESP, the deadline) is an InputError naming --sonic-redis.
//
// State: the bytes received and not yet parsed, and a FIFO of the requests awaiting a reply
// (Redis answers in request order). Invariant: a reply is consumed only once it is complete.
import { createConnection, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { InputError } from '../errors/errors.js';

export type RespValue = string | number | null | RespValue[] | RespError;

/** An error reply of the server (`-ERR ...`): a value, not a failure of the protocol. */
export class RespError {
  constructor(readonly message: string) {}
}

/** Bytes that are not RESP: the only error parseReply throws. */
export class RespProtocolError extends Error {
  override name = 'RespProtocolError';
}

/** Nested arrays deeper than this are refused (CONFIG_DB replies nest two deep: SCAN's [cursor, keys]). */
export const MAX_DEPTH = 16;

/** The environment variable a password is read from when the address carries none. */
export const REDIS_PASSWORD_ENV = 'DCBKIT_REDIS_PASSWORD';

/** Credentials and database of a connection, from the URL (or REDIS_PASSWORD_ENV for the password). */
export interface RedisLogin { user?: string; password?: string; db?: number }

/**
 * Where a server listens: `unix:PATH`, `HOST:PORT` (`[v6]:PORT` for an IPv6 address), or a URL
 * `redis://[user[:password]@]host:port[/db]`, `rediss://...` for TLS (the URI scheme of
 * IANA's registry and redis-cli -u).
 */
export type RedisAddress = ({ path: string } | { host: string; port: number; tls?: boolean }) & RedisLogin;

const ADDRESS_FORMS = 'unix:PATH (a socket), HOST:PORT or redis://[user[:password]@]host:port[/db] (rediss:// for TLS)';

export function parseRedisUrl(url: string, env: NodeJS.ProcessEnv = process.env): RedisAddress {
  const bad = (why: string) => new InputError({ path: '--sonic-redis', rule: `${why}; give ${ADDRESS_FORMS}, got ${JSON.stringify(maskedUrl(url))}` });
  const password = env[REDIS_PASSWORD_ENV] || undefined;
  if (url.startsWith('unix:')) {
    const path = url.slice(5);
    if (!path) throw bad('empty socket path');
    return { path, password };
  }
  const u = /^(rediss?):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?(\[[0-9A-Fa-f:.]+\]|[^:\s/@]+):(\d{1,5})(?:\/(\d{1,2}))?\/?$/.exec(url);
  const m = u ? null : /^(?:\[([0-9A-Fa-f:.]+)\]|([^:\s/]+)):(\d{1,5})$/.exec(url);
  if (!u && !m) throw bad(/^\w+:\/\//.test(url) && !/^rediss?:/.test(url) ? 'not a redis:// or rediss:// URL' : 'not an address');
  const port = Number(u ? u[5] : m![3]);
  if (port < 1 || port > 65535) throw bad('the port must be 1..65535');
  if (m) return { host: m[1] ?? m[2], port, password };
  const db = u![6] === undefined ? undefined : Number(u![6]);
  if (db !== undefined && db > 15) throw bad('the database must be 0..15');
  const host = u![4].replace(/^\[|\]$/g, '');
  const decode = (s: string | undefined) => (s ? decodeURIComponent(s) : undefined);
  return { host, port, tls: u![1] === 'rediss', user: decode(u![2]), password: decode(u![3]) ?? password, db };
}

/**
 * Parses one reply at `at`; returns it and the offset after it, or undefined when it is not complete
 * yet. Throws RespProtocolError (only) on bytes that cannot start or continue a reply.
 */
export function parseReply(buf: Buffer, at: number, depth = 0): { value: RespValue; next: number } | undefined {
  if (depth > MAX_DEPTH) throw new RespProtocolError(`arrays nested deeper than ${MAX_DEPTH}`);
  if (at >= buf.length) return undefined;
  const eol = buf.indexOf('\r\n', at);
  if (eol < 0) return undefined;
  const type = String.fromCharCode(buf[at]);
  const line = buf.toString('utf8', at + 1, eol);
  const after = eol + 2;
  const int = () => {
    if (!/^-?\d{1,15}$/.test(line)) throw new RespProtocolError(`bad length or integer ${JSON.stringify(line.slice(0, 40))}`);
    return Number(line);
  };
  switch (type) {
    case '+':
      return { value: line, next: after };
    case '-':
      return { value: new RespError(line), next: after };
    case ':':
      return { value: int(), next: after };
    case '$': {
      const n = int();
      if (n < 0) return { value: null, next: after };
      if (buf.length < after + n + 2) return undefined;
      if (buf[after + n] !== 0x0d || buf[after + n + 1] !== 0x0a) throw new RespProtocolError(`a bulk string of ${n} bytes is not followed by CRLF`);
      return { value: buf.toString('utf8', after, after + n), next: after + n + 2 };
    }
    case '*': {
      const n = int();
      if (n < 0) return { value: null, next: after };
      const items: RespValue[] = [];
      let next = after;
      for (let i = 0; i < n; i++) {
        const r = parseReply(buf, next, depth + 1);
        if (!r) return undefined;
        items.push(r.value);
        next = r.next;
      }
      return { value: items, next };
    }
    default:
      throw new RespProtocolError(`reply type byte 0x${buf[at].toString(16).padStart(2, '0')} is not RESP`);
  }
}

/** A server's error reply as a problem: AUTH's arguments are never quoted, NOAUTH says where a password goes. */
function refusal(where: string, args: readonly string[], message: string): string {
  const what = args[0] === 'AUTH' ? 'AUTH' : `${args[0]} ${args[1] ?? ''}`.trim();
  const hint = /^NOAUTH\b/.test(message) ? `; give the password in the URL (redis://:PASSWORD@host:port) or in $${REDIS_PASSWORD_ENV}` : '';
  return `${where} refused ${what}: ${message}${hint}`;
}

/** The address as shown in messages and reports: a password in it is masked. */
export function maskedUrl(url: string): string {
  return url.replace(/^(rediss?:\/\/[^:@/]*):[^@/]*@/, '$1:***@');
}

function encodeCommand(args: string[]): Buffer {
  const parts = [`*${args.length}\r\n`];
  for (const a of args) parts.push(`$${Buffer.byteLength(a)}\r\n${a}\r\n`);
  return Buffer.from(parts.join(''), 'utf8');
}

export class RedisConnection {
  private pending: { resolve: (v: RespValue) => void; reject: (e: Error) => void }[] = [];
  private received: Buffer = Buffer.alloc(0);
  private failure: Error | undefined;

  private constructor(private readonly socket: Socket, private readonly where: string) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (e) => this.fail(new InputError({ path: '--sonic-redis', rule: `${where}: ${e.message}` })));
    socket.on('close', () => this.fail(new InputError({ path: '--sonic-redis', rule: `${where} closed the connection` })));
  }

  /** Connects, or fails with a problem naming the address and the reason, within `timeoutMs`. */
  static connect(address: RedisAddress, timeoutMs: number): Promise<RedisConnection> {
    const where = 'path' in address ? `unix:${address.path}` : `${address.host}:${address.port}`;
    return new Promise((resolve, reject) => {
      const socket = 'path' in address
        ? createConnection({ path: address.path })
        : address.tls
          ? tlsConnect({ host: address.host, port: address.port, servername: isIP(address.host) ? undefined : address.host })
          : createConnection({ host: address.host, port: address.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new InputError({ path: '--sonic-redis', rule: `${where}: no connection within ${timeoutMs / 1000} s` }));
      }, timeoutMs);
      socket.once(('tls' in address && address.tls) ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        resolve(new RedisConnection(socket, where));
      });
      socket.once('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const why = e.code === 'ENOENT' ? 'no such socket' : e.code === 'ECONNREFUSED' ? 'connection refused (is redis-server listening there?)' : e.message;
        reject(new InputError({ path: '--sonic-redis', rule: `cannot connect to ${where}: ${why}` }));
      });
    });
  }

  /** Sends every command at once and resolves their replies in order; a server error reply is a problem. */
  async pipeline(commands: string[][]): Promise<RespValue[]> {
    if (this.failure) throw this.failure;
    const replies = commands.map(
      (args) =>
        new Promise<RespValue>((resolve, reject) => {
          this.pending.push({
            resolve: (v) => (v instanceof RespError ? reject(new InputError({ path: '--sonic-redis', rule: refusal(this.where, args, v.message) })) : resolve(v)),
            reject,
          });
        }),
    );
    this.socket.write(Buffer.concat(commands.map(encodeCommand)));
    return Promise.all(replies);
  }

  close(): void {
    this.failure ??= new InputError({ path: '--sonic-redis', rule: 'connection closed' });
    this.pending = [];
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.received = this.received.length ? Buffer.concat([this.received, chunk]) : chunk;
    let at = 0;
    try {
      for (let r = parseReply(this.received, at); r && this.pending.length; r = parseReply(this.received, at)) {
        at = r.next;
        this.pending.shift()!.resolve(r.value);
      }
    } catch (e) {
      if (!(e instanceof RespProtocolError)) throw e;
      this.fail(new InputError({ path: '--sonic-redis', rule: `${this.where} sent a reply that is not RESP (is it a redis server?): ${e.message}` }));
      return;
    }
    this.received = this.received.subarray(at);
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    for (const p of this.pending.splice(0)) p.reject(e);
    this.socket.destroy();
  }
}

/** HGETALL's flat [field, value, ...] reply as a record. */
function hashOf(v: RespValue, key: string): Record<string, string> {
  if (!Array.isArray(v) || v.length % 2 || v.some((x) => typeof x !== 'string')) {
    throw new InputError({ path: '--sonic-redis', rule: `HGETALL ${key} did not return field/value pairs` });
  }
  const out = Object.create(null) as Record<string, string>;
  for (let i = 0; i < v.length; i += 2) out[v[i] as string] = v[i + 1] as string;
  return out;
}

/**
 * The hashes of database `db` whose keys start with one of `prefixes` (`QUEUE|` ...): SCAN for the
 * keys (never KEYS, which blocks the server), then one pipelined HGETALL per key. The whole read
 * must finish within `timeoutMs`.
 */
export async function readHashes(address: RedisAddress, defaultDb: number, prefixes: string[], timeoutMs = 10_000): Promise<Map<string, Record<string, string>>> {
  const db = address.db ?? defaultDb;
  const conn = await RedisConnection.connect(address, timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new InputError({ path: '--sonic-redis', rule: `no complete reply within ${timeoutMs / 1000} s` }));
      conn.close();
    }, timeoutMs);
  });
  const read = async () => {
    if (address.password !== undefined) {
      const [ok] = await conn.pipeline([address.user ? ['AUTH', address.user, address.password] : ['AUTH', address.password]]);
      if (ok !== 'OK') throw new InputError({ path: '--sonic-redis', rule: `AUTH was answered ${JSON.stringify(ok)}, not OK` });
    }
    const [selected] = await conn.pipeline([['SELECT', String(db)]]);
    // Redis answers SELECT with the simple string OK; anything else is not a redis server doing what was asked.
    if (selected !== 'OK') throw new InputError({ path: '--sonic-redis', rule: `SELECT ${db} was answered ${JSON.stringify(selected)}, not OK` });
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [reply] = await conn.pipeline([['SCAN', cursor, 'COUNT', '1000']]);
      if (!Array.isArray(reply) || reply.length !== 2 || typeof reply[0] !== 'string' || !Array.isArray(reply[1])) {
        throw new InputError({ path: '--sonic-redis', rule: 'SCAN did not return [cursor, keys]' });
      }
      cursor = reply[0];
      for (const k of reply[1]) if (typeof k === 'string' && prefixes.some((p) => k.startsWith(p))) keys.push(k);
    } while (cursor !== '0');
    const unique = [...new Set(keys)].sort();
    const replies = unique.length ? await conn.pipeline(unique.map((k) => ['HGETALL', k])) : [];
    return new Map(unique.map((k, i) => [k, hashOf(replies[i], k)]));
  };
  try {
    return await Promise.race([read(), deadline]);
  } finally {
    clearTimeout(timer);
    conn.close();
  }
}
