import { describe, expect, it } from 'vitest';
import { textEngine } from '../engine/text-engine.js';

import type { HelperPort } from '../../../src/engine/kernel/port.js';
import { AppPolicy, appGate, withAccess } from '../../../src/policy/apps.js';
import type { AppRefused } from '../../../src/engine/kernel/resolve.js';
import { FakeHelper } from '../engine/fake-helper.js';
import { failure } from '../engine/failure.js';
import { el, mousepad, runningApps } from '../engine/fixtures.js';

const text = (e: { what: string; why: string; next: string }) => `${e.what}\n${e.why}\n${e.next}`;

describe('AppPolicy', () => {
  const refusal = (policy: AppPolicy, app: { name: string; bundleId?: string }, access: 'read' | 'write') => {
    try {
      policy.check(app, access);
      return undefined;
    } catch (error) {
      return text(error as { what: string; why: string; next: string });
    }
  };

  it('denies credential managers for reading by default, by name (any version) or bundle id', () => {
    const policy = new AppPolicy();
    expect(refusal(policy, { name: 'Keychain Access' }, 'read')).toMatch(/"Keychain Access" is off limits/);
    expect(refusal(policy, { name: '1Password 8' }, 'read')).toMatch(
      /credential manager.*\n.*MACPILOT_DENY_APPS/s,
    );
    expect(refusal(policy, { name: 'Vault', bundleId: 'com.bitwarden.desktop' }, 'read')).toBeDefined();
    expect(refusal(policy, { name: 'KeePassXC' }, 'read')).toBeDefined();
    expect(refusal(policy, { name: 'mousepad' }, 'write')).toBeUndefined();
  });

  it('offers a human the narrowest deny list that lifts what was refused, never an empty one', () => {
    const policy = new AppPolicy();
    const terminal = refusal(policy, { name: 'xterm' }, 'write') ?? '';
    expect(terminal).not.toMatch(/=none|"none"/);
    const offered = /MACPILOT_DENY_APPS='([^']*)'/.exec(terminal)?.[1] ?? '';
    // The credential managers stay denied under what it offers, and the terminal may be acted on.
    const lifted = new AppPolicy({ denyApps: offered.split(',') });
    expect(refusal(lifted, { name: 'xterm' }, 'write')).toBeUndefined();
    expect(refusal(lifted, { name: 'KeePassXC' }, 'read')).toMatch(/off limits/);
    const manager = refusal(policy, { name: 'keepassxc' }, 'read') ?? '';
    const others = (/MACPILOT_DENY_APPS='([^']*)'/.exec(manager)?.[1] ?? '').split(',');
    expect(refusal(new AppPolicy({ denyApps: others }), { name: 'keepassxc' }, 'read')).toBeUndefined();
    expect(refusal(new AppPolicy({ denyApps: others }), { name: 'Bitwarden' }, 'read')).toMatch(/off limits/);
  });

  it('lets terminals and settings be read but not acted on by default', () => {
    const policy = new AppPolicy();
    expect(refusal(policy, { name: 'xterm' }, 'read')).toBeUndefined();
    expect(refusal(policy, { name: 'Terminal', bundleId: 'com.apple.Terminal' }, 'write')).toMatch(
      /"Terminal" \(com.apple.Terminal\) may be read but not acted on/,
    );
    expect(
      refusal(policy, { name: 'Anything', bundleId: 'com.apple.systempreferences' }, 'write'),
    ).toBeDefined();
    // The terminals of Wayland desktops, by the names their accessibility trees give.
    for (const name of ['foot', 'Alacritty', 'kitty', 'kgx', 'gnome-control-center']) {
      expect(refusal(policy, { name }, 'write')).toMatch(/may be read but not acted on/);
    }
    expect(refusal(policy, { name: 'mousepad' }, 'write')).toBeUndefined();
  });

  it('MACPILOT_DENY_APPS replaces the default lists; "none" empties them', () => {
    const own = new AppPolicy({ denyApps: ['Mousepad'] });
    expect(refusal(own, { name: 'mousepad' }, 'read')).toMatch(
      /"mousepad" is off limits\nit is listed in the environment variable MACPILOT_DENY_APPS\n.*remove it from the environment variable MACPILOT_DENY_APPS/,
    );
    expect(refusal(own, { name: 'Keychain Access' }, 'read')).toBeUndefined();
    const none = new AppPolicy({ denyApps: ['none'] });
    expect(refusal(none, { name: 'Terminal' }, 'write')).toBeUndefined();
  });

  it('MACPILOT_ALLOW_APPS=none is no allow list, as none is no deny list', () => {
    const policy = new AppPolicy({ allowApps: ['none'] });
    expect(refusal(policy, { name: 'mousepad' }, 'write')).toBeUndefined();
    expect(refusal(policy, { name: 'KeePassXC' }, 'read')).toMatch(/off limits/);
  });

  it('MACPILOT_ALLOW_APPS allows only the apps it lists, and does not override a deny', () => {
    const policy = new AppPolicy({ allowApps: ['org.xfce.mousepad', 'Keychain Access'] });
    expect(refusal(policy, { name: 'Mousepad', bundleId: 'org.xfce.mousepad' }, 'write')).toBeUndefined();
    expect(refusal(policy, { name: 'gtk3-demo' }, 'read')).toMatch(
      /the environment variable MACPILOT_ALLOW_APPS lists the only apps allowed, and not this one/,
    );
    expect(refusal(policy, { name: 'Keychain Access' }, 'read')).toMatch(/off limits/);
  });
});

describe("the browser showing macpilot's console", () => {
  it("is refused whatever the lists say, as the person's own, and named as the console in the audit log", () => {
    const policy = new AppPolicy({ denyApps: ['none'], listDenied: true, hiddenPids: () => new Set([77]) });
    let refused: AppRefused | undefined;
    try {
      policy.check({ name: 'Chromium', pid: 77 }, 'list');
    } catch (error) {
      refused = error as AppRefused;
    }
    expect(refused?.personsOwn).toBe(true);
    expect(refused?.reached).toEqual({ app: "macpilot's console" });
    expect(refused?.what).toBe('"Chromium" (pid 77) is off limits');
    // The person at a terminal is told it is theirs, not to ask themselves.
    expect(refused?.renderForPerson()).toBe(
      '"Chromium" (pid 77) is your macpilot console\'s browser.\nWhy: macpilot keeps it from every command and ' +
        'agent, whatever your app lists say\nNext: nothing to do: use the console in its window',
    );
    expect(() => policy.check({ name: 'Chromium', pid: 78 }, 'write')).not.toThrow();
  });
});

describe("the lists in force, as doctor's app lists line says them", () => {
  it('the default lists', () => {
    expect(new AppPolicy().describe()).toMatch(
      /^the default lists: credential managers denied, terminals, system settings and the dialogs that grant access read-only$/,
    );
  });

  it('a list of your own, saying what the default lists no longer keep, and where it was set', () => {
    expect(new AppPolicy({ denyApps: ['1Password', 'gnome-terminal'] }).describe()).toBe(
      '1Password, gnome-terminal denied (the environment variable MACPILOT_DENY_APPS), in place of the default lists: credential managers ' +
        'not in it can be read and terminals, system settings and the dialogs that grant access acted on',
    );
    expect(new AppPolicy({ denyApps: ['none'], allowApps: ['mousepad'] }).describe()).toMatch(
      /^no app denied \(the environment variable MACPILOT_DENY_APPS\), in place of .*; only mousepad allowed \(the environment variable MACPILOT_ALLOW_APPS\)$/,
    );
  });
});

describe('the engine asks the app policy', () => {
  function setup(policy: AppPolicy) {
    const { app, other } = runningApps();
    const helper = new FakeHelper([app, other]);
    helper.actions.set('ok', ['click']);
    return { helper, engine: textEngine(helper, { settleMs: 0, pollMs: 0 }, appGate(policy)) };
  }

  it('refuses a snapshot of a denied app as if it did not run (to the person: why, naming the setting); serves the others', async () => {
    const { engine } = setup(new AppPolicy({ denyApps: ['org.xfce.mousepad'] }));
    const error = await failure(withAccess('read', () => engine.snapshot({ app: 'mousepad' })));
    // To an agent, a hidden app is not there: naming apps cannot find out which hidden ones run.
    const absent = await failure(withAccess('read', () => engine.snapshot({ app: 'nosuchapp' })));
    expect(text(error)).toBe(text(absent).replaceAll('nosuchapp', 'mousepad'));
    expect(error).toMatchObject({ kind: 'app_off_limits', refusal: true });
    expect(error.renderForPerson()).toMatch(
      /"mousepad" \(org.xfce.mousepad\) is off limits.*MACPILOT_DENY_APPS/s,
    );
    expect(await withAccess('read', () => engine.snapshot({ app: 'gtk3-demo' }))).toContain('gtk3-demo');
  });

  it('hides a denied app and its windows from the lists, saying how many, and never names it in an error', async () => {
    const { helper, engine } = setup(new AppPolicy({ denyApps: ['org.xfce.mousepad'] }));
    const bounds = { x: 0, y: 0, width: 100, height: 100 };
    const window = {
      pid: 4242,
      app: 'mousepad',
      title: 'passwords.kdbx',
      bounds,
      minimized: false,
      focused: true,
    };
    helper.windows = [
      { ...window, id: '1' },
      { ...window, id: '2', pid: 7, app: 'gtk3-demo', title: 'Demo', focused: false },
    ];
    const apps = await withAccess('read', () => engine.listApps());
    expect(apps).toContain('gtk3-demo (pid 7)');
    expect(apps).not.toContain('mousepad');
    expect(apps).toContain("1 app hidden by the person's app lists.");
    const windows = await withAccess('read', () => engine.engine.windows.list({}));
    expect(windows.windows.map((w) => w.title)).toEqual(['Demo']);
    expect(windows.hidden).toBe(1);
    // Named by its id or its title, a hidden window is, to the agent, not there: refused in the words of a
    // window no id or title names; the person is told which app and which setting.
    const byId = await failure(withAccess('write', () => engine.engine.windows.focus({ id: '1' })));
    expect(text(byId)).toMatch(/^No window has the id "1"/);
    expect(text(byId)).not.toMatch(/passwords|mousepad|off limits/);
    expect(byId).toMatchObject({ kind: 'app_off_limits', refusal: true, reached: { app: 'mousepad' } });
    expect(byId.renderForPerson()).toMatch(
      /^Window 1 is off limits\.\nWhy: "mousepad" \(org.xfce.mousepad\) is off limits: it is listed in /,
    );
    const byTitle = await failure(
      withAccess('write', () => engine.engine.windows.focus({ title: 'passwords' })),
    );
    expect(text(byTitle)).toMatch(/^No window matches: the window titled "passwords"/);
    expect(text(byTitle)).not.toMatch(/kdbx|mousepad|off limits/);
    expect(byTitle).toMatchObject({ kind: 'app_off_limits', refusal: true });
    expect(byTitle.renderForPerson()).toMatch(/^Window 1 is off limits/);
    const absent = await failure(
      withAccess('write', () => engine.engine.windows.focus({ title: 'nothing' })),
    );
    expect(absent).toMatchObject({ refusal: false });
    const missing = await failure(withAccess('read', () => engine.snapshot({ app: 'nosuchapp' })));
    expect(text(missing)).toContain('gtk3-demo');
    expect(text(missing)).not.toContain('mousepad');
  });

  it('with MACPILOT_LIST_DENIED_APPS on, lists a denied app and its windows, and still refuses to read or act on them', async () => {
    const { helper, engine } = setup(new AppPolicy({ denyApps: ['org.xfce.mousepad'], listDenied: true }));
    const bounds = { x: 0, y: 0, width: 100, height: 100 };
    helper.windows = [
      { id: '1', pid: 4242, app: 'mousepad', title: 'notes.txt', bounds, minimized: false, focused: true },
    ];
    const apps = await withAccess('read', () => engine.listApps());
    expect(apps).toContain('mousepad');
    expect(apps).not.toContain('hidden');
    const windows = await withAccess('read', () => engine.engine.windows.list({}));
    expect(windows.windows.map((w) => w.title)).toEqual(['notes.txt']);
    expect(windows.hidden).toBe(0);
    expect(text(await failure(withAccess('read', () => engine.snapshot({ app: 'mousepad' }))))).toMatch(
      /off limits/,
    );
    expect(text(await failure(withAccess('write', () => engine.engine.windows.focus({ id: '1' }))))).toMatch(
      /"mousepad" \(org.xfce.mousepad\) is off limits/,
    );
    expect(apps).toMatch(/mousepad \(pid 4242\).* off limits \(the person's app lists deny it\)/);
    expect(windows.offLimits).toEqual(['1']);
    // Named by the title it is listed with, it is off limits too, not "no window matches".
    expect(
      text(await failure(withAccess('write', () => engine.engine.windows.focus({ title: 'notes' })))),
    ).toMatch(/"mousepad" \(org.xfce.mousepad\) is off limits/);
  });

  it('never offers two denied apps of one name as a choice, nor names their pids or windows', async () => {
    const { app, other } = runningApps();
    const twin = { ...other, pid: 8, root: el('application', 'gtk3-demo', { id: 'twin', pid: 8 }) };
    const helper = new FakeHelper([app, other, twin]);
    const bounds = { x: 0, y: 0, width: 100, height: 100 };
    helper.windows = [
      { id: '1', pid: 7, app: 'gtk3-demo', title: 'Secret A', bounds, minimized: false, focused: false },
      { id: '2', pid: 8, app: 'gtk3-demo', title: 'Secret B', bounds, minimized: false, focused: false },
    ];
    const policy = new AppPolicy({ denyApps: ['gtk3-demo'] });
    const engine = textEngine(helper, { settleMs: 0, pollMs: 0 }, appGate(policy));
    const error = await failure(withAccess('read', () => engine.snapshot({ app: 'gtk3-demo' })));
    const refused = text(error);
    expect(refused).toMatch(/No running app matches "gtk3-demo"/);
    expect(refused).not.toMatch(/Secret|pid 7|pid 8|Several/);
    expect(error.renderForPerson()).toMatch(/"gtk3-demo" is off limits/);
    // One of the two allowed by pid-free means: a deny of the other's bundle id leaves the readable one, chosen.
    const one = new AppPolicy({ denyApps: ['org.example.twin'] });
    const withBundle = new FakeHelper([app, other, { ...twin, bundleId: 'org.example.twin' }]);
    const picked = textEngine(withBundle, { settleMs: 0, pollMs: 0 }, appGate(one));
    expect(await withAccess('read', () => picked.snapshot({ app: 'gtk3-demo' }))).toContain('pid 7');
  });

  it('refuses a path into a denied app', async () => {
    const { engine } = setup(new AppPolicy({ denyApps: ['mousepad'] }));
    const error = await failure(
      withAccess('read', () => engine.getElement({ path: 'app("mousepad")/dialog/textbox' })),
    );
    expect(error.what).toBe('No running app matches "mousepad"');
    expect(error.renderForPerson()).toMatch(/off limits/);
  });

  it('reads a write-denied app, but refuses to act on its elements', async () => {
    const app = { pid: 9, name: 'xterm', active: true, root: mousepad() };
    const helper = new FakeHelper([app]);
    helper.actions.set('ok', ['click']);
    const engine = textEngine(helper, { settleMs: 0, pollMs: 0 }, appGate(new AppPolicy()));
    const snapshot = await withAccess('read', () => engine.snapshot({ app: 'xterm' }));
    const ref = snapshot
      .split('\n')
      .find((l) => l.includes('"OK"'))
      ?.match(/ref=(e\d+)/)?.[1];
    expect(ref).toBeDefined();
    const error = await failure(withAccess('write', () => engine.click({ ref })));
    expect(text(error)).toMatch(/"xterm" may be read but not acted on.*MACPILOT_DENY_APPS/s);
    expect(helper.calls.map((c) => c.method)).not.toContain('ax.perform');
  });

  it('refuses input at a point over a write-denied app, and keys while it is active', async () => {
    const helper = new FakeHelper([{ pid: 4242, name: 'xterm', active: true, root: mousepad() }]);
    // Input asks the helper's platform first (key names differ); the fake serves trees only.
    const port: HelperPort = {
      call: (method, params) =>
        method === 'system.hello'
          ? Promise.resolve({ platform: 'linux' } as never)
          : helper.call(method, params),
    };
    const engine = textEngine(port, { settleMs: 0, pollMs: 0 }, appGate(new AppPolicy()));
    const click = await failure(withAccess('write', () => engine.input.click({ x: 10, y: 50 })));
    expect(click.what).toBe('"xterm" may be read but not acted on');
    const key = await failure(withAccess('write', () => engine.input.pressKey('enter', [], 1)));
    expect(key.what).toBe('"xterm" may be read but not acted on');
    expect(helper.calls.map((c) => c.method).filter((m) => m.startsWith('input.'))).toEqual([]);
  });

  it('an app allowed by bundle id may be acted on through the refs of its snapshot', async () => {
    const { engine } = setup(new AppPolicy({ allowApps: ['org.xfce.mousepad'] }));
    const snapshot = await withAccess('read', () => engine.snapshot({ app: 'mousepad' }));
    const ref = snapshot
      .split('\n')
      .find((l) => l.includes('"OK"'))
      ?.match(/ref=(e\d+)/)?.[1];
    expect(await withAccess('write', () => engine.click({ ref }))).toContain('Clicked');
    const other = await failure(withAccess('read', () => engine.snapshot({ app: 'gtk3-demo' })));
    expect(other.renderForPerson()).toContain(
      'the environment variable MACPILOT_ALLOW_APPS lists the only apps allowed, and not this one',
    );
  });

  it('refuses to launch a denied app by the name given', async () => {
    const { engine, helper } = setup(new AppPolicy());
    const error = await failure(withAccess('write', () => engine.launchApp('KeePassXC')));
    expect(error.what).toBe('"KeePassXC" is off limits');
    expect(helper.calls.map((c) => c.method)).not.toContain('apps.launch');
  });
});
