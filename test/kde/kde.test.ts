/**
 * macpilot on a headless KWin (Plasma's compositor; Debian 12 has KWin 5.27), through a real MCP client, with
 * native Wayland GTK3 apps: check_permissions names KWin scripts for the windows; windows are listed, focused in
 * turn, moved, resized, minimized, restored and closed through KWin scripts, each checked by what KWin then
 * reports and what the app does; an element's extents land on the screen where KWin shows its window, for a
 * native Wayland app (window-relative extents) and an X11 one on KWin's XWayland (extents on the X screen), and
 * element_at at its centre finds it; a field set and OK pressed through the accessibility layer make
 * zenity print the text; and the clipboard round-trips with wl-clipboard. Keys and the pointer go through the
 * RemoteDesktop portal, whose KDE backend the test desktop does not install: they are not tested here.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, inject, test } from 'vitest';
import { zenityEntry } from '../support/zenity.js';
import { useMacpilot } from '../support/mcp.js';
import { Processes } from '../support/processes.js';
import { type Bounds, type ListedWindow, listedWindows } from '../support/windows.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('kdeEnv');
const { macpilot, processes } = useMacpilot(env, ['--toolsets', 'all']);

const windows = () => listedWindows(macpilot);

const windowTitled = async (title: string): Promise<ListedWindow> =>
  eventually(`the window "${title}"`, async () => (await windows()).find((w) => w.title === title));

describe('on KDE Plasma (KWin)', () => {
  test('check_permissions names KWin scripts as the route to the windows', async () => {
    const text = await macpilot.ok('check_permissions');
    expect(text).toMatch(
      /display: available \(Wayland: KDE Plasma \(WAYLAND_DISPLAY=.*windows through KWin scripts\)/,
    );
  });

  test('windows through KWin scripts: listed, focused in turn, moved, resized, minimized, restored, closed', async () => {
    const first = await zenityEntry(macpilot, processes, 'kde first');
    const second = await zenityEntry(macpilot, processes, 'kde second');
    const one = await windowTitled('kde first');
    const two = await windowTitled('kde second');
    expect(one.pid).toBe(first.zenity.pid);
    expect(two.pid).toBe(second.zenity.pid);
    expect(one.id).toMatch(/^\{[0-9a-f-]{36}\}$/);

    for (const window of [one, two, one]) {
      expect(await macpilot.ok('focus_window', { window_id: window.id })).toContain(`"${window.title}"`);
      const now = await windows();
      expect(now.find((w) => w.id === window.id)?.focused).toBe(true);
      expect(now.filter((w) => w.focused)).toHaveLength(1);
    }

    await macpilot.ok('move_window', { window_id: one.id, x: 100, y: 120 });
    expect((await windowTitled('kde first')).bounds).toMatchObject({ x: 100, y: 120 });
    await macpilot.ok('resize_window', { window_id: one.id, width: 420, height: 260 });
    expect((await windowTitled('kde first')).bounds).toMatchObject({
      x: 100,
      y: 120,
      width: 420,
      height: 260,
    });

    await macpilot.ok('minimize_window', { window_id: one.id });
    expect((await windowTitled('kde first')).minimized).toBe(true);
    expect(await macpilot.ok('list_windows', {})).not.toContain('"kde first"');
    await macpilot.ok('restore_window', { window_id: one.id });
    expect(await windowTitled('kde first')).toMatchObject({ minimized: false, focused: true });

    // Closing the dialog's window is its Cancel: zenity ends with 1 and prints nothing.
    expect(await macpilot.ok('close_window', { window_id: two.id })).toMatch(/closed/i);
    expect(await second.zenity.exited).toBe(1);
    expect((await windows()).some((w) => w.id === two.id)).toBe(false);
    const gone = await macpilot.call('focus_window', { window_id: two.id });
    expect(gone.isError).toBe(true);
    await processes.stop(first.zenity.pid);
  });

  for (const server of ['Wayland', 'XWayland'] as const) {
    test(`a ${server} app: its element's extents land where KWin shows its window; set and pressed through the accessibility layer`, async () => {
      // An X11 app on KWin's XWayland reports extents on the X screen; a Wayland one, relative to its window.
      const apps =
        server === 'Wayland'
          ? processes
          : new Processes({ ...env, DISPLAY: env.XWAYLAND_DISPLAY, GDK_BACKEND: 'x11' });
      try {
        const title = `kde ${server}`;
        const { zenity, field, value } = await zenityEntry(macpilot, apps, title);
        const window = await windowTitled(title);
        await macpilot.ok('move_window', { window_id: window.id, x: 300, y: 200 });
        const moved = await eventually('the window moved', async () => {
          const now = (await windowTitled(title)).bounds;
          return now.x === 300 && now.y === 200 ? now : undefined;
        });
        const ok = refOf(
          await macpilot.ok('find_elements', { app: String(zenity.pid), name: 'OK', role: 'button' }),
          /OK/,
        );
        const { structuredContent } = (await macpilot.client.callTool({
          name: 'get_element',
          arguments: { ref: ok },
        })) as { structuredContent?: { bounds?: Bounds } };
        const button = structuredContent?.bounds;
        if (!button) throw new Error('no bounds for OK');
        expect(button.x).toBeGreaterThanOrEqual(moved.x);
        expect(button.y).toBeGreaterThanOrEqual(moved.y);
        expect(button.x + button.width).toBeLessThanOrEqual(moved.x + moved.width);
        expect(button.y + button.height).toBeLessThanOrEqual(moved.y + moved.height);
        const centre = { x: button.x + button.width / 2, y: button.y + button.height / 2 };
        expect(await macpilot.ok('element_at', centre)).toMatch(/button "OK"/);

        await macpilot.ok('set_value', { ref: field, value: `Grüße from ${server}` });
        expect(await value()).toBe(`Grüße from ${server}`);
        expect(await macpilot.ok('click_element', { ref: ok })).toMatch(/Clicked button "OK"/);
        expect(await zenity.exited).toBe(0);
        expect(zenity.stdout()).toBe(`Grüße from ${server}\n`);
      } finally {
        if (apps !== processes) await apps.stopAll();
      }
    });
  }

  test('the clipboard round-trips with wl-clipboard; empty, it reads as empty', async () => {
    // KWin announces no selection while nothing was copied: wl-paste alone would wait for one forever.
    expect(await macpilot.ok('get_clipboard')).toMatch(/empty/i);
    await macpilot.ok('set_clipboard', { text: 'from macpilot on KDE ✓' });
    expect(execFileSync('wl-paste', ['--no-newline'], { env }).toString()).toBe('from macpilot on KDE ✓');
    // In the foreground, wl-copy is the process that serves the text: the test knows it still runs, and stops it.
    const copier = processes.start('wl-copy', ['--foreground', '--type', 'text/plain', 'from wl-copy']);
    await eventually('wl-copy owning the clipboard', async () =>
      execFileSync('wl-paste', ['--no-newline'], { env, timeout: 2000 }).toString() === 'from wl-copy'
        ? true
        : undefined,
    );
    expect(await macpilot.ok('get_clipboard')).toMatch(/\nfrom wl-copy$/);
    await processes.stop(copier.pid);
  });
});
