/** App policy and modes through a real client: a denied app is refused by name, read-only lists and runs only readers. */
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';
import { temporaryFolder } from '../support/temp.js';
import { windowOfPid } from '../support/xwindows.js';
import { decode } from '../support/image.js';
import { copiedInVault } from '../support/vault.js';

const env = inject('desktopEnv');

describe('MACPILOT_DENY_APPS=mousepad', () => {
  const auditFile = join(temporaryFolder('macpilot-deny-audit-'), 'audit.jsonl');
  const { macpilot, processes, start } = useMacpilot({
    ...env,
    MACPILOT_DENY_APPS: 'mousepad',
    MACPILOT_AUDIT_LOG: auditFile,
  });

  test('mousepad is left out of the lists, and snapshot_ui of it is refused, naming the app and the setting; gtk3-demo still works', async () => {
    const mousepad = processes.start('mousepad');
    const apps = await eventually('list_apps counting mousepad as hidden', async () => {
      const listed = await macpilot.ok('list_apps');
      return listed.includes("1 app hidden by the person's app lists.") ? listed : undefined;
    });
    expect(apps).not.toContain('mousepad');
    const windows = await eventually('list_windows counting its window as hidden', async () => {
      const listed = await macpilot.ok('list_windows');
      return listed.includes("hidden by the person's app lists") ? listed : undefined;
    });
    expect(windows).not.toMatch(/mousepad|Untitled/);
    // Named, by pid or by name, it is as if it did not run: the agent learns only that hidden apps exist.
    const refused = await macpilot.call('snapshot_ui', { app: String(mousepad.pid) });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^No running app matches "\d+"/);
    expect(refused.text).toContain('1 running app is hidden; only the person can change that');
    expect(refused.text).not.toMatch(/mousepad|MACPILOT_DENY_APPS/);
    // Its window named by the id the person's tools give it, as text or as a JSON number: refused alike, and logged so.
    const id = windowOfPid(env, mousepad.pid)?.id ?? '';
    expect(id).toMatch(/^\d+$/);
    const byText = await macpilot.call('take_screenshot', { window: id });
    const byNumber = await macpilot.call('take_screenshot', { window: Number(id) });
    expect([byText.isError, byNumber.isError]).toEqual([true, true]);
    expect(byNumber.text).toMatch(/^No window has the id "\d+"/);
    expect(`${byText.text}\n${byNumber.text}`).not.toMatch(/mousepad|Untitled|MACPILOT_DENY_APPS/);
    const logged = readFileSync(auditFile, 'utf8').trim().split('\n').slice(-2);
    expect(logged.map((line) => (JSON.parse(line) as { outcome: string }).outcome)).toEqual([
      'refused',
      'refused',
    ]);
    // Window tools answer its id alike, whether the consent guard or the tool refuses it: hidden ones counted.
    for (const tool of ['focus_window', 'close_window']) {
      const refused = await macpilot.call(tool, { window_id: id });
      expect(refused.isError, tool).toBe(true);
      expect(refused.text, tool).toMatch(
        /^No window has the id "\d+".*\(1 window is hidden by the person's app lists/s,
      );
    }
    // The agent's log messages tell no more than its answers: refusals of the hidden app send no audit entry.
    const messages: { logger?: string; data: unknown }[] = [];
    macpilot.client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      messages.push(params);
    });
    await macpilot.client.setLoggingLevel('info');
    await macpilot.call('snapshot_ui', { app: String(mousepad.pid) });
    await macpilot.call('focus_window', { window_id: id });
    await macpilot.ok('set_clipboard', { text: 'after the refusals' });
    const audit = await eventually('the set_clipboard entry', async () => {
      const seen = messages.filter((m) => m.logger === 'audit');
      return seen.some((m) => JSON.stringify(m.data).includes('set_clipboard')) ? seen : undefined;
    });
    expect(audit.map((m) => (m.data as { tool: string }).tool)).toEqual(['set_clipboard']);
    const byPath = await macpilot.call('get_element', { path: 'app("mousepad")/window[0]' });
    const absent = await macpilot.call('get_element', { path: 'app("nosuchapp")/window[0]' });
    expect(byPath.text).toBe(absent.text.replaceAll('nosuchapp', 'mousepad'));
    await start('gtk3-demo', 'Application Class');
    // One app's windows: the hidden app's window is not counted among them.
    const demoWindows = await macpilot.ok('list_windows', { app: 'gtk3-demo' });
    expect(demoWindows).toContain('Application Class');
    expect(demoWindows).not.toContain('hidden');
  });

  test('launch_app of a name nothing has lists the installed apps, the hidden one left out', async () => {
    const launched = await macpilot.call('launch_app', { name: 'no-such-app' });
    expect(launched.isError).toBe(true);
    expect(launched.text).toContain('no installed app matches "no-such-app"');
    expect(launched.text).toMatch(/installed: .*Calculator/);
    expect(launched.text).not.toMatch(/mousepad/i);
  });
});

describe('MACPILOT_MODE=read-only', () => {
  const { macpilot } = useMacpilot({ ...env, MACPILOT_MODE: 'read-only' });

  test('tools/list lists only read-only tools, and a write tool called by name is refused naming the setting', async () => {
    const { tools } = await macpilot.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['snapshot_ui', 'find_elements', 'list_apps']));
    expect(names).not.toContain('click_element');
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint !== true)).toEqual([]);

    const refused = await macpilot.call('press_key', { key: 'enter' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('press_key is not available in read-only mode');
    expect(refused.text).toContain('set MACPILOT_MODE=safe where macpilot is started');
    expect(await macpilot.ok('list_apps')).not.toBe('');
  });

  test('take_screenshot is listed and shows the screen; with file_path it is refused and writes nothing', async () => {
    const { tools } = await macpilot.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('take_screenshot');

    const shot = await macpilot.client.callTool({ name: 'take_screenshot', arguments: {} });
    expect(shot.isError).toBeFalsy();
    expect((shot.content as { type: string }[]).map((part) => part.type)).toEqual(['image', 'text']);

    const folder = temporaryFolder('macpilot-read-only-');
    try {
      const target = join(folder, 'shot.png');
      const refused = await macpilot.call('take_screenshot', { file_path: target });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('take_screenshot with file_path is not available in read-only mode');
      expect(refused.text).toContain('file_path writes the image to a new file');
      expect(existsSync(target)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('the default lists: a terminal may be read, not acted on, by any route', () => {
  const { macpilot, processes } = useMacpilot(env);
  const folder = temporaryFolder('macpilot-terminal-');
  // A zenity under a terminal's name: the default lists let agents read it and act on nothing of it.
  const xterm = join(folder, 'xterm');
  copyFileSync('/usr/bin/zenity', xterm);

  test('a drag that would drop into it, and the window tools, are refused; its field and window are as they were', async () => {
    const terminal = processes.start(xterm, ['--entry', '--title', 'macpilot terminal', '--text', 'Shell']);
    const field = await eventually('the terminal field', async () => {
      const found = await macpilot.call('find_elements', { app: String(terminal.pid), role: 'textbox' });
      return found.isError ? undefined : refOf(found.text, /textbox/);
    });
    const detail = await macpilot.ok('get_element', { ref: field });
    const [, x, y, w, h] = (/bounds: x=(-?\d+) y=(-?\d+) width=(\d+) height=(\d+)/.exec(detail) ?? []).map(
      Number,
    );
    const drop = { x: (x ?? 0) + (w ?? 0) / 2, y: (y ?? 0) + (h ?? 0) / 2 };
    const dragged = await macpilot.call('drag', { from: { x: 5, y: 5 }, to: drop });
    expect(dragged.isError).toBe(true);
    expect(dragged.text).toMatch(/"xterm" may be read but not acted on/);
    const value = async () => /^value: (.*)$/m.exec(await macpilot.ok('get_element', { ref: field }))?.[1];
    expect(await value()).toBe('""');

    const windows = async () =>
      (
        (await macpilot.client.callTool({ name: 'list_windows', arguments: {} })).structuredContent as {
          windows: { id: string; pid: number; bounds: { x: number; y: number } }[];
        }
      ).windows.find((window) => window.pid === terminal.pid);
    const before = await windows();
    for (const [tool, args] of [
      ['move_window', { x: 10, y: 10 }],
      ['minimize_window', {}],
      ['close_window', {}],
    ] as const) {
      const refused = await macpilot.call(tool, { window_id: before?.id ?? '', ...args });
      expect(refused.isError, tool).toBe(true);
      expect(refused.text, tool).toMatch(/"xterm" may be read but not acted on/);
    }
    expect((await windows())?.bounds).toEqual(before?.bounds);
    await processes.stop(terminal.pid);
    rmSync(folder, { recursive: true, force: true });
  });
});

describe('MACPILOT_DENY_APPS=gnome-calculator', () => {
  const { macpilot } = useMacpilot({ ...env, MACPILOT_DENY_APPS: 'gnome-calculator' });

  test('launch_app by another name of it is refused, and the calculator it started is quit again', async () => {
    const launched = await macpilot.call('launch_app', { name: 'Calculator' });
    expect(launched.isError).toBe(true);
    expect(launched.text).toMatch(/^Not done: what it would read or act on is in an app hidden from you/);
    expect(launched.text).not.toMatch(/gnome-calculator|pid/);
    await eventually('no app hidden any more', async () =>
      (await macpilot.ok('list_apps')).includes('hidden') ? undefined : true,
    );
  });
});

describe('MACPILOT_DENY_APPS=xterm (a zenity under that name)', () => {
  const { macpilot, processes } = useMacpilot({ ...env, MACPILOT_DENY_APPS: 'xterm' });
  const folder = temporaryFolder('macpilot-hidden-text-');
  const xterm = join(folder, 'xterm');
  copyFileSync('/usr/bin/zenity', xterm);

  test("read_text over a hidden app's window reads none of its text; the same text in an app not hidden is read", async () => {
    const shown = processes.start('zenity', ['--info', '--title', 'shown', '--text', 'Launch code 4512']);
    const hidden = processes.start(xterm, ['--info', '--title', 'hidden', '--text', 'Launch code 4512']);
    const frameOf = (pid: number) =>
      eventually(`the window of ${pid}`, async () => windowOfPid(env, pid)?.frame);
    await frameOf(shown.pid);
    const hiddenFrame = await frameOf(hidden.pid);
    // Side by side: the shown one moved to the left of the hidden one.
    execFileSync('xdotool', ['windowmove', windowOfPid(env, shown.pid)?.id ?? '', '0', '0'], { env });
    const shownFrame = await eventually('the shown window moved', async () => {
      const frame = windowOfPid(env, shown.pid)?.frame;
      return frame && frame.x < 50 ? frame : undefined;
    });
    const read = async (frame: { x: number; y: number; width: number; height: number }) =>
      macpilot.ok('read_text', { region: frame });
    expect(await read(shownFrame)).toMatch(/Launch code 4512/);
    const blackedOut = await read(hiddenFrame);
    expect(blackedOut).not.toMatch(/Launch|4512/);
    // The agent is told why it reads nothing there.
    expect(blackedOut).toMatch(/1 window of apps the person's app lists hide is painted black/);
    expect(await read(shownFrame)).not.toContain('painted black');
    await processes.stop(shown.pid);
    await processes.stop(hidden.pid);
  });

  test("an app's screenshot resource paints a hidden app's window over it black, and shows the app once it is gone", async () => {
    const shown = processes.start('zenity', ['--info', '--title', 'shown', '--text', 'Launch code 4512']);
    const hidden = processes.start(xterm, ['--info', '--title', 'hidden', '--text', 'Launch code 4512']);
    const xdotool = (...args: string[]) => execFileSync('xdotool', args, { env });
    const windowOf = (pid: number) => eventually(`the window of ${pid}`, async () => windowOfPid(env, pid));
    const [shownWindow, hiddenWindow] = [await windowOf(shown.pid), await windowOf(hidden.pid)];
    // The hidden window on top of the shown one, covering it.
    xdotool('windowmove', shownWindow.id, '40', '40');
    xdotool('windowmove', hiddenWindow.id, '40', '40');
    xdotool('windowactivate', '--sync', hiddenWindow.id);
    const centre = async () => {
      const { contents } = await macpilot.client.readResource({ uri: 'macpilot://app/zenity/screenshot' });
      const image = await decode(Buffer.from((contents[0] as { blob: string }).blob, 'base64'));
      const i = (Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2)) * 3;
      return [...image.rgb.subarray(i, i + 3)];
    };
    await eventually('the covering window painted black', async () =>
      (await centre()).every((channel) => channel === 0) ? true : undefined,
    );
    // find_visual's picture (for the client's model, here for the agent: this client has none) is painted too.
    const looked = (await macpilot.client.callTool({
      name: 'find_visual',
      arguments: { description: 'the OK button', app: 'zenity' },
    })) as { content: { type: string; text?: string; data?: string }[] };
    const said = looked.content.map((part) => part.text ?? '').join('\n');
    expect(said).toMatch(/1 window of apps the person's app lists hide is painted black/);
    expect(said).not.toMatch(/may show in its pixels|black_out_hidden/);
    const picture = await decode(
      Buffer.from(looked.content.find((p) => p.type === 'image')?.data ?? '', 'base64'),
    );
    const middle = (Math.floor(picture.height / 2) * picture.width + Math.floor(picture.width / 2)) * 3;
    expect([...picture.rgb.subarray(middle, middle + 3)]).toEqual([0, 0, 0]);
    await processes.stop(hidden.pid);
    await eventually('the app itself in its screenshot', async () =>
      (await centre()).some((channel) => channel > 100) ? true : undefined,
    );
    await processes.stop(shown.pid);
    rmSync(folder, { recursive: true, force: true });
  });
});

describe('the default lists: a terminal (a zenity named xterm) may be read, not acted on', () => {
  const { macpilot, processes } = useMacpilot(env);
  const folder = temporaryFolder('macpilot-read-only-app-');
  const xterm = join(folder, 'xterm');
  copyFileSync('/usr/bin/zenity', xterm);

  test('its screenshot saved to a file is a reading of it (the file is the only thing written); a click on it is refused', async () => {
    const terminal = processes.start(xterm, ['--entry', '--title', 'terminal', '--text', 'Command?']);
    await eventually('its window', async () => windowOfPid(env, terminal.pid));
    const file = join(folder, 'terminal.png');
    const saved = await macpilot.ok('take_screenshot', { app: 'xterm', file_path: file });
    expect(saved).toContain(file);
    expect((await decode(readFileSync(file))).format).toBe('png');
    const tree = await macpilot.ok('snapshot_ui', { app: 'xterm' });
    const refused = await macpilot.call('click_element', { ref: refOf(tree, /button "OK"/) });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/may be read but not acted on/);
    await processes.stop(terminal.pid);
    rmSync(folder, { recursive: true, force: true });
  });
});

describe('a password copied before the server first looked at the desktop', () => {
  const { macpilot, processes } = useMacpilot(env);

  test('is not pasted either: the app owning the clipboard is the hidden one, whatever is in front', async () => {
    const vault = await copiedInVault(env, processes, 'early-secret');
    const form = processes.start('zenity', ['--entry', '--title', 'early form', '--text', 'Note?']);
    const formWindow = await eventually('the form window', async () => windowOfPid(env, form.pid));
    execFileSync('xdotool', ['windowactivate', '--sync', formWindow.id], { env });
    // The agent's first look at the desktop comes after the copy, with the form in front.
    const field = await eventually('the form field', async () => {
      const out = await macpilot.call('find_elements', { app: String(form.pid), role: 'textbox' });
      return out.isError ? undefined : refOf(out.text, /textbox/);
    });
    await macpilot.ok('click_element', { ref: field });
    expect((await macpilot.call('press_key', { key: 'ctrl+v' })).text).toMatch(
      /^Not done: pressing ctrl\+v would paste what was copied in an app hidden from you/,
    );
    expect((await macpilot.call('get_clipboard')).text).toMatch(
      /^Not read: the clipboard holds what was copied/,
    );
    expect(await macpilot.ok('get_element', { ref: field })).not.toContain('early-secret');
    await processes.stop(vault.pid);
    await processes.stop(form.pid);
  });
});

describe('the clipboard of a hidden app', () => {
  const { macpilot, processes } = useMacpilot(env);

  test('what a credential manager copied is not read back: get_clipboard refuses and the history leaves it out; once it is gone, the clipboard reads again', async () => {
    // The history watches the clipboard from here on; the agent's own copy comes first (it once let the
    // password through).
    await macpilot.ok('set_clipboard', { text: 'agent copy' });
    // The person copies a password in a credential manager (a stand-in the default lists hide).
    const vault = await copiedInVault(env, processes, 'hunter2-secret');
    // Refused at once, however soon after the copy the agent reads: the resource as the tool.
    const refused = await macpilot.call('get_clipboard');
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Not read: the clipboard holds what was copied in an app hidden from you/);
    expect(refused.text).not.toMatch(/hunter2|keepassxc/);
    await expect(macpilot.client.readResource({ uri: 'macpilot://clipboard' })).rejects.toThrow(
      /copied in an app hidden from you/,
    );
    // Another app in front changes nothing, and no paste puts the password where the agent reads.
    const form = processes.start('zenity', ['--entry', '--title', 'form', '--text', 'Note?']);
    const field = await eventually('the form field', async () => {
      const out = await macpilot.call('find_elements', { app: String(form.pid), role: 'textbox' });
      return out.isError ? undefined : refOf(out.text, /textbox/);
    });
    await macpilot.ok('activate_app', { name: String(form.pid) });
    expect((await macpilot.call('get_clipboard')).text).toMatch(
      /^Not read: the clipboard holds what was copied/,
    );
    await macpilot.ok('click_element', { ref: field });
    for (const key of ['ctrl+v', 'shift+insert']) {
      const pasted = await macpilot.call('press_key', { key });
      expect(pasted.text).toMatch(
        /^Not done: pressing .+ would paste what was copied in an app hidden from you/,
      );
    }
    // The modifier held down across calls first, the key after: a paste all the same.
    for (const [modifier, key] of [
      ['ctrl', 'v'],
      ['shift', 'insert'],
    ] as const) {
      await macpilot.ok('key_down', { key: modifier });
      for (const tool of ['press_key', 'key_down']) {
        const pasted = await macpilot.call(tool, { key });
        expect(pasted.text, `${modifier} held, ${tool} ${key}`).toMatch(/would paste what was copied/);
      }
      await macpilot.ok('key_up', { key: modifier });
    }
    // Ctrl held, "v" typed as text: the same paste.
    await macpilot.ok('key_down', { key: 'ctrl' });
    expect((await macpilot.call('type_text', { text: 'v' })).text).toMatch(/would paste what was copied/);
    await macpilot.ok('key_up', { key: 'ctrl' });
    // The field's own menu (the menu key opens it): its Paste item by key or by a click at its point. A key
    // held down before it opened is let go all the same.
    await macpilot.ok('key_down', { key: 'Up' });
    await macpilot.ok('press_key', { key: 'menu' });
    const paste = await eventually('the context menu', async () => {
      const found = await macpilot.call('find_elements', {
        app: String(form.pid),
        role: 'menuitem',
        name: 'Paste',
        match: 'exact',
      });
      return found.isError ? undefined : refOf(found.text, /menuitem "Paste"/);
    });
    for (const key of ['p', 'Return', 'Down']) {
      expect((await macpilot.call('press_key', { key })).text, key).toMatch(
        /^Not done: keys pressed while .+ may choose Paste, which would paste what was copied in an app hidden from you/,
      );
    }
    expect(await macpilot.ok('key_up', { key: 'Up' })).toMatch(/^Released up\./);
    const { structuredContent } = (await macpilot.client.callTool({
      name: 'get_element',
      arguments: { ref: paste },
    })) as { structuredContent?: { bounds?: { x: number; y: number; width: number; height: number } } };
    const bounds = structuredContent?.bounds;
    expect(bounds).toBeDefined();
    const clicked = await macpilot.call('click', {
      x: Math.round(bounds!.x + bounds!.width / 2),
      y: Math.round(bounds!.y + bounds!.height / 2),
    });
    expect(clicked.text).toMatch(/^Not done: click at the menuitem "Paste" would paste what was copied/);
    await macpilot.ok('press_key', { key: 'Escape' });
    // Selected all in the vault, the password is also the text selected last, which a middle click pastes.
    const middle = [
      await macpilot.call('click_element', { ref: field, button: 'middle' }),
      await macpilot.call('click', { x: 5, y: 5, button: 'middle' }),
    ];
    for (const refused of middle) {
      expect(refused.text).toMatch(
        /^Not done: a middle click would paste the text selected last, which was selected in an app hidden from you/,
      );
    }
    // No button is held down across calls meanwhile: a menu chooses the item it is let go over.
    for (const button of ['left', 'right', 'middle']) {
      expect((await macpilot.call('mouse_down', { button })).text, button).toMatch(
        new RegExp(
          `^Not done: press the ${button} button and leave it down, while the clipboard holds what was copied in an app hidden from you`,
        ),
      );
    }
    expect(await macpilot.ok('get_element', { ref: field })).not.toContain('hunter2');
    const history = await macpilot.ok('get_clipboard_history');
    expect(history).not.toContain('hunter2');
    // Left out, it is counted: "no text was copied" would not be true.
    expect(history).toMatch(/1 text copied in apps the person's app lists hide is left out/);
    expect(history).toContain('"agent copy"');
    await macpilot.ok('set_clipboard', { text: 'public text' });
    expect(await macpilot.ok('get_clipboard')).toMatch(/\npublic text$/);
    // Something else copied: pasting works again. The password is still the text selected last, which
    // Shift+Insert pastes in some apps (xterm), and a middle click in all.
    await macpilot.ok('press_key', { key: 'ctrl+v' });
    await eventually('the paste', async () =>
      (await macpilot.ok('get_element', { ref: field })).includes('public text') ? true : undefined,
    );
    expect((await macpilot.call('press_key', { key: 'shift+insert' })).text).toMatch(
      /^Not done: pressing .+ would paste the text selected last, which was selected in an app hidden from you/,
    );
    expect((await macpilot.call('click_element', { ref: field, button: 'middle' })).text).toMatch(
      /would paste the text selected last/,
    );
    expect((await macpilot.call('mouse_down', { button: 'middle' })).text).toMatch(
      /^Not done: pressing the middle button would paste the text selected last/,
    );
    // The vault gone, nothing it selected is left to paste: a middle click is a click again.
    await processes.stop(vault.pid);
    await macpilot.ok('click_element', { ref: field, button: 'middle' });
    expect(await macpilot.ok('get_element', { ref: field })).not.toContain('hunter2');
    await processes.stop(form.pid);
  });

  test("mousepad's open Edit menu: Paste at its point, by click or a drag onto it, is refused, and no button is held down to let go over it; so is ctrl held down after v", async () => {
    const vault = await copiedInVault(env, processes, 'menu-secret');
    const mousepad = processes.start('mousepad');
    const edit = await eventually('the Edit menu', async () => {
      const out = await macpilot.call('find_elements', {
        app: String(mousepad.pid),
        role: 'menu',
        name: 'Edit',
        match: 'exact',
      });
      return out.isError ? undefined : refOf(out.text, /menu "Edit"/);
    });
    // Open, the menu's items lie outside the window's tree as a hit test walks it.
    await macpilot.ok('click_element', { ref: edit });
    const paste = refOf(
      await macpilot.ok('find_elements', {
        app: String(mousepad.pid),
        role: 'menuitem',
        name: 'Paste',
        match: 'exact',
      }),
      /menuitem "Paste"/,
    );
    const { structuredContent } = (await macpilot.client.callTool({
      name: 'get_element',
      arguments: { ref: paste },
    })) as { structuredContent?: { bounds?: { x: number; y: number; width: number; height: number } } };
    const b = structuredContent!.bounds!;
    const at = { x: Math.round(b.x + b.width / 2), y: Math.round(b.y + b.height / 2) };
    expect((await macpilot.call('click', at)).text).toMatch(
      /^Not done: click at the menuitem "Paste" would paste what was copied in an app hidden from you/,
    );
    // Pressed elsewhere and let go over Paste: no button is held down across calls meanwhile.
    expect((await macpilot.call('mouse_down', { x: at.x, y: at.y - 60 })).text).toMatch(
      /^Not done: press the left button and leave it down, while the clipboard holds what was copied/,
    );
    expect((await macpilot.call('drag', { from: { x: at.x, y: at.y - 60 }, to: at })).text).toMatch(
      /^Not done: a drag onto the menuitem "Paste"/,
    );
    await macpilot.ok('press_key', { key: 'Escape' });
    // v held first, then ctrl: v repeats with ctrl down, which pastes.
    await macpilot.ok('key_down', { key: 'v' });
    expect((await macpilot.call('key_down', { key: 'ctrl' })).text).toMatch(
      /^Not done: pressing ctrl\+v would paste/,
    );
    await macpilot.ok('key_up', { key: 'v' });
    const document = await macpilot.ok('find_elements', { app: String(mousepad.pid), role: 'textbox' });
    expect(document).not.toContain('menu-secret');
    await processes.stop(vault.pid);
    await processes.stop(mousepad.pid);
  });
});
