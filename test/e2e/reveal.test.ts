/**
 * reveal_in_finder on Linux through a real MCP client: Thunar (org.freedesktop.FileManager1, started here) opens
 * the file's folder with the file selected, read back through the accessibility tree; a missing path and a
 * session without any file manager are clear errors.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { startBareBus, startThunar } from '../support/daemons.js';
import { startMacpilot, useMacpilot } from '../support/mcp.js';
import { eventually } from '../support/text.js';
import { temporaryFolder } from '../support/temp.js';

const env = inject('desktopEnv');
const { macpilot, processes } = useMacpilot(env, ['--toolsets', 'all']);
// Spaces, a '#' and non-ASCII letters: the file:// URI must be percent-encoded for Thunar to find the file.
const folder = temporaryFolder('macpilot reveal #');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

test('Thunar shows the folder with the file selected', async () => {
  const thunar = await startThunar(processes, env);
  const file = join(folder, 'Quartalsbericht Q3 é.txt');
  writeFileSync(file, 'numbers\n');
  writeFileSync(join(folder, 'another.txt'), 'other\n');

  expect(await macpilot.ok('reveal_in_finder', { path: file })).toBe(`thunar shows ${file}.`);

  const app = String(thunar);
  const window = await eventually("Thunar's window on the folder", async () => {
    const out = await macpilot.call('find_elements', {
      app,
      role: 'window',
      name: `${basename(folder)} - Thunar`,
      match: 'exact',
    });
    return out.isError ? undefined : out.text;
  });
  expect(window).toContain(`window "${basename(folder)} - Thunar"`);
  // Thunar's status bar describes the selection: with one file selected, its quoted name, size and type.
  const selection = await eventually('the file selected in the status bar', async () => {
    const out = await macpilot.call('find_elements', { app, role: 'statusbar', text: basename(file) });
    return out.isError ? undefined : out.text;
  });
  expect(selection).toContain(`statusbar "\\"${basename(file)}\\" | 8 bytes | plain text document"`);
});

test('a path that does not exist is an error naming it', async () => {
  const missing = join(folder, 'nowhere', 'gone.txt');
  const out = await macpilot.call('reveal_in_finder', { path: missing });
  expect(out.isError).toBe(true);
  expect(out.text).toContain(`No such file or folder: ${missing}`);
});

test('a session with no file manager on its bus: an error naming the ones to install', async () => {
  // A D-Bus address cannot hold the test folder's space and '#' unescaped: the bus gets a plain folder.
  const busFolder = temporaryFolder('macpilot-bare-bus-');
  const bus = await startBareBus(processes, busFolder);
  const bare = await startMacpilot({ ...env, DBUS_SESSION_BUS_ADDRESS: bus }, ['--toolsets', 'all']);
  try {
    const out = await bare.call('reveal_in_finder', { path: folder });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(
      /no file manager in this desktop session implements org\.freedesktop\.FileManager1/,
    );
    expect(out.text).toMatch(/thunar, nautilus, nemo or dolphin/);
  } finally {
    await bare.close();
    rmSync(busFolder, { recursive: true, force: true });
  }
});
