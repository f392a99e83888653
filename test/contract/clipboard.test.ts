/** clipboard.read / write / clear against xclip, the usual command-line peer, on the test desktop. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, expect, inject, test } from 'vitest';
import type { HelperClient } from '../../src/helper/client.js';
import { methods } from '../../src/helper/protocol.js';
import { Processes } from '../support/processes.js';
import { eventually } from '../support/text.js';
import { startHelper } from './helper.js';

const env = inject('desktopEnv');
const processes = new Processes(env);
const folder = mkdtempSync(join(tmpdir(), 'macpilot-clipboard-'));
let helper: HelperClient;

/** Above xclip's and the helper's single-request sizes: both sides must use INCR. */
const LARGE = 'large ✓ text, line after line\n'.repeat(50_000);

/** What xclip reads from the clipboard (one-shot), as bytes. */
const xclipOut = (target?: string) =>
  execFileSync('xclip', ['-o', '-selection', 'clipboard', ...(target ? ['-t', target] : [])], {
    env,
    maxBuffer: 64 * 1024 * 1024,
  });

/** xclip owns the clipboard with this file's contents until it is stopped. */
async function xclipOwns(contents: string | Buffer, target?: string): Promise<void> {
  const file = join(folder, 'contents');
  writeFileSync(file, contents);
  processes.start('xclip', [
    '-quiet',
    '-selection',
    'clipboard',
    ...(target ? ['-t', target] : []),
    '-i',
    file,
  ]);
  await eventually('xclip to own the clipboard', async () => {
    const { types } = await helper.call('clipboard.read', {});
    return types.length > 0 ? true : undefined;
  });
}

beforeAll(() => {
  helper = startHelper(env);
});
/** Each test starts with an empty clipboard, so waiting for xclip's contents waits for xclip. */
afterEach(async () => {
  await processes.stopAll();
  await helper.call('clipboard.clear', {});
});
afterAll(async () => {
  await helper.close();
  rmSync(folder, { recursive: true, force: true });
});

test('clipboard.write: xclip reads the text back, Unicode intact, with the text targets offered', async () => {
  const text = 'Grüße, 世界 ✓ — "quoted"\nsecond line';
  expect(await helper.call('clipboard.write', { text })).toEqual({});
  expect(xclipOut().toString('utf8')).toBe(text);
  expect(xclipOut('TARGETS').toString('utf8').split('\n')).toEqual(
    expect.arrayContaining(['TARGETS', 'UTF8_STRING', 'STRING', 'TEXT', 'text/plain;charset=utf-8']),
  );
  // STRING is Latin-1; characters outside it cannot be carried, so check with text that fits.
  await helper.call('clipboard.write', { text: 'café' });
  expect(xclipOut('STRING')).toEqual(Buffer.from('café', 'latin1'));
  const read = await helper.call('clipboard.read', {});
  expect(methods['clipboard.read'].result.parse(read)).toEqual(read);
  expect(read.text).toBe('café');
});

test('clipboard.read: text another client copied, with the types it offers', async () => {
  const text = 'copied by xclip: ½ ✓ 日本';
  await xclipOwns(text);
  const read = await helper.call('clipboard.read', {});
  expect(read.text).toBe(text);
  expect(read.types).toContain('UTF8_STRING');
});

test('a text over a megabyte goes both ways (INCR)', async () => {
  expect(Buffer.byteLength(LARGE)).toBeGreaterThan(1024 * 1024);
  await helper.call('clipboard.write', { text: LARGE });
  expect(xclipOut().toString('utf8') === LARGE).toBe(true);

  await xclipOwns(`${LARGE}from xclip`);
  const read = await helper.call('clipboard.read', {});
  expect(read.text?.length).toBe(LARGE.length + 'from xclip'.length);
  expect(read.text === `${LARGE}from xclip`).toBe(true);
});

test('non-text contents are reported by type, without text', async () => {
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  await xclipOwns(png, 'image/png');
  expect(await helper.call('clipboard.read', {})).toEqual({ types: ['image/png'] });
});

test('clipboard.clear empties the clipboard, whoever owned it', async () => {
  await helper.call('clipboard.write', { text: 'to be cleared' });
  expect(await helper.call('clipboard.clear', {})).toEqual({});
  expect(await helper.call('clipboard.read', {})).toEqual({ types: [] });
  expect(() => xclipOut()).toThrow();

  await xclipOwns('also to be cleared');
  await helper.call('clipboard.clear', {});
  expect(await helper.call('clipboard.read', {})).toEqual({ types: [] });
});
