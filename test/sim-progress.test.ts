// The run/sweep progress bar (host/sim/progress.ts): drawn only on a terminal, never with --json,
// and only once a run has lasted a second.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { progress } from '../host/sim/progress.js';

/** A stream that claims to be a terminal and records what is drawn on it. */
function fakeTerminal(): { stream: NodeJS.WritableStream; text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({ write(c, _e, cb) { chunks.push(String(c)); cb(); } });
  Object.assign(w, { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  return { stream: w, text: () => chunks.join('') };
}

describe('progress', () => {
  it('draws nothing when stdout is not a terminal', () => {
    const t = fakeTerminal();
    let clock = 0;
    const p = progress(10, { stream: t.stream, stdoutIsTTY: false, now: () => clock });
    clock = 5000;
    p.tick(5);
    p.stop();
    expect(t.text()).toBe('');
  });

  it('draws nothing with --json, even on a terminal', () => {
    const t = fakeTerminal();
    let clock = 0;
    const p = progress(10, { json: true, stream: t.stream, stdoutIsTTY: true, now: () => clock });
    clock = 5000;
    p.tick(5);
    p.stop();
    expect(t.text()).toBe('');
  });

  it('stays hidden during the first second, then shows done/total', () => {
    const t = fakeTerminal();
    let clock = 0;
    const p = progress(10, { label: 'sweep', unit: 'points', stream: t.stream, stdoutIsTTY: true, now: () => clock });
    clock = 999;
    p.tick(3);
    expect(t.text()).toBe('');
    clock = 1000;
    p.tick(1);
    expect(t.text()).toContain('sweep [');
    expect(t.text()).toContain('4/10 points');
    p.stop();
    p.stop(); // idempotent
  });

  it('a run that ends within the first second never draws', () => {
    const t = fakeTerminal();
    let clock = 0;
    const p = progress(100, { stream: t.stream, stdoutIsTTY: true, now: () => clock });
    for (let i = 0; i < 100; i++) { clock += 5; p.tick(); }
    p.stop();
    expect(t.text()).toBe('');
  });
});
