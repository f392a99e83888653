/**
 * macpilot on a headless GNOME Shell (mutter 43), through a real MCP client, with native Wayland GTK3 and GTK4
 * apps: what check_permissions says, typing into a field by ref (under US and German layouts), clicking by ref,
 * by point and by text read on screen (so window-relative extents land on the real controls), windows through
 * macpilot's GNOME Shell extension, screenshots from the screen cast, and the clipboard with wl-paste and a GTK app.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, inject, test } from 'vitest';
import { calculatorEntry } from '../support/calculator.js';
import { zenityEntry } from '../support/zenity.js';
import { startMacpilot, useMacpilot } from '../support/mcp.js';
import { Processes } from '../support/processes.js';
import { type Bounds, listedWindows } from '../support/windows.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('gnomeEnv');
const { macpilot, processes } = useMacpilot(env, ['--toolsets', 'all']);

/** Where mutter lists its RemoteDesktop sessions, one child node each. */
const SESSIONS = '/org/gnome/Mutter/RemoteDesktop/Session';

const boundsOf = async (ref: string): Promise<Bounds> => {
  const { structuredContent } = (await macpilot.client.callTool({
    name: 'get_element',
    arguments: { ref },
  })) as { structuredContent?: { bounds?: Bounds } };
  if (!structuredContent?.bounds) throw new Error(`no bounds for ${ref}`);
  return structuredContent.bounds;
};

const windows = () => listedWindows(macpilot);

const layout = (name: string) =>
  execFileSync('gsettings', ['set', 'org.gnome.desktop.input-sources', 'sources', `[('xkb', '${name}')]`], {
    env,
  });

describe('on GNOME', () => {
  test("check_permissions names GNOME's route of each capability", async () => {
    const text = await macpilot.ok('check_permissions');
    expect(text).toMatch(
      /display: available \(Wayland: GNOME .*windows through macpilot's GNOME Shell extension\)/,
    );
    expect(text).toMatch(/input: available \(keys and pointer through Mutter's RemoteDesktop\)/);
    expect(text).toMatch(/screen ?capture: available \(screenshots from Mutter's ScreenCast/i);
  });

  test('type into a field by ref, then click OK by ref: zenity prints the text', async () => {
    const { zenity, field, value } = await zenityEntry(macpilot, processes, 'gnome by ref');
    await macpilot.ok('type_text', { ref: field, text: 'Ada Lovelace 1815' });
    expect(await value()).toBe('Ada Lovelace 1815');
    const ok = refOf(
      await macpilot.ok('find_elements', { app: String(zenity.pid), name: 'OK', role: 'button' }),
      /OK/,
    );
    expect(await macpilot.ok('click_element', { ref: ok })).toMatch(/with a real click at its centre/);
    expect(await zenity.exited).toBe(0);
    expect(zenity.stdout()).toBe('Ada Lovelace 1815\n');
  });

  test('under a German layout: umlauts and ß type, z and y are the keys that type them; a character no layout key types is said to be missing', async () => {
    const { zenity, field, value } = await zenityEntry(macpilot, processes, 'gnome layouts');
    try {
      layout('de');
      await macpilot.ok('type_text', { ref: field, text: 'Grüße zy' });
      expect(await value()).toBe('Grüße zy');
      await macpilot.ok('press_key', { key: 'z' });
      expect(await value()).toBe('Grüße zyz');
      // Mutter 43 types only what the layout has: the answer says the field holds less than was typed.
      const short = await macpilot.ok('type_text', { ref: field, text: ' ✓', clear_first: true });
      expect(short).toMatch(/The field now holds " ": 1 character of the text typed \("✓"\) is not in it/);
    } finally {
      layout('us');
    }
    await processes.stop(zenity.pid);
  });

  test('type into a field whose window is behind another: its window comes forward, the text arrives whole', async () => {
    const behind = await zenityEntry(macpilot, processes, 'gnome behind');
    const front = await zenityEntry(macpilot, processes, 'gnome in front');
    await macpilot.ok('focus_window', {
      window_id: (await windows()).find((w) => w.pid === front.zenity.pid)?.id ?? '',
    });
    await macpilot.ok('type_text', { ref: behind.field, text: 'to the one behind' });
    expect(await behind.value()).toBe('to the one behind');
    expect(await front.value()).toBe('');
    expect((await windows()).find((w) => w.pid === behind.zenity.pid)?.focused).toBe(true);
    await processes.stop(behind.zenity.pid);
    await processes.stop(front.zenity.pid);
  });

  test('click by point at the centre get_element reports: the bounds are on screen, inside the window frame', async () => {
    const { zenity } = await zenityEntry(macpilot, processes, 'gnome by point');
    const cancel = refOf(
      await macpilot.ok('find_elements', { app: String(zenity.pid), name: 'Cancel', role: 'button' }),
      /Cancel/,
    );
    const bounds = await boundsOf(cancel);
    const frame = (await windows()).find((w) => w.pid === zenity.pid)?.bounds;
    expect(frame).toBeDefined();
    if (!frame) return;
    // The window-relative extents shifted by the window's surface: the button lies inside the frame.
    expect(bounds.x).toBeGreaterThanOrEqual(frame.x);
    expect(bounds.y).toBeGreaterThanOrEqual(frame.y);
    expect(bounds.x + bounds.width).toBeLessThanOrEqual(frame.x + frame.width);
    expect(bounds.y + bounds.height).toBeLessThanOrEqual(frame.y + frame.height);
    await macpilot.ok('click', { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 });
    expect(await zenity.exited).toBe(1);
  });

  test('click_text finds OK by reading the screen cast and clicks it', async () => {
    const { zenity, field } = await zenityEntry(macpilot, processes, 'gnome by text');
    await macpilot.ok('type_text', { ref: field, text: 'read on screen' });
    expect(await macpilot.ok('find_text', { text: 'Type here', app: String(zenity.pid) })).toMatch(
      /Type here/,
    );
    await macpilot.ok('click_text', { text: 'OK', app: String(zenity.pid), match: 'exact' });
    expect(await zenity.exited).toBe(0);
    expect(zenity.stdout()).toBe('read on screen\n');
  });

  test('windows: focused in turn, moved, resized, minimized and restored, shot as pixels', async () => {
    const first = await zenityEntry(macpilot, processes, 'first window');
    const second = await zenityEntry(macpilot, processes, 'second window');
    const idOf = async (pid: number) => (await windows()).find((w) => w.pid === pid)?.id ?? '';
    const ids = { first: await idOf(first.zenity.pid), second: await idOf(second.zenity.pid) };
    for (const which of ['first', 'second', 'first'] as const) {
      expect(await macpilot.ok('focus_window', { window_id: ids[which] })).toContain(`"${which} window"`);
      expect((await windows()).find((w) => w.id === ids[which])?.focused).toBe(true);
    }
    await macpilot.ok('move_window', { window_id: ids.first, x: 400, y: 300 });
    await macpilot.ok('resize_window', { window_id: ids.first, width: 420, height: 260 });
    expect((await windows()).find((w) => w.id === ids.first)?.bounds).toEqual({
      x: 400,
      y: 300,
      width: 420,
      height: 260,
    });
    // The field moved with its window: typing by ref still reaches it.
    await macpilot.ok('type_text', { ref: first.field, text: 'moved' });
    expect(await first.value()).toBe('moved');
    await macpilot.ok('minimize_window', { window_id: ids.second });
    expect((await windows()).find((w) => w.id === ids.second)?.minimized).toBe(true);
    expect(await macpilot.ok('list_windows', {})).not.toContain('"second window"');
    await macpilot.ok('restore_window', { window_id: ids.second });
    expect((await windows()).find((w) => w.id === ids.second)).toMatchObject({
      minimized: false,
      focused: true,
    });
    const shot = await macpilot.client.callTool({
      name: 'take_screenshot',
      arguments: { app: String(first.zenity.pid) },
    });
    const image = (shot.content as { type: string; data?: string }[]).find((part) => part.type === 'image');
    const png = Buffer.from(image?.data ?? '', 'base64');
    const { default: sharp } = await import('sharp');
    const { width, height } = await sharp(png).metadata();
    expect({ width, height }).toEqual({ width: 420, height: 260 });
    // A dialog's pixels are not one colour: something was drawn, and captured.
    expect((await sharp(png).stats()).channels[0]?.stdev ?? 0).toBeGreaterThan(5);
    await processes.stop(first.zenity.pid);
    await processes.stop(second.zenity.pid);
  });

  test('a GTK4 app (gnome-calculator): typed text, then Return, Ctrl+A and BackSpace as keys, in one sequence', async () => {
    const { calculator, app, entry, value } = await calculatorEntry(macpilot, processes);
    await macpilot.ok('type_text', { ref: entry, text: '7+5' });
    expect(await value()).toBe('7+5');
    expect(await macpilot.ok('press_key', { key: 'Return' })).toMatch(/value="12"/);
    await macpilot.ok('press_key', { key: 'ctrl+a' });
    expect(await macpilot.ok('press_key', { key: 'BackSpace' })).toMatch(/\(was: [^)]*value="12"\)/);
    expect(await value()).toBe('');
    expect(await macpilot.ok('quit_app', { name: app })).toMatch(/quit/i);
    expect(await calculator.exited).toBe(0);
  });

  test('mutter closes the RemoteDesktop session when the helper that held it dies; the next call opens one and types', async () => {
    // The sessions' nodes under SESSIONS (the test seat's keyboard holds one of its own).
    const sessions = () =>
      execFileSync(
        'gdbus',
        ['introspect', '--session', '--dest', 'org.gnome.Mutter.RemoteDesktop', '--object-path', SESSIONS],
        { env },
      )
        .toString()
        .match(/^\s+node \S+/gm)
        ?.map((line) => line.trim()) ?? [];
    const { zenity, field } = await zenityEntry(macpilot, processes, 'gnome session ends');
    await macpilot.ok('type_text', { ref: field, text: 'before' });
    const held = sessions();
    const helper = Number(/pid (\d+)/.exec(await macpilot.ok('session_info'))?.[1]);
    process.kill(helper, 'SIGKILL');
    const closed = await eventually("mutter closing the helper's session", async () => {
      const gone = held.filter((node) => !sessions().includes(node));
      return gone.length > 0 ? gone : undefined;
    });
    expect(closed).toHaveLength(1);
    // A new helper: refs are looked up again.
    const again = refOf(
      await macpilot.ok('find_elements', { app: String(zenity.pid), role: 'textbox' }),
      /textbox/,
    );
    await macpilot.ok('type_text', { ref: again, text: ' after' });
    const { structuredContent } = (await macpilot.client.callTool({
      name: 'get_element',
      arguments: { ref: again },
    })) as { structuredContent?: { value?: unknown } };
    expect(structuredContent?.value).toBe('before after');
    expect(sessions().filter((node) => !held.includes(node))).toHaveLength(1);
    await processes.stop(zenity.pid);
  });

  test('the clipboard both ways: wl-paste reads what macpilot copied, a GTK app copies and pastes through it', async () => {
    await macpilot.ok('set_clipboard', { text: 'from macpilot ✓' });
    expect(execFileSync('wl-paste', ['--no-newline'], { env }).toString()).toBe('from macpilot ✓');
    const { zenity, field, value } = await zenityEntry(macpilot, processes, 'gnome clipboard');
    await macpilot.ok('type_text', { ref: field, text: 'copied in zenity' });
    await macpilot.ok('press_key', { key: 'ctrl+a' });
    await macpilot.ok('press_key', { key: 'ctrl+c' });
    expect(await macpilot.ok('get_clipboard')).toMatch(/\ncopied in zenity$/);
    await macpilot.ok('set_clipboard', { text: ' and pasted ✓' });
    await macpilot.ok('press_key', { key: 'End' });
    await macpilot.ok('press_key', { key: 'ctrl+v' });
    expect(await value()).toBe('copied in zenity and pasted ✓');
    await macpilot.ok('clear_clipboard');
    expect(await macpilot.ok('get_clipboard')).toMatch(/empty/i);
    await processes.stop(zenity.pid);
  });
});

describe('through the RemoteDesktop portal (MACPILOT_PORTAL=on)', () => {
  const agent = useMacpilot({ ...env, MACPILOT_PORTAL: 'on' }, ['--toolsets', 'all']);
  // The person, acting on the portal's dialog (the default lists keep agents from it).
  const person = useMacpilot({ ...env, MACPILOT_DENY_APPS: 'none' });
  const PORTAL_APP = 'xdg-desktop-portal-gnome';

  const dialogControl = (role: string, name: string) =>
    eventually(`the portal dialog's ${name}`, async () => {
      const found = await person.macpilot.call('find_elements', { app: PORTAL_APP, role, name });
      return found.isError ? undefined : (/\[ref=(e\d+)\]/.exec(found.text)?.[1] ?? undefined);
    });

  /** A call that needs the portal's session, again while it says the dialog is waiting for the person. */
  const throughDialog = async (call: () => Promise<{ isError: boolean; text: string }>) => {
    for (;;) {
      const answer = await call();
      if (!answer.text.includes('has not yet answered the dialog')) return answer;
    }
  };

  test("the person allows remote interaction in the portal's dialog, which the agent may read but not press; then keys, a click at a point and a screenshot go through the portal", async () => {
    const permissions = await agent.macpilot.ok('check_permissions');
    expect(permissions).toMatch(
      /input: available \(keys and pointer through the RemoteDesktop portal \(version \d+\)/,
    );
    const { zenity, field, value } = await zenityEntry(agent.macpilot, agent.processes, 'gnome portal');
    const typing = throughDialog(() =>
      agent.macpilot.call('type_text', { ref: field, text: 'allowed in the dialog' }),
    );
    const share = await dialogControl('button', 'Share');
    // The agent finds the dialog's buttons, and pressing one is refused: it would grant itself.
    const agentShare = refOf(
      await agent.macpilot.ok('find_elements', { app: PORTAL_APP, role: 'button', name: 'Share' }),
      /Share/,
    );
    const refused = await agent.macpilot.call('click_element', { ref: agentShare });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/"xdg-desktop-portal-gnome".* may be read but not acted on/);
    await person.macpilot.ok('click_element', {
      ref: await dialogControl('checkbox', 'Allow remote interaction'),
    });
    await person.macpilot.ok('click_element', { ref: share });
    const typed = await typing;
    expect(typed.isError, typed.text).toBe(false);
    expect(await value()).toBe('allowed in the dialog');

    const shot = await agent.macpilot.client.callTool({ name: 'take_screenshot', arguments: {} });
    expect(shot.isError).toBeFalsy();
    const ok = refOf(
      await agent.macpilot.ok('find_elements', { app: String(zenity.pid), name: 'OK', role: 'button' }),
      /OK/,
    );
    const bounds = await (async () => {
      const { structuredContent } = (await agent.macpilot.client.callTool({
        name: 'get_element',
        arguments: { ref: ok },
      })) as { structuredContent?: { bounds?: Bounds } };
      return structuredContent?.bounds;
    })();
    expect(bounds).toBeDefined();
    const centre = {
      x: (bounds?.x ?? 0) + (bounds?.width ?? 0) / 2,
      y: (bounds?.y ?? 0) + (bounds?.height ?? 0) / 2,
    };
    await agent.macpilot.ok('click', centre);
    expect(await zenity.exited).toBe(0);
    expect(zenity.stdout()).toBe('allowed in the dialog\n');
  });

  test('a declined dialog is said so to the agent, who is told only the person can allow it', async () => {
    const declining = await startMacpilot({ ...env, MACPILOT_PORTAL: 'on' }, ['--toolsets', 'all']);
    const processes = new Processes(env);
    try {
      const { field, value } = await zenityEntry(declining, processes, 'gnome portal declined');
      const typing = throughDialog(() => declining.call('type_text', { ref: field, text: 'never typed' }));
      await person.macpilot.ok('click_element', { ref: await dialogControl('button', 'Cancel') });
      const declined = await typing;
      expect(declined.isError).toBe(true);
      expect(declined.text).toContain('the person declined remote interaction in the portal dialog');
      expect(declined.text).toContain('Next: only the person can allow it');
      expect(await value()).toBe('');
    } finally {
      await declining.close();
      await processes.stopAll();
    }
  });
});
