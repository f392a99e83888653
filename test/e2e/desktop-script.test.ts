/** `npx tsx scripts/desktop.ts`, as README's "Try it" runs it: it prints the desktop's environment and stops on SIGTERM. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../../scripts/desktop.ts', import.meta.url));

test('prints the exports of a running desktop, then stops it and removes its folder on SIGTERM', async () => {
  const child = spawn(TSX, [SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('# desktop running')) resolve();
    });
    void exited.then(() => reject(new Error(`the script ended first:\n${out}\n${err}`)));
  });
  const runtime = /^export XDG_RUNTIME_DIR='(.*)'$/m.exec(out)?.[1] ?? '';
  expect(out).toMatch(/^export DISPLAY=':\d+'$/m);
  expect(existsSync(runtime)).toBe(true);
  // The display's lock file names a live X server: an XWayland that a compositor starts takes a display without
  // one for free, and would remove this desktop's socket.
  const display = /^export DISPLAY=':(\d+)'$/m.exec(out)?.[1] ?? '';
  const lock = `/tmp/.X${display}-lock`;
  const holder = Number(readFileSync(lock, 'utf8').trim());
  expect(readFileSync(`/proc/${holder}/cmdline`, 'utf8')).toMatch(/(^|\/)(Xvfb|Xorg)\0/);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(existsSync(runtime)).toBe(false);
  expect(existsSync(lock)).toBe(false);
}, 60_000);

test('--help says how to use it and starts nothing; an unknown argument is a usage error', async () => {
  const run = (arg: string) =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(TSX, [SCRIPT, arg], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      child.once('exit', (code) => resolve({ code, out, err }));
    });
  const help = await run('--help');
  expect(help.code).toBe(0);
  expect(help.out).toMatch(
    /^Usage: npx tsx scripts\/desktop.ts \[--monitors=2 \| --session=sway \| --session=gnome \| --session=kde\]/,
  );
  expect(help.out).not.toContain('export DISPLAY');
  const wrong = await run('--bogus');
  expect(wrong.code).toBe(2);
  expect(wrong.err).toContain('desktop: unknown argument --bogus');
}, 60_000);
