// audit --sonic-redis against a password-protected redis-server on 127.0.0.1 (a free TCP port,
// started and stopped here): redis:// URLs with a password, a user, a database; the password from
// $DCBKIT_REDIS_PASSWORD; an empty database in one line; the RESP reader strict on what SELECT
// returns and on a bulk string's terminator; lldptool's failure pointing at --no-lldptool.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRedisUrl, parseReply, RespProtocolError } from '../../host/audit/resp.js';
import { runTool } from '../../host/audit/linux.js';
import { requireTool, runCli, runCliAsync } from '../helpers.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const CONFIG = 'examples/configs/roce.yaml';
const PASSWORD = 'audit s3cret';
let dir: string;
let port: number;
let redis: RedisServer | undefined;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
const redisCli = (input: string, db = 4) =>
  spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), '-n', String(db), '--no-auth-warning', '-a', PASSWORD], { input, encoding: 'utf8' });
const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const url = (auth: string, db = '') => `redis://${auth}127.0.0.1:${port}${db}`;

beforeAll(async () => {
  requireTool('redis-server');
  requireTool('redis-cli');
  dir = mkdtempSync(join(tmpdir(), 'dcbkit-audit-login-'));
  const gen = runCli(['codegen', CONFIG, '--target', 'sonic', '--out', join(dir, 'gen')]);
  expect(gen.status, gen.stderr).toBe(0);
  const db = JSON.parse(readFileSync(join(dir, 'gen', 'sonic', 'config_db.json'), 'utf8')) as Record<string, Record<string, Record<string, string>>>;
  port = await freePort();
  redis = await startRedisServer(dir, ['--port', String(port), '--bind', '127.0.0.1', '--requirepass', PASSWORD], () => redisCli('PING\n').stdout.includes('PONG'));
  const lines = Object.entries(db).flatMap(([t, rows]) => Object.entries(rows).map(([k, v]) => `HSET ${quote(`${t}|${k}`)} ${Object.entries(v).map(([f, x]) => `${quote(f)} ${quote(x)}`).join(' ')}`));
  const load = redisCli(lines.join('\n') + '\n');
  expect(load.stdout).not.toMatch(/ERR/);
});

afterAll(async () => {
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('audit --sonic-redis with a password', () => {
  it('redis://:PASSWORD@host:port reads CONFIG_DB and audits clean; the report masks the password', () => {
    const r = runCli(['audit', CONFIG, '--sonic-redis', url(`:${encodeURIComponent(PASSWORD)}@`)]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`sonic-redis:redis://:***@127.0.0.1:${port}`);
    expect(r.stdout).not.toContain('s3cret');
  });

  it('redis://default:PASSWORD@host:port/4 (user and database) and $DCBKIT_REDIS_PASSWORD with HOST:PORT work alike', () => {
    expect(runCli(['audit', CONFIG, '--sonic-redis', url(`default:${encodeURIComponent(PASSWORD)}@`, '/4')]).status).toBe(0);
    const env = runCli(['audit', CONFIG, '--sonic-redis', `127.0.0.1:${port}`], { env: { DCBKIT_REDIS_PASSWORD: PASSWORD } });
    expect(env.stderr).toBe('');
    expect(env.status).toBe(0);
  });

  it('no password or a wrong one is bad input (exit 2) that says where a password goes and never echoes it', () => {
    const none = runCli(['audit', CONFIG, '--sonic-redis', url('')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('NOAUTH');
    expect(none.stderr).toContain('$DCBKIT_REDIS_PASSWORD');
    const wrong = runCli(['audit', CONFIG, '--sonic-redis', url(':hunter2@')]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/^--sonic-redis: 127\.0\.0\.1:\d+ refused AUTH: WRONGPASS/);
    expect(wrong.stderr).not.toContain('hunter2');
  });

  it('an empty database is one line naming the port and the database', () => {
    const r = runCli(['audit', CONFIG, '--sonic-redis', url(`:${encodeURIComponent(PASSWORD)}@`, '/5')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('--sonic-redis: no tables for Ethernet0 in db 5: wrong database or port?\n');
  });

  it('URL forms: rediss:// asks for TLS, a database past 15 and other schemes are refused', () => {
    expect(parseRedisUrl('rediss://u:p@h.example:6380/2', {})).toEqual({ host: 'h.example', port: 6380, tls: true, user: 'u', password: 'p', db: 2 });
    expect(parseRedisUrl('redis://[::1]:6379', { DCBKIT_REDIS_PASSWORD: 'x' })).toMatchObject({ host: '::1', port: 6379, password: 'x' });
    expect(() => parseRedisUrl('redis://h:6379/16', {})).toThrow(/the database must be 0..15/);
    expect(() => parseRedisUrl('http://h:6379', {})).toThrow(/not a redis:\/\/ or rediss:\/\/ URL/);
  });
});

describe('the RESP reader is strict', () => {
  it('a bulk string not followed by CRLF is a protocol error, not a value', () => {
    expect(() => parseReply(Buffer.from('$2\r\nOKxx'), 0)).toThrow(RespProtocolError);
    expect(parseReply(Buffer.from('$2\r\nOK\r\n'), 0)).toEqual({ value: 'OK', next: 8 });
  });

  /** A server that answers every request with `reply` (after SELECT's, when `select` is given). */
  async function fake(replies: string[], run: (where: string) => Promise<void>) {
    const clients = new Set<Socket>();
    const server: Server = createServer((c) => {
      clients.add(c);
      c.on('error', () => {});
      let n = 0;
      c.on('data', () => c.write(replies[Math.min(n++, replies.length - 1)]));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      await run(`127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      for (const c of clients) c.destroy();
      server.close();
    }
  }

  it('SELECT answered with an integer: exit 2 naming what came back', async () => {
    await fake([':1\r\n'], async (where) => {
      const r = await runCliAsync(['audit', CONFIG, '--sonic-redis', where]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toBe('--sonic-redis: SELECT 4 was answered 1, not OK');
    });
  });

  it('a SCAN reply whose bulk string has a bad terminator: exit 2, not RESP', async () => {
    await fake(['+OK\r\n', '*2\r\n$1\r\n0XX*0\r\n'], async (where) => {
      const r = await runCliAsync(['audit', CONFIG, '--sonic-redis', where]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toMatch(/sent a reply that is not RESP .*a bulk string of 1 bytes is not followed by CRLF$/);
    });
  });
});

describe('audit --linux without lldpad', () => {
  it("lldptool's failure says --no-lldptool audits the kernel's DCB state alone", () => {
    let message = '';
    try {
      runTool('lldptool', ['-t', '-i', 'dcbkit-none0', '-V', 'ETS-CFG', '-c', 'willing']);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('--no-lldptool');
  });
});
