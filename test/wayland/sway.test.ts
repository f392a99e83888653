/**
 * macpilot on a headless sway, through a real MCP client, with native Wayland GTK apps (GDK_BACKEND=wayland):
 * what check_permissions says, typing into a field (under US and German layouts) and clicking by ref, by point and by text read on screen
 * (so the window-relative extents and the OCR boxes land on the real controls), keys and shortcuts in a GTK4
 * app, windows, the clipboard against wl-clipboard, and the guard on a middle click (which pastes the selection).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { calculatorEntry } from '../support/calculator.js';
import { zenityEntry } from '../support/zenity.js';
import { useMacpilot } from '../support/mcp.js';
import { Processes } from '../support/processes.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('swayEnv');
const { macpilot, processes } = useMacpilot(env, ['--toolsets', 'all']);

const boundsOf = async (ref: string) => {
  const { structuredContent } = (await macpilot.client.callTool({
    name: 'get_element',
    arguments: { ref },
  })) as { structuredContent?: { bounds?: { x: number; y: number; width: number; height: number } } };
  const bounds = structuredContent?.bounds;
  if (!bounds) throw new Error(`no bounds for ${ref}`);
  return bounds;
};

describe('on sway', () => {
  test('check_permissions names the Wayland route of each capability', async () => {
    const text = await macpilot.ok('check_permissions');
    expect(text).toMatch(/display: available \(Wayland: sway 1\.\d+/);
    expect(text).toMatch(
      /input: available \(a virtual pointer of macpilot's own \(wlr-virtual-pointer\) and keys through wtype\)/,
    );
    expect(text).toMatch(/screen ?capture: available \(screenshots through grim/i);
  });

  test('type into a field by ref, then click OK by ref: zenity prints the text', async () => {
    const { zenity, field, value } = await zenityEntry(macpilot, processes, 'wayland by ref');
    await macpilot.ok('type_text', { ref: field, text: 'Ada Lövelace ✓' });
    expect(await value()).toBe('Ada Lövelace ✓');
    const ok = refOf(
      await macpilot.ok('find_elements', { app: String(zenity.pid), name: 'OK', role: 'button' }),
      /OK/,
    );
    const clicked = await macpilot.ok('click_element', { ref: ok });
    expect(clicked).toMatch(/with a real click at its centre/);
    expect(await zenity.exited).toBe(0);
    expect(zenity.stdout()).toBe('Ada Lövelace ✓\n');
  });

  test('under a German layout: umlauts and ß type, and press_key z and y give z and y', async () => {
    const { zenity, field, value } = await zenityEntry(macpilot, processes, 'wayland layouts');
    const layout = (name: string) =>
      execFileSync('swaymsg', ['input', 'type:keyboard', 'xkb_layout', name], { env, stdio: 'ignore' });
    try {
      layout('de');
      await macpilot.ok('type_text', { ref: field, text: 'Grüße zy' });
      expect(await value()).toBe('Grüße zy');
      await macpilot.ok('press_key', { key: 'z' });
      await macpilot.ok('press_key', { key: 'y' });
      expect(await value()).toBe('Grüße zyzy');
    } finally {
      layout('us');
    }
    await processes.stop(zenity.pid);
  });

  test('type into a field whose window is behind another: its window comes forward, the text arrives whole', async () => {
    const behind = await zenityEntry(macpilot, processes, 'wayland behind');
    const front = await zenityEntry(macpilot, processes, 'wayland in front');
    await eventually('the second window in front', async () =>
      /"wayland in front".* focused/.test(await macpilot.ok('list_windows', {})) ? true : undefined,
    );
    await macpilot.ok('type_text', { ref: behind.field, text: 'to the one behind' });
    expect(await behind.value()).toBe('to the one behind');
    expect(await front.value()).toBe('');
    await processes.stop(behind.zenity.pid);
    await processes.stop(front.zenity.pid);
  });

  test('click by point at the centre get_element reports: the bounds are on screen, not in the window', async () => {
    const { zenity } = await zenityEntry(macpilot, processes, 'wayland by point');
    const cancel = refOf(
      await macpilot.ok('find_elements', { app: String(zenity.pid), name: 'Cancel', role: 'button' }),
      /Cancel/,
    );
    const bounds = await boundsOf(cancel);
    // sway draws a title bar above every window: a window's content never starts at the top of the screen.
    expect(bounds.y).toBeGreaterThan(20);
    await macpilot.ok('click', { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 });
    expect(await zenity.exited).toBe(1);
  });

  test('click_text finds OK by reading the screen and clicks it', async () => {
    const { zenity, field } = await zenityEntry(macpilot, processes, 'wayland by text');
    await macpilot.ok('type_text', { ref: field, text: 'read on screen' });
    const found = await macpilot.ok('find_text', { text: 'Type here', app: String(zenity.pid) });
    expect(found).toMatch(/Type here/);
    await macpilot.ok('click_text', { text: 'OK', app: String(zenity.pid), match: 'exact' });
    expect(await zenity.exited).toBe(0);
    expect(zenity.stdout()).toBe('read on screen\n');
  });

  test('windows: listed with their titles, focused in turn, shot as pixels', async () => {
    const first = await zenityEntry(macpilot, processes, 'first window');
    const second = await zenityEntry(macpilot, processes, 'second window');
    const listed = await eventually('both windows listed', async () => {
      const text = await macpilot.ok('list_windows', {});
      return text.includes('"first window"') && text.includes('"second window"') ? text : undefined;
    });
    const idOf = (title: string) => new RegExp(`window (\\d+) "${title}"`).exec(listed)?.[1] ?? '';
    for (const title of ['first window', 'second window', 'first window']) {
      const focused = await macpilot.ok('focus_window', { window_id: idOf(title) });
      expect(focused).toContain(`"${title}"`);
      expect(await macpilot.ok('list_windows', {})).toMatch(
        new RegExp(`window ${idOf(title)} "${title}".* focused`),
      );
    }
    const shot = await macpilot.client.callTool({
      name: 'take_screenshot',
      arguments: { app: String(first.zenity.pid) },
    });
    const image = (shot.content as { type: string; data?: string }[]).find((part) => part.type === 'image');
    const png = Buffer.from(image?.data ?? '', 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // A dialog's pixels are not one colour: something was drawn, and captured.
    const { default: sharp } = await import('sharp');
    const stats = await sharp(png).stats();
    expect(stats.channels[0]?.stdev ?? 0).toBeGreaterThan(5);
    await processes.stop(first.zenity.pid);
    await processes.stop(second.zenity.pid);
  });

  test('a GTK4 app (gnome-calculator): typed text, then Return, Ctrl+A and BackSpace as keys, in one sequence', async () => {
    const { calculator, entry, value } = await calculatorEntry(macpilot, processes);
    await macpilot.ok('type_text', { ref: entry, text: '7+5' });
    expect(await value()).toBe('7+5');
    const solved = await macpilot.ok('press_key', { key: 'Return' });
    expect(solved).toMatch(/value="12"/);
    expect(await value()).toBe('12');
    await macpilot.ok('press_key', { key: 'ctrl+a' });
    const cleared = await macpilot.ok('press_key', { key: 'BackSpace' });
    expect(cleared).toMatch(/\(was: [^)]*value="12"\)/);
    expect(await value()).toBe('');
    await processes.stop(calculator.pid);
  });

  test('one session across two apps: each answer holds for the next call (type, keys, windows, minimize, clipboard, OK)', async () => {
    const { zenity, field, value } = await zenityEntry(macpilot, processes, 'wayland sequence');
    await macpilot.ok('type_text', { ref: field, text: 'first' });
    const { calculator, app, entry } = await calculatorEntry(macpilot, processes);
    await macpilot.ok('type_text', { ref: entry, text: '6*7' });
    expect(await macpilot.ok('press_key', { key: 'Return' })).toMatch(/value="42"/);
    // Back to the field, whose window is now behind the calculator's.
    await macpilot.ok('type_text', { ref: field, text: ' second' });
    expect(await value()).toBe('first second');
    const windows = JSON.parse(
      JSON.stringify(
        (await macpilot.client.callTool({ name: 'list_windows', arguments: {} })).structuredContent,
      ),
    ) as { windows: { id: string; pid: number; focused: boolean; minimized: boolean }[] };
    const calculatorWindow = windows.windows.find((w) => w.pid === calculator.pid);
    expect(windows.windows.find((w) => w.pid === zenity.pid)?.focused).toBe(true);
    await macpilot.ok('minimize_window', { window_id: calculatorWindow?.id ?? '' });
    expect(await macpilot.ok('list_windows', {})).not.toContain('Calculator');
    expect(await macpilot.ok('list_windows', { include_minimized: true })).toMatch(
      /"Calculator".* minimized/,
    );
    await macpilot.ok('restore_window', { window_id: calculatorWindow?.id ?? '' });
    expect(await macpilot.ok('list_windows', {})).toMatch(/"Calculator".* focused/);
    await macpilot.ok('activate_app', { name: String(zenity.pid) });
    expect(await macpilot.ok('list_windows', {})).toMatch(/"wayland sequence".* focused/);
    await macpilot.ok('set_clipboard', { text: 'between apps' });
    expect(await macpilot.ok('get_clipboard')).toMatch(/\nbetween apps$/);
    // The field kept its text through all of it; OK prints it.
    const ok = refOf(
      await macpilot.ok('find_elements', { app: String(zenity.pid), name: 'OK', role: 'button' }),
      /OK/,
    );
    await macpilot.ok('click_element', { ref: ok });
    expect(await zenity.exited).toBe(0);
    expect(zenity.stdout()).toBe('first second\n');
    // Quit as closing its window would: the calculator's process ends.
    expect(await macpilot.ok('quit_app', { name: app })).toMatch(/quit/i);
    expect(await calculator.exited).toBe(0);
  });

  test('the clipboard round-trips with wl-clipboard both ways', async () => {
    await macpilot.ok('set_clipboard', { text: 'from macpilot ✓' });
    expect(execFileSync('wl-paste', ['--no-newline'], { env }).toString()).toBe('from macpilot ✓');
    // In the foreground, wl-copy is the process that serves the text: the test knows it still runs, and stops it.
    const copier = processes.start('wl-copy', ['--foreground', 'from wl-copy']);
    let exit: number | null | undefined;
    void copier.exited.then((code) => (exit = code));
    await eventually('wl-copy owning the clipboard', async () => {
      if (exit !== undefined) throw new Error(`wl-copy exited (${exit}) before wl-paste read its text`);
      return execFileSync('wl-paste', ['--no-newline'], {
        env,
        stdio: ['ignore', 'pipe', 'ignore'],
      }).toString() === 'from wl-copy'
        ? true
        : undefined;
    });
    expect(await macpilot.ok('get_clipboard')).toMatch(/^Clipboard text, 12 characters .*\nfrom wl-copy$/);
    await processes.stop(copier.pid);
  });

  test('a middle click, which pastes the text selected last: refused while an app the lists hide runs (sway does not say which app selected it), a click again once it quits', async () => {
    const { zenity, field, value } = await zenityEntry(macpilot, processes, 'wayland middle click');
    // A zenity under a credential manager's name (the default lists hide it), its password selected.
    const keepassxc = join(temporaryFolder('macpilot-vault-'), 'keepassxc');
    copyFileSync('/usr/bin/zenity', keepassxc);
    const vault = processes.start(keepassxc, [
      '--entry',
      '--title',
      'vault',
      '--entry-text',
      'hunter2-secret',
    ]);
    await eventually('the vault window', async () =>
      execFileSync('swaymsg', ['-t', 'get_tree'], { env }).toString().includes('"vault"') ? true : undefined,
    );
    const refused = await macpilot.call('click_element', { ref: field, button: 'middle' });
    expect(refused.text).toMatch(
      /^Not done: a middle click would paste the text selected last, and macpilot cannot tell in which app it was selected while an app hidden from you runs/,
    );
    expect(refused.text).not.toMatch(/keepassxc|hunter2/);
    await processes.stop(vault.pid);
    await macpilot.ok('click_element', { ref: field, button: 'middle' });
    expect(await value()).not.toContain('hunter2');
    await processes.stop(zenity.pid);
  });

  // Last: an X11 app that quits while it owns a selection may clear the clipboard as XWayland hands it back.
  test('an X11 app on XWayland in the same session: typed into by ref, named keys, clicked at the centre get_element reports', async () => {
    const x11Apps = new Processes({ ...env, DISPLAY: env.XWAYLAND_DISPLAY, GDK_BACKEND: 'x11' });
    try {
      const { zenity, field, value } = await zenityEntry(macpilot, x11Apps, 'on xwayland');
      await macpilot.ok('type_text', { ref: field, text: 'through Wayland' });
      expect(await value()).toBe('through Wayland');
      // Named keys reach an X11 app (they do not reach a GTK3 one on Wayland: docs/linux-sessions.md).
      await macpilot.ok('press_key', { key: 'BackSpace', repeat: 7 });
      expect(await value()).toBe('through ');
      await macpilot.ok('type_text', { text: 'XWayland' });
      expect(await value()).toBe('through XWayland');
      const ok = refOf(
        await macpilot.ok('find_elements', { app: String(zenity.pid), name: 'OK', role: 'button' }),
        /OK/,
      );
      // An X11 app reports its extents on the X screen, which sway lays out as its own: not shifted again.
      const bounds = await boundsOf(ok);
      const listed = (await macpilot.client.callTool({ name: 'list_windows', arguments: {} }))
        .structuredContent as {
        windows: { pid: number; bounds: { x: number; y: number; width: number; height: number } }[];
      };
      const window = listed.windows.find((w) => w.pid === zenity.pid)?.bounds;
      expect(window).toBeDefined();
      expect(bounds.x + bounds.width).toBeLessThanOrEqual((window?.x ?? 0) + (window?.width ?? 0));
      expect(bounds.y + bounds.height).toBeLessThanOrEqual((window?.y ?? 0) + (window?.height ?? 0));
      await macpilot.ok('click', { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 });
      expect(await zenity.exited).toBe(0);
      expect(zenity.stdout()).toBe('through XWayland\n');
    } finally {
      await x11Apps.stopAll();
    }
  });
});
