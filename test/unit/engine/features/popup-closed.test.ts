/** A real click that closed an app's popup says the element was most likely not pressed. */
import { expect, test } from 'vitest';
import { withPopupClosed } from '../../../../src/engine/features/elements.js';
import type { ActionResult, Change } from '../../../../src/engine/kernel/results.js';
import type { RefEntry } from '../../../../src/engine/kernel/refs.js';
import type { Walked } from '../../../../src/engine/kernel/tree.js';
import { plainText } from '../../../../src/engine/kernel/words.js';

const node = (role: string, name: string, path: string, ref: string) =>
  ({ role, info: { name }, path, ref }) as unknown as Walked;
const save = { ref: 'e9', label: 'button "Save"', path: 'app("mousepad")/dialog/button["Save"]' } as RefEntry;
const completion = node('window', '', 'app("mousepad")/window[1]', 'e20');
const sidebar = node('list', 'Places', 'app("mousepad")/dialog/list', 'e30');

const clicked = (changes: Change[]): ActionResult => ({
  kind: 'action',
  done: ['Clicked button "Save".'],
  target: save,
  outcome: { kind: 'changes', app: { id: 'a', name: 'mousepad', pid: 1 } as never, changes },
});
const told = (result: ActionResult) => plainText(result.done).includes('The click closed the app’s popup');

test("a desktop app's popup closed by the click is told, whatever else changed meanwhile", () => {
  expect(told(withPopupClosed(clicked([{ kind: 'closed', node: completion }]), false))).toBe(true);
  const refreshed = clicked([
    { kind: 'closed', node: completion },
    { kind: 'changed', node: sidebar, was: sidebar },
  ]);
  expect(told(withPopupClosed(refreshed, false))).toBe(true);
});

test("a web page's popup is told only when closing it was the click's one change; a titled window is no popup", () => {
  const both = clicked([
    { kind: 'closed', node: completion },
    { kind: 'changed', node: sidebar, was: sidebar },
  ]);
  expect(told(withPopupClosed(both, true))).toBe(false);
  expect(told(withPopupClosed(clicked([{ kind: 'closed', node: completion }]), true))).toBe(true);
  const dialog = node('window', 'Preferences', 'app("mousepad")/window[2]', 'e40');
  expect(
    told(
      withPopupClosed(
        clicked([
          { kind: 'closed', node: dialog },
          { kind: 'changed', node: sidebar, was: sidebar },
        ]),
        false,
      ),
    ),
  ).toBe(false);
  // The window the button is in closing is the button at work, not a popup.
  const own = node('window', '', 'app("mousepad")/dialog', 'e50');
  expect(told(withPopupClosed(clicked([{ kind: 'closed', node: own }]), false))).toBe(false);
});
