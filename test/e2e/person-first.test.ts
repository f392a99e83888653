/**
 * The person comes first (MACPILOT_PERSON_FIRST): input from the person's own devices while an agent types stops
 * the typing where it is, answered as such; input right before an agent's call refuses it before anything is
 * sent; once the person has been still, the agent goes on. Without the setting the same moves stop nothing.
 * The person is a pointer and keyboard pair of their own (test/support/person.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { personAt, type Person } from '../support/person.js';
import { type Macpilot, startMacpilot, useMacpilot } from '../support/mcp.js';
import { settled } from '../support/text.js';
import { zenityEntry } from '../support/zenity.js';

const env = inject('desktopEnv');
const { macpilot, processes } = useMacpilot({ ...env, MACPILOT_PERSON_FIRST: 'on' });
let person: Person;
beforeAll(async () => {
  person = await personAt(env.DISPLAY ?? '');
});
afterAll(async () => {
  await person?.close();
});

const TEXT = 'a'.repeat(150);
/**
 * A zenity entry on `server`, 150 characters typed into it 20 ms apart (three seconds), and the person moving
 * their mouse 800 ms in: the answer, and the entry's value as read.
 */
async function typeWhileThePersonMoves(server: Macpilot, title: string) {
  const { field, value } = await zenityEntry(server, processes, title);
  const typing = server.call('type_text', { ref: field, text: TEXT, delay_ms: 20 });
  await sleep(800);
  await person.move(300, 300);
  return { out: await typing, field, value };
}

test('the person moving their mouse stops a long type_text where it is, and says how far it got', async () => {
  const { out, field, value } = await typeWhileThePersonMoves(macpilot, 'macpilot person first');
  expect(out.isError, out.text).toBe(true);
  expect(out.text).toMatch(/^Not done: the person is using the desk\./);
  expect(out.text).toMatch(
    /the person used the pointer \(macpilot person XTEST pointer\) \d+ ms ago, while this input ran, so the rest was not sent: \d+ of 150 characters were typed/,
  );
  expect(out.text).toContain('MACPILOT_PERSON_FIRST=off');
  const typed = Number(/(\d+) of 150 characters/.exec(out.text)?.[1]);
  expect(typed).toBeGreaterThan(0);
  expect(typed).toBeLessThan(150);
  // What the answer says is what the field holds, and nothing more arrives after it.
  expect(await settled(value, 'a'.repeat(typed))).toBe('a'.repeat(typed));
  await sleep(500);
  expect(await value()).toBe('a'.repeat(typed));

  // Right after the person's move, the next call sends nothing; once they are still, it goes through.
  await person.move(320, 310);
  const refused = await macpilot.call('type_text', { ref: field, text: 'b' });
  expect(refused.isError).toBe(true);
  expect(refused.text).toMatch(/just before this input would have begun, so none was sent/);
  await sleep(700);
  await macpilot.ok('type_text', { ref: field, text: 'b' });
  expect(await settled(value, `${'a'.repeat(typed)}b`)).toBe(`${'a'.repeat(typed)}b`);
});

test('the person pressing a key counts too; a button or key held by the agent is still let go', async () => {
  const { field, value } = await zenityEntry(macpilot, processes, 'macpilot person key');
  await macpilot.ok('key_down', { key: 'shift' });
  await person.press(50); // the person's own shift key, as good as any
  const refused = await macpilot.call('type_text', { ref: field, text: 'x' });
  expect(refused.text).toMatch(/the person used the keyboard \(macpilot person XTEST keyboard\)/);
  // Letting go gives the desk back: never held back for the person.
  await macpilot.ok('key_up', { key: 'shift' });
  await sleep(700);
  await macpilot.ok('type_text', { ref: field, text: 'x' });
  expect(await settled(value, 'x')).toBe('x');
});

test('without the setting the person moving stops nothing', async () => {
  const unwatched = await startMacpilot(env);
  try {
    const { out, value } = await typeWhileThePersonMoves(unwatched, 'macpilot person off');
    expect(out.isError, out.text).toBe(false);
    expect(await settled(value, TEXT)).toBe(TEXT);
  } finally {
    await unwatched.close();
  }
});
