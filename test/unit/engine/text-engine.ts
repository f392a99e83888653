/**
 * The engine as the agent reads it: each call's typed result rendered to text (render-text.ts), under the names
 * the unit tests use. The real engine, the real renderer; only the calling convention is the tests'.
 */
import { createEngine, type EngineOptions } from '../../../src/engine/index.js';
import type { HelperPort } from '../../../src/engine/kernel/port.js';
import { renderText } from '../../../src/engine/render/text.js';
import type { AppGate } from '../../../src/engine/kernel/resolve.js';
import type { EngineResult } from '../../../src/engine/kernel/results.js';

const text =
  <A extends unknown[]>(call: (...args: A) => Promise<EngineResult>) =>
  async (...args: A): Promise<string> =>
    renderText(await call(...args));

export function textEngine(port: HelperPort, options: EngineOptions = {}, gate?: AppGate) {
  const engine = createEngine(port, options, gate);
  const { elements, apps, menus, input, clipboard } = engine;
  return {
    engine,
    refs: engine.kernel.refs,
    listApps: text(apps.list.bind(apps)),
    resolveApp: apps.resolve.bind(apps),
    launchApp: text(apps.launch.bind(apps)),
    snapshot: text(elements.snapshot.bind(elements)),
    find: text(elements.find.bind(elements)),
    getElement: text(elements.getElement.bind(elements)),
    focused: text(elements.focused.bind(elements)),
    elementAt: text(elements.elementAt.bind(elements)),
    click: text(elements.click.bind(elements)),
    perform: text(elements.perform.bind(elements)),
    setValue: text(elements.setValue.bind(elements)),
    focus: text(elements.focus.bind(elements)),
    menus: {
      list: text(menus.list.bind(menus)),
      click: text(menus.click.bind(menus)),
      state: text(menus.state.bind(menus)),
    },
    input: { click: text(input.click.bind(input)), pressKey: text(input.pressKey.bind(input)) },
    clipboard: { get: text(clipboard.get.bind(clipboard)), set: text(clipboard.set.bind(clipboard)) },
    screen: engine.screen,
    waits: { waitFor: text(engine.waits.waitFor.bind(engine.waits)) },
  };
}
export type TextEngine = ReturnType<typeof textEngine>;
