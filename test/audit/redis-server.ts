// A throw-away redis-server for the audit tests: started in the test's folder with no persistence,
// waited for until `ping()` answers, and stopped with SIGTERM (given 5 s before the test moves on).
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';

export interface RedisServer {
  stop(): Promise<void>;
}

/** Starts `redis-server` with `args` plus a private `--dir` and no saving; resolves once `ping()` is true. */
export async function startRedisServer(dir: string, args: string[], ping: () => boolean): Promise<RedisServer> {
  const child: ChildProcess = spawn('redis-server', [...args, '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !ping(); i++) await new Promise((r) => setTimeout(r, 100));
  expect(ping(), 'redis-server answers PING').toBe(true);
  return {
    async stop() {
      if (child.exitCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}
