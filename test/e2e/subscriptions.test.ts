/**
 * Resource subscriptions through a real client, driven by what others do on the desktop: text typed into
 * mousepad by xdotool updates its tree resource, gnome-calculator starting and quitting updates the app list,
 * xclip writing updates the clipboard resource; after unsubscribe nothing more is sent.
 */
import { execFileSync } from 'node:child_process';
import {
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { xclipOn } from '../support/xclip.js';

const env = inject('desktopEnv');
const { macpilot, processes, start } = useMacpilot(env);
const xclip = xclipOn(env, processes);
const updated: string[] = [];
let listChanged = 0;

beforeAll(() => {
  macpilot.client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => {
    updated.push(params.uri);
  });
  macpilot.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    listChanged++;
  });
});

const readText = async (uri: string) => {
  const [first] = (await macpilot.client.readResource({ uri })).contents;
  return first && 'text' in first ? first.text : '';
};
const count = (uri: string) => updated.filter((u) => u === uri).length;

test('text typed into mousepad by another program updates its tree resource', async () => {
  await start('mousepad', 'menu "File"');
  const uri = 'macpilot://app/mousepad/tree';
  await macpilot.client.subscribeResource({ uri });
  expect(await readText(uri)).not.toContain('typed by xdotool');
  execFileSync('xdotool', ['type', '--delay', '0', 'typed by xdotool'], { env });
  await expect.poll(() => count(uri), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  expect(await readText(uri)).toContain('typed by xdotool');

  await macpilot.client.unsubscribeResource({ uri });
  const after = count(uri);
  execFileSync('xdotool', ['type', '--delay', '0', ' and more'], { env });
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(count(uri)).toBe(after);
});

test('the app list resource is updated when gnome-calculator starts and when it quits', async () => {
  const uri = 'macpilot://apps';
  await macpilot.client.subscribeResource({ uri });
  const before = count(uri);
  const listedBefore = listChanged;
  const calculator = processes.start('gnome-calculator');
  await expect
    .poll(async () => (await readText(uri)).includes('"gnome-calculator"'), { timeout: 30_000 })
    .toBe(true);
  await expect.poll(() => count(uri), { timeout: 10_000 }).toBeGreaterThan(before);
  expect(listChanged).toBeGreaterThan(listedBefore);
  const started = count(uri);
  await processes.stop(calculator.pid);
  await expect.poll(() => count(uri), { timeout: 10_000 }).toBeGreaterThan(started);
  expect(await readText(uri)).not.toContain('"gnome-calculator"');
  await macpilot.client.unsubscribeResource({ uri });
});

test('the clipboard resource is updated when xclip writes, and no longer after unsubscribe', async () => {
  const uri = 'macpilot://clipboard';
  await macpilot.client.subscribeResource({ uri });
  const before = count(uri);
  await xclip.owns('written by xclip for the subscription');
  await expect.poll(() => count(uri), { timeout: 10_000 }).toBeGreaterThan(before);
  expect(await readText(uri)).toContain('written by xclip for the subscription');
  await macpilot.client.unsubscribeResource({ uri });
  const after = count(uri);
  await xclip.owns('written after unsubscribe');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(count(uri)).toBe(after);
});

test('a resource that changes with nothing watched cannot be subscribed to, and says so', async () => {
  await expect(macpilot.client.subscribeResource({ uri: 'macpilot://system/status' })).rejects.toThrow(
    /cannot be subscribed to/,
  );
});
