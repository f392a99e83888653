/** clipboard.read / write / clear against xclip, the usual command-line peer, on the test desktop. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, expect, inject, test } from 'vitest';
import { methods } from '../../src/helper-client/protocol.js';
import { eventually } from '../support/text.js';
import { xclipOn } from '../support/xclip.js';
import { useHelper } from './helper.js';

const env = inject('desktopEnv');
const { helper, processes } = useHelper(env);
const xclip = xclipOn(env, processes);

/** Above xclip's and the helper's single-request sizes: both sides must use INCR. */
const LARGE = 'large ✓ text, line after line\n'.repeat(50_000);

afterEach(async () => {
  await processes.stopAll();
  await helper.call('clipboard.clear', {});
});

test('clipboard.write: xclip reads the text back, Unicode intact, with the text targets offered', async () => {
  const text = 'Grüße, 世界 ✓ — "quoted"\nsecond line';
  expect(await helper.call('clipboard.write', { text })).toEqual({});
  expect(xclip.out().toString('utf8')).toBe(text);
  expect(xclip.out('TARGETS').toString('utf8').split('\n')).toEqual(
    expect.arrayContaining(['TARGETS', 'UTF8_STRING', 'STRING', 'TEXT', 'text/plain;charset=utf-8']),
  );
  // STRING is Latin-1; characters outside it cannot be carried, so check with text that fits.
  await helper.call('clipboard.write', { text: 'café' });
  expect(xclip.out('STRING')).toEqual(Buffer.from('café', 'latin1'));
  const read = await helper.call('clipboard.read', {});
  expect(methods['clipboard.read'].result.parse(read)).toEqual(read);
  expect(read.text).toBe('café');
});

test('clipboard.read: text another client copied, with the types it offers', async () => {
  const text = 'copied by xclip: ½ ✓ 日本';
  await xclip.owns(text);
  const read = await helper.call('clipboard.read', {});
  expect(read.text).toBe(text);
  expect(read.types).toContain('UTF8_STRING');
});

test('a text over a megabyte goes both ways (INCR)', async () => {
  expect(Buffer.byteLength(LARGE)).toBeGreaterThan(1024 * 1024);
  await helper.call('clipboard.write', { text: LARGE });
  expect(xclip.out().toString('utf8') === LARGE).toBe(true);

  await xclip.owns(`${LARGE}from xclip`);
  const read = await helper.call('clipboard.read', {});
  expect(read.text?.length).toBe(LARGE.length + 'from xclip'.length);
  expect(read.text === `${LARGE}from xclip`).toBe(true);
});

test('non-text contents are reported by type, without text', async () => {
  const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  await xclip.owns(png, 'image/png');
  expect(await helper.call('clipboard.read', {})).toEqual({ types: ['image/png'] });
});

test('clipboard.clear empties the clipboard, whoever owned it', async () => {
  await helper.call('clipboard.write', { text: 'to be cleared' });
  expect(await helper.call('clipboard.clear', {})).toEqual({});
  expect(await helper.call('clipboard.read', {})).toEqual({ types: [] });
  expect(() => xclip.out()).toThrow();

  await xclip.owns('also to be cleared');
  await helper.call('clipboard.clear', {});
  expect(await helper.call('clipboard.read', {})).toEqual({ types: [] });
});

test('clipboard.watch: each change of the clipboard, by another client or by the helper, is notified', async () => {
  let changes = 0;
  const stop = helper.onNotification('clipboard.changed', () => changes++);
  try {
    expect(await helper.call('clipboard.watch', {})).toEqual({});
    expect(await helper.call('clipboard.watch', {})).toEqual({});
    await xclip.owns('copied while watched');
    await expect.poll(() => changes).toBeGreaterThanOrEqual(1);
    const afterXclip = changes;
    await helper.call('clipboard.write', { text: 'written by the helper' });
    await expect.poll(() => changes).toBeGreaterThan(afterXclip);
  } finally {
    stop();
  }
});

test('clipboard.owner: the process owning the text selected last (PRIMARY) or the clipboard, and none once it exits', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'macpilot-primary-'));
  const file = join(folder, 'selected');
  writeFileSync(file, 'selected text');
  const owner = processes.start('xclip', ['-quiet', '-selection', 'primary', '-i', file]);
  const answer = await eventually('xclip to own PRIMARY', async () => {
    const owned = await helper.call('clipboard.owner', { selection: 'primary' });
    return owned.pid === undefined ? undefined : owned;
  });
  expect(methods['clipboard.owner'].result.parse(answer)).toEqual({ known: true, pid: owner.pid });
  // The clipboard's owner is another matter: another xclip, then the helper itself.
  const copier = processes.start('xclip', ['-quiet', '-selection', 'clipboard', '-i', file]);
  await eventually('xclip to own the clipboard', async () =>
    (await helper.call('clipboard.owner', { selection: 'clipboard' })).pid === copier.pid ? true : undefined,
  );
  await helper.call('clipboard.write', { text: 'copied' });
  const clipboard = await helper.call('clipboard.owner', { selection: 'clipboard' });
  expect(clipboard.known).toBe(true);
  expect([owner.pid, copier.pid, undefined]).not.toContain(clipboard.pid);
  expect(await helper.call('clipboard.owner', { selection: 'primary' })).toEqual({
    known: true,
    pid: owner.pid,
  });
  await processes.stop(owner.pid!);
  expect(await helper.call('clipboard.owner', { selection: 'primary' })).toEqual({ known: true });
  rmSync(folder, { recursive: true, force: true });
});
