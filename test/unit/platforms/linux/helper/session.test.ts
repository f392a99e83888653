import { describe, expect, it } from 'vitest';
import { Session } from '../../../../../src/platforms/linux/helper/session.js';
import type { Ref } from '../../../../../src/platforms/linux/helper/atspi/handles.js';

const APP = ':1.7';
const button: Ref = { bus: APP, path: '/org/a11y/atspi/accessible/12' };
const frame: Ref = { bus: APP, path: '/org/a11y/atspi/accessible/3' };

/** A session and a top-frame lookup that counts how often the frame is found from the app. */
function setup() {
  const session = new Session(
    {},
    () => {},
    () => {},
  );
  let finds = 0;
  const topFrame = () =>
    session.topFrame(button, async () => {
      finds++;
      return frame;
    });
  return { session, topFrame, finds: () => finds };
}

describe("an element's top-level window", () => {
  it('is found from the app every time while the app has sent no event', async () => {
    const { topFrame, finds } = setup();
    expect(await topFrame()).toEqual(frame);
    await topFrame();
    expect(finds()).toBe(2);
  });

  it('is remembered once the app is heard from, while its events say nothing moved', async () => {
    const { session, topFrame, finds } = setup();
    session.heardFrom(APP, 'object:state-changed:focused');
    await topFrame();
    session.heardFrom(APP, 'object:text-changed:insert');
    session.heardFrom(':1.9', 'object:children-changed:add'); // another app
    await topFrame();
    expect(finds()).toBe(1);
  });

  it('is found again after children came or went, an element changed parent, or a window event', async () => {
    for (const kind of [
      'object:children-changed:add',
      'object:children-changed:remove',
      'object:property-change:accessible-parent',
      'window:create',
      'window:destroy',
    ]) {
      const { session, topFrame, finds } = setup();
      session.heardFrom(APP, 'object:state-changed:focused');
      await topFrame();
      session.heardFrom(APP, kind);
      await topFrame();
      expect(finds(), kind).toBe(2);
    }
  });
});
