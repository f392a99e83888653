/**
 * A button that opens a modal dialog (GTK3 runs the dialog's loop inside the button's handler): the click must
 * not freeze the app's accessibility, so that the agent can read and answer the dialog.
 */
import { beforeAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';

const { macpilot, processes } = useMacpilot(inject('desktopEnv'));
let app: string;

beforeAll(async () => {
  app = String(processes.start('gtk3-demo').pid);
  const row = await eventually('the demo list', async () => {
    const out = await macpilot.call('find_elements', {
      app,
      name: 'Dialogs and Message Boxes',
      match: 'exact',
    });
    return out.isError || !out.text.includes('[ref=')
      ? undefined
      : refOf(out.text, /Dialogs and Message Boxes/);
  });
  await macpilot.ok('perform_action', { ref: row, action: 'activate' });
});

test('clicking a button that opens a modal dialog answers at once with the dialog, which can be answered', async () => {
  const button = refOf(
    await macpilot.ok('find_elements', { app, role: 'button', name: 'Message Dialog', match: 'exact' }),
    /"Message Dialog"/,
  );
  const clicked = await macpilot.ok('click_element', { ref: button });
  expect(clicked).toMatch(/\+ opened: alert "Information" \[ref=e\d+\]/);
  expect(clicked).toContain('popped up the following number of times');

  const ok = refOf(clicked, /button "OK"/);
  const answered = await macpilot.ok('click_element', { ref: ok });
  expect(answered).toMatch(/- closed: alert "Information"/);
});
