/**
 * ax.snapshot with includeBounds, which screenshot annotations rely on: every visible element's bounds, the same
 * as ax.element reports, for GTK3 (screen coordinates) and GTK4 (window-relative, corrected per frame).
 */
import { expect, inject, test } from 'vitest';
import type { ElementNode } from '../../src/helper-client/protocol.js';
import { nodes, useHelper } from './helper.js';

const { helper, start } = useHelper(inject('desktopEnv'));

async function boundsMatchElement(command: string, role: string): Promise<void> {
  const { root } = await start(command);
  const base = { root, depth: 64, maxNodes: 5000, includeHidden: false, maxValueLength: 0 };
  const plain = await helper.call('ax.snapshot', base);
  const walked = await helper.call('ax.snapshot', { ...base, includeBounds: true });
  expect(walked.nodeCount).toBe(plain.nodeCount);
  expect([...nodes(plain.root)].every((n) => n.bounds === undefined)).toBe(true);
  const buttons = [...nodes(walked.root)].filter((n: ElementNode) => n.nativeRole === role);
  expect(buttons.length).toBeGreaterThan(0);
  for (const button of buttons.slice(0, 12)) {
    expect(button.bounds?.width, button.name).toBeGreaterThan(0);
    const { element } = await helper.call('ax.element', { id: button.id, maxValueLength: 0 });
    expect(button.bounds, button.name).toEqual(element.bounds);
  }
}

test('GTK3 (gtk3-demo): every button has the bounds ax.element gives', async () => {
  await boundsMatchElement('gtk3-demo', 'push button');
});

test('GTK4 (gnome-calculator): window-relative extents are corrected to the same screen bounds', async () => {
  await boundsMatchElement('gnome-calculator', 'push button');
});
