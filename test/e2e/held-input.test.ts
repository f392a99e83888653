/**
 * Buttons and keys held across calls (mouse_down / mouse_up, key_down / key_up), and where the pointer is. What a
 * session holds is listed in session_info and let go when the client cancels a call, when the session ends, and
 * when its server dies: after each, a key typed into a zenity entry arrives lowercase.
 */
import { expect, inject, test } from 'vitest';
import { startMacpilot, useMacpilot } from '../support/mcp.js';
import { zenityEntry } from '../support/zenity.js';
import { eventually, refOf } from '../support/text.js';

const env = inject('desktopEnv');
const { macpilot, processes } = useMacpilot(env);

/** Empties the entry and presses "a" in it: "a", or "A" while a shift is still held somewhere. */
async function pressA(field: string, value: () => Promise<unknown>): Promise<unknown> {
  await macpilot.ok('set_value', { ref: field, value: '' });
  await macpilot.ok('focus_element', { ref: field });
  await macpilot.ok('press_key', { key: 'a' });
  return value();
}

test('key_down shift holds across calls until key_up, and session_info lists it', async () => {
  const { zenity, field, value } = await zenityEntry(macpilot, processes, 'macpilot held keys');
  const down = await macpilot.ok('key_down', { key: 'Shift' });
  expect(down).toContain('Held now: shift.');
  expect(await macpilot.ok('session_info')).toContain('held down: shift');
  expect(await pressA(field, value)).toBe('A');
  expect(await macpilot.ok('key_up', { key: 'shift' })).toContain('Nothing is held now.');
  expect(await macpilot.ok('session_info')).toContain('held down: nothing');
  expect(await pressA(field, value)).toBe('a');
  // Releasing what is not held sends nothing, and says so.
  expect(await macpilot.ok('key_up', { key: 'shift' })).toContain(
    'shift was not held down by this session, so nothing was sent',
  );
  await processes.stop(zenity.pid);
});

test('mouse_down then mouse_up on a button is a click; mouse_up alone is a no-op with a note', async () => {
  const zenity = processes.start('zenity', [
    '--question',
    '--title',
    'macpilot held button',
    '--text',
    'Sure?',
  ]);
  const yes = await eventually('the Yes button', async () => {
    const out = await macpilot.call('find_elements', {
      app: String(zenity.pid),
      role: 'button',
      name: 'Yes',
    });
    return out.isError ? undefined : refOf(out.text, /"Yes"/);
  });
  const { structuredContent } = (await macpilot.client.callTool({
    name: 'get_element',
    arguments: { ref: yes },
  })) as { structuredContent?: { bounds?: { x: number; y: number; width: number; height: number } } };
  const b = structuredContent?.bounds;
  expect(b).toBeDefined();
  const at = {
    x: Math.round((b?.x ?? 0) + (b?.width ?? 0) / 2),
    y: Math.round((b?.y ?? 0) + (b?.height ?? 0) / 2),
  };

  expect(await macpilot.ok('mouse_up', {})).toContain('the left button was not held down by this session');
  expect(await macpilot.ok('mouse_down', at)).toContain('Held now: the left button.');
  expect(await macpilot.ok('session_info')).toContain('held down: the left button');
  // Held, the press has not clicked yet: zenity is still asking.
  const early = await Promise.race([
    zenity.exited,
    new Promise((resolve) => setTimeout(resolve, 300, 'running')),
  ]);
  expect(early).toBe('running');
  await macpilot.ok('mouse_up', {});
  expect(await zenity.exited).toBe(0);
});

test('get_cursor_position answers where move_mouse put the pointer, and its display', async () => {
  await macpilot.ok('move_mouse', { x: 321, y: 234 });
  const result = (await macpilot.client.callTool({ name: 'get_cursor_position', arguments: {} })) as {
    structuredContent?: { x: number; y: number; display: string | null };
    content: { text?: string }[];
  };
  expect(result.structuredContent).toMatchObject({ x: 321, y: 234 });
  expect(result.structuredContent?.display).toBeTruthy();
  expect(result.content[0]?.text).toMatch(/^The pointer is at 321,234 \(screen points\), on display /);
});

/** A second server on the desktop that holds shift down; `end` ends it one way or another. */
async function shiftHeldBy(end: (second: Awaited<ReturnType<typeof startMacpilot>>) => Promise<void>) {
  const second = await startMacpilot(env);
  await second.ok('key_down', { key: 'shift' });
  await end(second);
}

test('what a session holds is let go when a call is cancelled, when the session ends, and when its server dies', async () => {
  const { zenity, field, value } = await zenityEntry(macpilot, processes, 'macpilot let go');

  // A cancelled call: the client aborts a long wait while shift is held.
  await shiftHeldBy(async (second) => {
    const stop = new AbortController();
    const waiting = second.client
      .callTool(
        {
          name: 'wait_for',
          arguments: { condition: 'text_appears', text: 'never there', timeout_ms: 20_000 },
        },
        undefined,
        { signal: stop.signal },
      )
      .catch(() => 'cancelled');
    setTimeout(() => stop.abort(), 300);
    expect(await waiting).toBe('cancelled');
    await eventually('the cancel to let go of shift', async () =>
      (await second.ok('session_info')).includes('held down: nothing') ? true : undefined,
    );
    expect(await pressA(field, value)).toBe('a');
    await second.close();
  });

  // The session ends: the client closes.
  await shiftHeldBy((second) => second.close());
  expect(
    await eventually('shift let go at the session end', async () =>
      (await pressA(field, value)) === 'a' ? 'a' : undefined,
    ),
  ).toBe('a');

  // The server dies: its helper sees its stdin close and lets go before it exits.
  await shiftHeldBy(async (second) => {
    process.kill(second.serverPid() ?? 0, 'SIGKILL');
    await second.close().catch(() => {});
  });
  expect(
    await eventually('shift let go when the server died', async () =>
      (await pressA(field, value)) === 'a' ? 'a' : undefined,
    ),
  ).toBe('a');

  await processes.stop(zenity.pid);
});
