/** zenity --entry: fill the field and press OK through the MCP tools; zenity itself prints what it got. */
import { expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';

const { macpilot, processes } = useMacpilot(inject('desktopEnv'));

test('the text set in the entry is what zenity prints after OK', async () => {
  const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot e2e', '--text', 'Your name?']);
  const app = String(zenity.pid);
  const field = await eventually('the zenity entry', async () => {
    const out = await macpilot.call('find_elements', { app, role: 'textbox' });
    return out.isError ? undefined : refOf(out.text, /textbox/);
  });

  const typed = 'Ada Lovelace — 1815 ✓';
  const set = await macpilot.ok('set_value', { ref: field, value: typed });
  expect(set).toContain(field);

  const okButton = refOf(
    await macpilot.ok('find_elements', { app, role: 'button', name: 'OK', match: 'exact' }),
    /"OK"/,
  );
  const clicked = await macpilot.ok('click_element', { ref: okButton });
  expect(clicked).toContain('closed');

  expect(await zenity.exited).toBe(0);
  expect(zenity.stdout()).toBe(`${typed}\n`);
});
