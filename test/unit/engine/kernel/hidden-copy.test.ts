/** What counts as a paste while the clipboard holds a hidden app's copy, and the refusal then. */
import { describe, expect, test } from 'vitest';
import {
  HiddenCopy,
  namedPaste,
  pastes,
  refuseSelectionPaste,
} from '../../../../src/engine/kernel/hidden-copy.js';
import type { HelperPort } from '../../../../src/engine/kernel/port.js';
import { RefTable } from '../../../../src/engine/kernel/refs.js';
import { AppRefused, Resolver } from '../../../../src/engine/kernel/resolve.js';
import type { Result } from '../../../../src/helper-client/protocol.js';
import { parseChord } from '../../../../src/keys.js';

test('Ctrl+V, Command+V (with Shift too) and Shift+Insert paste; Ctrl+C, V and Ctrl+Insert do not', () => {
  for (const chord of ['ctrl+v', 'cmd+v', 'ctrl+shift+v', 'Control+V', 'shift+insert']) {
    expect(pastes(parseChord(chord)), chord).toBe(true);
  }
  for (const chord of ['ctrl+c', 'v', 'ctrl+insert', 'shift+v', 'alt+v']) {
    expect(pastes(parseChord(chord)), chord).toBe(false);
  }
});

test('a menu item or button named Paste pastes; a name that only mentions it does not', () => {
  expect(['Paste', 'Paste Special…', 'paste and match style'].every(namedPaste)).toBe(true);
  expect(['Copy', 'Pasted', 'Clipboard: paste', undefined].some(namedPaste)).toBe(false);
});

/** The lists' refusal of a hidden app, in the person's words. */
const byLists = new AppRefused({
  what: '"keepassxc" is off limits',
  why: 'credential managers are hidden by default',
  next: 'set MACPILOT_DENY_APPS=none',
  kind: 'app_off_limits',
  refusal: true,
});

test('refused only while the clipboard holds the copy, as a refusal of the app lists; the person is told which', async () => {
  const copy = new HiddenCopy();
  await expect(copy.refusePaste('pressing ctrl+v')).resolves.toBeUndefined();
  copy.set(byLists);
  const refused = await copy.refusePaste('pressing ctrl+v').catch((error: unknown) => error as AppRefused);
  expect(refused).toEqual(expect.objectContaining({ kind: 'app_off_limits', refusal: true }));
  expect(refused?.render()).not.toContain('keepassxc');
  expect(refused?.renderForPerson()).toContain(
    '"keepassxc" is off limits: credential managers are hidden by default',
  );
  copy.set(undefined);
  await expect(copy.refusePaste('pressing ctrl+v')).resolves.toBeUndefined();
});

test('judged once what the clipboard holds is settled: a copy heard a moment before the paste counts', async () => {
  const copy = new HiddenCopy();
  copy.settle = async () => {
    await new Promise((resolve) => setTimeout(resolve, 10));
    copy.set(byLists);
  };
  await expect(copy.refusePaste('pressing ctrl+v')).rejects.toThrow(/would paste what was copied/);
});

describe('a middle click, which pastes the text selected last', () => {
  const apps = [
    { pid: 10, name: 'mousepad', id: 'a10', active: true },
    { pid: 20, name: 'keepassxc', id: 'a20', active: false },
  ];
  /** A helper that says who owns the selection; apps.list and windows.list as a desktop with those apps. */
  const portWith = (owner: Result<'clipboard.owner'>, running = apps): HelperPort =>
    ({
      call: async (method: string) => {
        if (method === 'clipboard.owner') return owner;
        if (method === 'apps.list') return { apps: running };
        if (method === 'windows.list') return { windows: [] };
        throw new Error(`unexpected ${method}`);
      },
    }) as unknown as HelperPort;
  const refusal = expect.objectContaining({ kind: 'app_off_limits', refusal: true });
  /** The lists hide keepassxc. */
  const resolverOver = (port: HelperPort) =>
    new Resolver(port, new RefTable(), (app) => {
      if (app.name === 'keepassxc')
        throw new AppRefused({ what: 'hidden', why: '', next: '', kind: 'app_off_limits', refusal: true });
    });
  const click = (owner: Result<'clipboard.owner'>, running = apps) => {
    const port = portWith(owner, running);
    return refuseSelectionPaste(port, resolverOver(port), 'a middle click');
  };

  test('refused while an app the lists hide owns the selection; not for another owner or none', async () => {
    await expect(click({ known: true, pid: 20 })).rejects.toEqual(refusal);
    await expect(click({ known: true, pid: 20 })).rejects.toThrow(/selected in an app hidden from you/);
    await expect(click({ known: true, pid: 10 })).resolves.toBeUndefined();
    // A process that is no app (xclip), and no owner at all.
    await expect(click({ known: true, pid: 99 })).resolves.toBeUndefined();
    await expect(click({ known: true })).resolves.toBeUndefined();
  });

  test('where the owner is unknown (Wayland), refused while an app the lists hide runs, and only then', async () => {
    await expect(click({ known: false })).rejects.toThrow(/cannot tell in which app it was selected/);
    await expect(click({ known: false }, apps.slice(0, 1))).resolves.toBeUndefined();
  });
});
