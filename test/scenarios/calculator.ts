/**
 * A calculator, as an agent uses one: its keypad's buttons found by name and clicked by ref, and by the point at
 * their centre; the display shows the result. One scenario, run with gnome-calculator on Linux and Calculator on
 * macOS.
 */
import { beforeAll, expect, test } from 'vitest';
import type { Macpilot } from '../support/mcp.js';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';
import type { Desk } from './desk.js';

/** The ref of the first button with one of the names, and the line that lists it. */
async function button(macpilot: Macpilot, app: string, names: readonly string[]) {
  for (const name of names) {
    const found = await macpilot.ok('find_elements', { app, role: 'button', name, match: 'exact' });
    if (!found.startsWith('0 matches')) return refOf(found, /button /);
  }
  throw new Error(`no button named ${names.join(' or ')} in ${app}`);
}

export function calculatorScenario(desk: Desk, env: Record<string, string>): void {
  const { macpilot, launch } = useMacpilot(env);
  const { calculator } = desk;
  let app: string;
  const showing = (value: string) =>
    eventually(`${value} on the display`, async () => {
      const found = await macpilot.ok('find_elements', { app, value, match: 'exact' });
      return found.startsWith('0 matches') ? undefined : found;
    });

  beforeAll(async () => {
    app = String(await launch(calculator.launch, { timeout_ms: calculator.launchTimeoutMs }));
    await eventually('the keypad', async () => {
      const tree = await macpilot.call('snapshot_ui', { app });
      return !tree.isError && /button "7"/.test(tree.text) ? true : undefined;
    });
  });

  test('7 × 6 = clicked by ref: the display shows 42', async () => {
    for (const key of ['7', '×', '6', '='] as const) {
      await macpilot.ok('click_element', { ref: await button(macpilot, app, calculator.buttons[key]) });
    }
    expect(await showing('42')).toMatch(/\[ref=e\d+\]/);
  });

  test('6 × 6 = clicked by the points at their centres: the display shows 36', async () => {
    for (const key of ['6', '×', '6', '='] as const) {
      const ref = await button(macpilot, app, calculator.buttons[key]);
      const { bounds } = (await macpilot.client.callTool({ name: 'get_element', arguments: { ref } }))
        .structuredContent as { bounds: { x: number; y: number; width: number; height: number } };
      await macpilot.ok('click', {
        x: Math.round(bounds.x + bounds.width / 2),
        y: Math.round(bounds.y + bounds.height / 2),
      });
    }
    expect(await showing('36')).toMatch(/\[ref=e\d+\]/);
  });

  test('quit_app ends the calculator', async () => {
    expect(await macpilot.ok('quit_app', { name: app, force: true })).toMatch(/quit|exited|ended/i);
  });
}
