import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { MacpilotError } from '../../../src/errors.js';
import { describe, expect, it } from 'vitest';
import type { Consent } from '../../../src/config.js';
import type { Mode } from '../../../src/modes.js';
import { elicitingHuman } from '../../../src/mcp/elicit.js';
import { ConsentGuard, type TargetSource } from '../../../src/policy/consent.js';
import { ModeGuard } from '../../../src/policy/mode.js';
import type { ToolCall } from '../../../src/policy/pipeline.js';
import { allTools } from '../../../src/tools/index.js';
import { failure } from '../engine/failure.js';
import { el } from '../engine/fixtures.js';

const tool = (name: string) => {
  const found = allTools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};

/** A client that answers elicitations with `answer`, or that cannot elicit (answer undefined). */
function client(answer?: ElicitResult) {
  const asked: string[] = [];
  const server = {
    getClientCapabilities: () => (answer ? { elicitation: {} } : {}),
    elicitInput: (params: { message: string }) => {
      asked.push(params.message);
      return Promise.resolve(answer);
    },
  } as unknown as Server;
  return { server, asked };
}

const call = (name: string, args: Record<string, unknown>, server: Server): ToolCall => ({
  tool: tool(name),
  args,
  human: elicitingHuman(server),
  clientLog: { send: () => {} },
  signal: new AbortController().signal,
});

/** The desktop's windows, the focused one first; what `windows.focus` was asked, in order. */
const desk = { focused: 'w1', focusedAsked: [] as string[] };
const port = (focused: ReturnType<typeof el>) => ({
  call: (method: string, params: { id?: string }) => {
    if (method === 'windows.list')
      return Promise.resolve({
        windows: ['w1', 'w2'].map((id) => ({ id, focused: id === desk.focused })),
      });
    if (method === 'windows.focus') {
      desk.focusedAsked.push(params.id ?? '');
      desk.focused = params.id ?? '';
      return Promise.resolve({});
    }
    return Promise.resolve({ element: focused });
  },
});

/** The session issued e5 for a "Delete All" button; `focused` is what has keyboard focus. */
const guard = (
  mode: Mode,
  consent: Consent = 'ask',
  focused = el('push button', 'Save'),
  held: readonly string[] = [],
) =>
  new ConsentGuard(
    { mode, consent },
    {
      refs: { known: (ref: string) => (ref === 'e5' ? { label: 'push button "Delete All"' } : undefined) },
      port: port(focused),
      // Paths reach what their last step names; `button[1]` reaches "Delete".
      resolver: {
        path: (path: { segments: { role: string; name?: string; index?: number }[] }) => {
          const last = path.segments.at(-1);
          if (last?.name === 'Gone')
            return Promise.reject(
              new MacpilotError({ what: 'No element at this path', why: '-', next: '-' }),
            );
          const name = last?.name ?? (last?.index === 1 ? 'Delete' : 'Keep');
          const role = last?.role === 'textbox' ? 'textbox' : 'push button';
          return Promise.resolve({ label: `${role} "${name}"`, app: { name: 'zenity', pid: 7 } });
        },
        // pid 66 is the denied KeePassXC's: the lists refuse it without its name.
        appOf: (pid: number) =>
          pid === 66
            ? Promise.reject(
                new MacpilotError({ what: 'an app hidden from you', why: '-', next: '-', refusal: true }),
              )
            : Promise.resolve({ name: 'mousepad', pid: 8 }),
        // Window 66 is the denied KeePassXC's.
        gateWindow: (id: string) =>
          id === '66'
            ? Promise.reject(
                new MacpilotError({ what: 'Window 66 is off limits', why: '-', next: '-', refusal: true }),
              )
            : Promise.resolve(),
        // The windows the call may see: zenity's (pid 3675) question; KeePassXC's are hidden from it.
        visibleWindows: () =>
          Promise.resolve({
            windows: [{ id: '41', title: 'Information', app: 'zenity', pid: 3675 }],
          }),
        // The app lists deny KeePassXC; NoSuchApp does not run; other names are running apps.
        app: (name: string) =>
          name === 'KeePassXC'
            ? Promise.reject(new MacpilotError({ what: 'off limits', why: '-', next: '-', refusal: true }))
            : name === 'NoSuchApp'
              ? Promise.reject(
                  new MacpilotError({ what: 'No running app', why: '-', next: '-', kind: 'app_not_running' }),
                )
              : name === '8'
                ? Promise.resolve({ name: 'mousepad', pid: 8 })
                : Promise.resolve({ name, pid: 9 }),
      },
    } as unknown as TargetSource,
    () => held,
  );

const accept: ElicitResult = { action: 'accept', content: { confirm: true } };

describe('ConsentGuard', () => {
  it('asks the human before a destructiveHint tool in full mode, naming the target', async () => {
    const { server, asked } = client(accept);
    const quit = call('quit_app', { name: 'zenity' }, server);
    await guard('full').admit(quit);
    expect(asked).toEqual(['An AI agent wants to quit an app (zenity). Allow it?']);
    expect(quit.notes).toEqual({ consent: 'accepted' }); // for the audit log's flags
  });

  it('in safe mode, the element a path reaches decides, whatever the path spells; a path to nothing fails unasked', async () => {
    const { server, asked } = client(accept);
    const gone = call('click_element', { path: 'app("mousepad")/window[0]/button["Gone"]' }, server);
    await expect(guard('safe').admit(gone)).rejects.toThrow('No element at this path');
    await guard('safe').admit(call('click_element', { path: 'app("mousepad")/window[0]/button[0]' }, server));
    expect(asked).toEqual([]);
    await guard('safe').admit(call('click_element', { path: 'app("mousepad")/window[0]/button[1]' }, server));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('push button "Delete"');
  });

  it('in safe mode, text typed into the focused element asks when a destructive control has the focus', async () => {
    const { server, asked } = client(accept);
    await guard('safe', 'ask', el('push button', 'Delete')).admit(call('type_text', { text: ' ' }, server));
    expect(asked).toHaveLength(1);
    await guard('safe', 'ask', el('push button', 'Save')).admit(call('type_text', { text: ' ' }, server));
    expect(asked).toHaveLength(1);
  });

  it('in safe mode, a shortcut that closes a window or quits an app asks; other shortcuts do not', async () => {
    const { server, asked } = client(accept);
    const focused = el('text', 'Document');
    for (const [key, modifiers] of [
      ['alt+f4', []],
      ['w', ['ctrl']],
      ['q', ['command']],
      ['ctrl+shift+w', []],
    ] as const) {
      await guard('safe', 'ask', focused).admit(call('press_key', { key, modifiers }, server));
    }
    expect(asked).toHaveLength(4);
    for (const key of ['ctrl+a', 'f4', 'alt+w', 'ctrl+alt+q', 'q']) {
      await guard('safe', 'ask', focused).admit(call('press_key', { key }, server));
    }
    await guard('full', 'ask', focused).admit(call('press_key', { key: 'alt+f4' }, server));
    expect(asked).toHaveLength(4);
  });

  it('shows the human the script a run_applescript call would run', async () => {
    const { server, asked } = client(accept);
    await guard('full').admit(
      call('run_applescript', { script: 'tell application "Mail" to quit', language: 'applescript' }, server),
    );
    expect(asked).toEqual([
      'An AI agent wants to run an applescript. Allow it?\n\nThe AppleScript script:\ntell application "Mail" to quit',
    ]);
  });

  it('asks the human before start_recording, read-only though it is, in every mode unless consent is allow', async () => {
    for (const mode of ['full', 'safe', 'read-only'] as const) {
      const { server, asked } = client(accept);
      await guard(mode).admit(call('start_recording', { app: 'gedit' }, server));
      expect(asked).toEqual([
        'An AI agent wants to record a demonstration (gedit). Allow it?\n\nWhat you type and click in gedit will ' +
          'be recorded until the agent stops the recording or this session ends, and handed to the agent as ' +
          'steps (keys typed into password fields and terminals are left out).',
      ]);
    }
    const { server, asked } = client(accept);
    const recording = call('start_recording', {}, server);
    await guard('full', 'allow').admit(recording);
    await guard('full').admit(call('stop_recording', {}, server));
    expect(asked).toEqual([]);
    // The audit log says the setting let it run without a question; a call that would not ask has no such note.
    expect(recording.notes).toEqual({ consent: 'allowed_by_setting' });
    const quit = call('quit_app', { name: 'zenity' }, server);
    await guard('safe', 'allow').admit(quit);
    expect(quit.notes).toEqual({ consent: 'allowed_by_setting' });
    const typing = call('type_text', { text: 'x' }, server);
    await guard('safe', 'allow').admit(typing);
    expect(typing.notes).toBeUndefined();
  });

  it('keys allowed go where they were asked about: the focus an answer took is given back before they are sent', async () => {
    desk.focused = 'w1';
    desk.focusedAsked = [];
    const quitting = call('press_key', { key: 'ctrl+w' }, client(accept).server);
    quitting.human = {
      unreachable: () => undefined,
      // The person clicks Allow in the console: its window takes the focus.
      confirm: async () => {
        desk.focused = 'w2';
        return 'accept';
      },
      choose: async () => ({ action: 'cancel' }),
    };
    await guard('safe').admit(quitting);
    expect(desk.focusedAsked).toEqual(['w1']);
    // A focus the answer left alone is not touched.
    desk.focusedAsked = [];
    quitting.human = { ...quitting.human, confirm: async () => 'accept' };
    await guard('safe').admit(quitting);
    expect(desk.focusedAsked).toEqual([]);
  });

  it('a key for an app the keyboard focus is not in fails before anyone is asked, unless it goes in the background', async () => {
    const { server, asked } = client(accept);
    // Named apps resolve to pid 9; the focused element belongs to pid 8.
    const elsewhere = el('text', 'Document', { pid: 8 });
    const closing = { key: 'ctrl+w', app: 'mousepad' };
    await expect(guard('safe', 'ask', elsewhere).admit(call('press_key', closing, server))).rejects.toThrow(
      'the keyboard focus is not in mousepad',
    );
    expect(asked).toEqual([]);
    await guard('safe', 'ask', el('text', 'Document', { pid: 9 })).admit(call('press_key', closing, server));
    await guard('safe', 'ask', elsewhere).admit(call('press_key', { ...closing, background: true }, server));
    expect(asked).toHaveLength(2);
  });

  it('an app named by its pid is asked about by its name and pid, and the call notes the app for the audit log', async () => {
    const { server, asked } = client(accept);
    const quit = call('quit_app', { name: '8' }, server);
    await guard('full').admit(quit);
    expect(asked).toEqual(['An AI agent wants to quit an app (mousepad (pid 8)). Allow it?']);
    expect(quit.reached).toEqual({ app: 'mousepad' });
  });

  it('refuses when the human declines, or accepts without confirming', async () => {
    const declined = client({ action: 'decline' });
    const quit = call('quit_app', { name: 'zenity' }, declined.server);
    const error = await failure(guard('full').admit(quit));
    expect(error.what).toBe('The user did not allow: quit an app (zenity)');
    // At a terminal the person asked is the one who reads the failure.
    expect(error.renderForPerson()).toBe(
      'Not done: you did not allow it (quit an app (zenity)).\nWhy: you answered no\nNext: nothing was changed; run the command again to be asked again',
    );
    expect(quit.notes).toEqual({ consent: 'declined' });
    const unchecked = client({ action: 'accept', content: { confirm: false } });
    await failure(guard('full').admit(call('close_window', { title: 'Notes' }, unchecked.server)));
  });

  it('a question no one answered in time is told as unanswered, not as a no the person gave', async () => {
    const quit: ToolCall = {
      ...call('quit_app', { name: 'zenity' }, client().server),
      human: {
        unreachable: () => undefined,
        confirm: async () => 'unanswered',
        choose: async () => ({ action: 'cancel' }),
      },
    };
    const error = await failure(guard('full').admit(quit));
    expect(error.what).toBe('Not done: no one answered whether to allow: quit an app (zenity)');
    expect(error.why).toContain(
      "waited in macpilot's console without an answer (2 minutes, or 10 s once no page",
    );
    expect(error.kind).toBe('consent_unanswered');
    expect(quit.notes).toEqual({ consent: 'unanswered' });
  });

  it('a question withdrawn because the call was stopped or cancelled is told as that, not as a no the person gave', async () => {
    const stopped = new MacpilotError({
      what: 'Stopped by the person at the desk',
      why: '-',
      next: '-',
      kind: 'stopped_at_the_desk',
    });
    for (const [reason, kind] of [
      [stopped, 'stopped_at_the_desk'],
      [new Error('the client went away'), 'cancelled'],
    ] as const) {
      const stop = new AbortController();
      const quit: ToolCall = {
        ...call('quit_app', { name: 'zenity' }, client().server),
        signal: stop.signal,
        human: {
          unreachable: () => undefined,
          // Withdrawn when the call's signal aborts: what the question's answer then says is a "decline".
          confirm: async () => {
            stop.abort(reason);
            return 'decline';
          },
          choose: async () => ({ action: 'cancel' }),
        },
      };
      const error = await failure(guard('full').admit(quit));
      expect(error.kind).toBe(kind);
      expect(quit.notes).toEqual({ consent: 'withdrawn' });
    }
  });

  it('in full mode, does not ask about a write tool without destructiveHint, whatever its target', async () => {
    const { server, asked } = client(accept);
    await guard('full').admit(call('click_element', { ref: 'e5' }, server));
    expect(asked).toEqual([]);
  });

  it('in safe mode, asks before a write action whose target is named like a destructive one', async () => {
    const { server, asked } = client(accept);
    await guard('safe').admit(call('click_element', { ref: 'e5' }, server));
    await guard('safe').admit(call('click_menu_item', { app: 'mousepad', path: 'File > Close' }, server));
    await guard('safe').admit(call('click_element', { ref: 'e6' }, server));
    await guard('safe').admit(call('type_text', { text: 'delete everything' }, server));
    // click_text's text is the label it clicks, unlike typed text.
    await guard('safe').admit(call('click_text', { text: 'Delete All' }, server));
    await guard('safe').admit(call('click_text', { text: 'Open' }, server));
    expect(asked).toEqual([
      'An AI agent wants to click an element (push button "Delete All"). Allow it?',
      'An AI agent wants to click a menu item (File > Close, mousepad). Allow it?',
      'An AI agent wants to click text on screen (Delete All). Allow it?',
    ]);
  });

  it('in safe mode, does not read a notification headline or a file name as a destructive target', async () => {
    const { server, asked } = client(accept);
    await guard('safe').admit(call('send_notification', { title: 'Send the report', message: 'x' }, server));
    await guard('safe').admit(call('reveal_in_finder', { path: '/tmp/delete-me.txt' }, server));
    expect(asked).toEqual([]);
  });

  it('in safe mode, asks before a key press that reaches a focused element named like a destructive one', async () => {
    const { server, asked } = client(accept);
    await guard('safe').admit(call('press_key', { key: 'enter' }, server));
    await guard('full', 'ask', el('push button', 'Delete All')).admit(
      call('press_key', { key: 'enter' }, server),
    );
    expect(asked).toEqual([]);
    await guard('safe', 'ask', el('push button', 'Delete All')).admit(
      call('press_key', { key: 'enter' }, server),
    );
    expect(asked).toEqual([
      'An AI agent wants to press a key (enter, button "Delete All" in mousepad (focused)). Allow it?',
    ]);
  });

  it("in safe mode, keys into a hidden app's focused element are refused before anyone is asked, naming no element", async () => {
    const { server, asked } = client(accept);
    const secret = { ...el('text', 'Master password?'), pid: 66 };
    const refused = await failure(
      guard('safe', 'ask', secret).admit(call('press_key', { key: 'alt+f4' }, server)),
    );
    expect(asked).toEqual([]);
    expect(refused.render()).not.toContain('Master password');
  });

  it('in safe mode, keeps what it found the call would act on for the audit log; text typed by path is not about the focus', async () => {
    const { server, asked } = client(accept);
    const keys = call('press_key', { key: 'enter' }, server);
    await guard('safe', 'ask', el('push button', 'Delete All')).admit(keys);
    expect(keys.reached).toEqual({ app: 'mousepad', label: 'button "Delete All"', editable: false });
    const byPath = call('type_text', { text: 'x', path: 'app("zenity")/dialog/button[1]' }, server);
    await guard('safe', 'ask', el('push button', 'Delete All')).admit(byPath);
    expect(byPath.reached).toEqual({ app: 'zenity', label: 'push button "Delete"' });
    expect(asked.at(-1)).toBe(
      'An AI agent wants to type text (app("zenity")/dialog/button[1], push button "Delete"). Allow it?',
    );
    // A self-labelled field's name may be what was typed in it: asked about, it is shown as its length.
    const field = call(
      'type_text',
      { text: 'x', path: 'app("zenity")/dialog/textbox["DELSECRET delete"]' },
      server,
    );
    await guard('safe', 'ask', el('push button', 'Save')).admit(field);
    expect(asked.at(-1)).toBe(
      'An AI agent wants to type text (app("zenity")/dialog/textbox[(16 characters)], textbox name=(16 characters)). Allow it?',
    );
    // The caller's own answer names what it acts on as it is: the masked form is no path macpilot accepts.
    const declined = client({ action: 'decline' });
    const refused = await failure(
      guard('safe', 'ask', el('push button', 'Save')).admit({
        ...field,
        human: call('type_text', {}, declined.server).human,
      }),
    );
    expect(refused.what).toBe(
      'The user did not allow: type text (app("zenity")/dialog/textbox["DELSECRET delete"], textbox "DELSECRET delete")',
    );
  });

  it('in safe mode, a key held down on a focused "Delete" button, or a click at its point, is asked about', async () => {
    const { server, asked } = client(accept);
    const deleteAll = el('push button', 'Delete all');
    await guard('safe', 'ask', deleteAll).admit(call('key_down', { key: 'return' }, server));
    await guard('safe', 'ask', deleteAll).admit(call('click', { x: 60, y: 115 }, server));
    await guard('safe', 'ask', el('push button', 'Save')).admit(call('click', { x: 60, y: 115 }, server));
    expect(asked).toEqual([
      'An AI agent wants to press a key and hold it (return, button "Delete all" in mousepad (focused)). Allow it?',
      'An AI agent wants to click at a point (button "Delete all" in mousepad (at 60,115)). Allow it?',
    ]);
  });

  it('in safe mode, a shortcut that closes a window asks with its modifiers, those held down by key_down too; letting go never asks', async () => {
    const { server, asked } = client(accept);
    const editor = el('entry', '');
    await guard('safe', 'ask', editor, ['control']).admit(call('press_key', { key: 'w' }, server));
    await guard('safe', 'ask', editor, ['control']).admit(call('key_down', { key: 'w' }, server));
    await guard('safe', 'ask', editor).admit(call('press_key', { key: 'F4', modifiers: ['alt'] }, server));
    await guard('safe', 'ask', el('push button', 'Delete all')).admit(
      call('key_up', { key: 'return' }, server),
    );
    expect(asked).toEqual([
      'An AI agent wants to press a key (control+w, textbox in mousepad (focused)). Allow it?',
      'An AI agent wants to press a key and hold it (control+w, textbox in mousepad (focused)). Allow it?',
      'An AI agent wants to press a key (alt+F4, textbox in mousepad (focused)). Allow it?',
    ]);
  });

  it('a focused field named by its own text is asked about with the name as its length', async () => {
    const { server, asked } = client(accept);
    const field = el('entry', 'DELSECRET delete');
    await guard('safe', 'ask', field).admit(call('press_key', { key: 'a' }, server));
    expect(asked).toEqual([
      'An AI agent wants to press a key (a, textbox name=(16 characters) in mousepad (focused)). Allow it?',
    ]);
  });

  it('a call the app lists refuse is refused before anyone is asked', async () => {
    const { server, asked } = client(accept);
    const error = await failure(guard('full').admit(call('quit_app', { name: 'KeePassXC' }, server)));
    expect(error.refusal).toBe(true);
    expect(asked).toEqual([]);
    await guard('full').admit(call('quit_app', { name: 'zenity' }, server));
    expect(asked).toHaveLength(1);
    const window = await failure(guard('full').admit(call('close_window', { window_id: '66' }, server)));
    expect(window.what).toBe('Window 66 is off limits');
    expect(asked).toHaveLength(1);
    const absent = await failure(guard('full').admit(call('quit_app', { name: 'NoSuchApp' }, server)));
    expect(absent.kind).toBe('app_not_running');
    expect(asked).toHaveLength(1);
    // A window's app may have windows and no tree (xmessage): the window tools find it, so the person is asked.
    await guard('full').admit(call('close_window', { app: 'NoSuchApp' }, server));
    expect(asked).toHaveLength(2);
  });

  it('names a window by its title and app, not by the pid or id the agent gave', async () => {
    const { server, asked } = client(accept);
    await guard('full').admit(call('close_window', { app: '3675' }, server));
    await guard('full').admit(call('close_window', { window_id: '41' }, server));
    expect(asked).toEqual([
      'An AI agent wants to close a window (window "Information" of zenity). Allow it?',
      'An AI agent wants to close a window (window "Information" of zenity). Allow it?',
    ]);
  });

  it('refuses a client without elicitation, saying how a human allows it in the config', async () => {
    const { server } = client();
    const error = await failure(guard('safe').admit(call('quit_app', { name: 'zenity' }, server)));
    expect(`${error.why}\n${error.next}`).toMatch(/elicitation.*MACPILOT_CONSENT=allow/s);
    expect(error.why).toMatch(/^it is destructive, and /);
    // A question safe mode adds says that safe mode asks it, and where that mode was set.
    const named = await failure(guard('safe').admit(call('click_element', { ref: 'e5' }, server)));
    expect(named.why).toMatch(
      /^safe mode \(set by the default of MACPILOT_MODE\) asks before acting on what is named like a destructive action, and /,
    );
  });

  it('MACPILOT_CONSENT=allow lets destructive actions run without asking', async () => {
    const { server } = client();
    await guard('safe', 'allow').admit(call('quit_app', { name: 'zenity' }, server));
  });

  it('no tool argument answers for the human', async () => {
    const { server } = client();
    const args = { name: 'zenity', confirm: true, consent: 'allow', approved: true };
    await failure(guard('full').admit(call('quit_app', args, server)));
  });
});

describe('ModeGuard', () => {
  it('read-only mode refuses write tools, naming the setting, and admits read-only ones', async () => {
    const { server } = client();
    const error = await failure(
      new ModeGuard('read-only').admit(call('click_element', { ref: 'e1' }, server)),
    );
    expect(error.next).toMatch(
      /set MACPILOT_MODE=safe where macpilot is started .*, then restart macpilot \(full allows it too\)/,
    );
    await new ModeGuard('read-only').admit(call('snapshot_ui', {}, server));
    await new ModeGuard('full').admit(call('click_element', { ref: 'e1' }, server));
  });

  it('read-only mode admits take_screenshot but refuses its file_path, saying what it would write', async () => {
    const { server } = client();
    await new ModeGuard('read-only').admit(call('take_screenshot', { annotate: true }, server));
    const error = await failure(
      new ModeGuard('read-only').admit(call('take_screenshot', { file_path: '/tmp/shot.png' }, server)),
    );
    expect(error.what).toBe('take_screenshot with file_path is not available in read-only mode');
    expect(error.why).toMatch(
      /^file_path writes the image to a new file, and .*read-only mode \(set by the environment variable MACPILOT_MODE\)/,
    );
    expect(error.next).toMatch(/without file_path.*set MACPILOT_MODE=safe where .* \(full allows it too\)/);
    await new ModeGuard('safe').admit(call('take_screenshot', { file_path: '/tmp/shot.png' }, server));
  });
});
