/** The console's page in a browser is the person's: walked as a leaf, refused as a way to an element. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { CONSOLE_PAGE_TITLE, insideConsolePage } from '../../../src/engine/kernel/console-page.js';
import { RefTable } from '../../../src/engine/kernel/refs.js';
import { annotate, walk } from '../../../src/engine/kernel/tree.js';
import type { ElementNode } from '../../../src/helper-client/protocol.js';

const node = (id: string, nativeRole: string, name: string, children: ElementNode[] = []): ElementNode => ({
  id,
  nativeRole,
  name,
  states: [],
  childCount: children.length,
  pid: 7,
  children,
});

test("the title it looks for is the console page's own", () => {
  const html = readFileSync(join(import.meta.dirname, '../../../console/index.html'), 'utf8');
  expect(/<title>(.*)<\/title>/.exec(html)?.[1]).toBe(CONSOLE_PAGE_TITLE);
});

test("a walk shows the console's document and nothing in it: no Allow button, no call rows", () => {
  const tree = node('w', 'frame', 'macpilot console - Chromium', [
    node('d', 'document web', CONSOLE_PAGE_TITLE, [
      node('b', 'push button', 'Allow once'),
      node('r', 'label', 'click_element mousepad'),
    ]),
    node('o', 'document web', 'Order form', [node('p', 'push button', 'Place order')]),
  ]);
  const walked = annotate(
    { node: tree, app: { pid: 7, name: 'chromium' }, path: { app: 'chromium', segments: [] } },
    new RefTable(),
  );
  const names = [...walk(walked)].map((w) => w.info.name);
  expect(names).toEqual(['macpilot console - Chromium', CONSOLE_PAGE_TITLE, 'Order form', 'Place order']);
  const consolePage = [...walk(walked)].find((w) => w.info.name === CONSOLE_PAGE_TITLE);
  expect(consolePage?.unexpanded).toBe(false);
});

test('a path into the console is told from one to the console itself or elsewhere', () => {
  expect(
    insideConsolePage('app("chromium")/window[0]/document["macpilot console"]/button["Allow once"]'),
  ).toBe(true);
  expect(insideConsolePage('app("chromium")/window[0]/document["macpilot console"][1]/group/button')).toBe(
    true,
  );
  expect(insideConsolePage('app("chromium")/window[0]/document["macpilot console"]')).toBe(false);
  expect(insideConsolePage('app("chromium")/window[0]/document["Order form"]/button["Place order"]')).toBe(
    false,
  );
  expect(insideConsolePage('not a path')).toBe(false);
});
