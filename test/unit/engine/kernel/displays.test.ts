import { describe, expect, it } from 'vitest';
import { Displays } from '../../../../src/engine/kernel/displays.js';
import type { HelperPort } from '../../../../src/engine/kernel/port.js';
import { failure } from '../failure.js';

const LEFT = { id: 'LEFT', bounds: { x: 0, y: 0, width: 1280, height: 800 }, scale: 1, primary: true };
const ABOVE = {
  id: 'ABOVE',
  bounds: { x: 200, y: -600, width: 1024, height: 600 },
  scale: 2,
  primary: false,
};

function port(displays = [LEFT, ABOVE]) {
  let calls = 0;
  const helper = {
    call: async () => {
      calls++;
      return { displays };
    },
  } as unknown as HelperPort;
  return { helper, calls: () => calls };
}

describe('Displays', () => {
  it('finds the display of a point in global coordinates, negative ones included, edges exclusive', async () => {
    const displays = new Displays(port().helper);
    expect((await displays.at({ x: 1279.5, y: 799 }, 'the point')).display.id).toBe('LEFT');
    expect((await displays.at({ x: 300, y: -1 }, 'the point')).display.id).toBe('ABOVE');
    expect((await displays.at({ x: 0, y: 0 }, 'the point')).several).toBe(true);
    const off = await failure(displays.at({ x: 1280, y: 10 }, 'The click point'));
    expect(off.message).toContain('The click point 1280,10 is on no display');
    expect(off.why).toBe(
      'the displays, in screen points: "LEFT" (primary) x=0 y=0 1280x800; "ABOVE" x=200 y=-600 1024x600',
    );
    expect(off.kind).toBe('point_off_screen');
    await expect(displays.at({ x: 100, y: -1 }, 'the point')).rejects.toThrow(/on no display/);
    // Printed to a tenth, as given: a point within the last pixel does not read as one past the edge.
    const past = await failure(displays.at({ x: 1280.25, y: 0.5 }, 'The click point'));
    expect(past.message).toContain('The click point 1280.3,0.5 is on no display');
  });

  it('asks the helper once for the points checked in a burst, and again when listing', async () => {
    const { helper, calls } = port([LEFT]);
    const displays = new Displays(helper);
    for (let i = 0; i < 5; i++) await displays.at({ x: i, y: i }, 'the point');
    expect(calls()).toBe(1);
    await displays.list();
    expect(calls()).toBe(2);
  });
});
