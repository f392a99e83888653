/** Each audit rule on a made-up tree: what it reports, and what it leaves alone. */
import { describe, expect, it } from 'vitest';
import type { RuleId } from '../../../../src/engine/kernel/results.js';
import {
  auditScore,
  type AuditInput,
  type AuditPixels,
  contrastRatio,
  measureContrast,
  readTour,
  runRules,
  type TabTour,
} from '../../../../src/engine/testing/accessibility-rules.js';
import { RefTable } from '../../../../src/engine/kernel/refs.js';
import { annotate, type Walked, walk } from '../../../../src/engine/kernel/tree.js';
import type { Bounds, ElementNode, ElementState } from '../../../../src/helper-client/protocol.js';
import { el } from '../fixtures.js';

const box = (x: number, y: number, width: number, height: number): Bounds => ({ x, y, width, height });
const AREA = box(0, 0, 400, 300);

/** A window (0,0 400x300) holding `children`, walked as the audit walks it. */
function windowOf(...children: ElementNode[]): Walked {
  const node = el('application', 'demo', { id: 'app' }, [
    el('frame', 'Demo', { id: 'win', bounds: AREA, states: ['active'] }, children),
  ]);
  const tree = annotate(
    { node, path: { app: 'demo', segments: [] }, app: { pid: 4242, name: 'demo' } },
    new RefTable(),
  );
  return tree.children[0] as Walked;
}

const control = (
  nativeRole: string,
  name: string,
  bounds: Bounds,
  states: ElementState[] = ['focusable'],
  extra = {},
) => el(nativeRole, name, { bounds, states, ...extra });

/** The issues of one rule, as `rule: label` lines. */
function issues(rule: RuleId, input: Partial<AuditInput> & { root: Walked }): string[] {
  return runRules({ level: 'AA', area: AREA, ...input })
    .filter((issue) => issue.rule === rule)
    .map((issue) => `${issue.severity} ${issue.node.role} "${issue.node.info.name}"`);
}

const refOf = (root: Walked, name: string): string => {
  const found = [...walk(root)].find((n) => n.info.name === name);
  if (!found) throw new Error(`no ${name}`);
  return found.ref;
};

describe('control-name', () => {
  it('reports unnamed controls, a tooltip-only one as moderate, and leaves named ones alone', () => {
    const root = windowOf(
      control('push button', '', box(10, 10, 40, 30)),
      control('push button', '', box(60, 10, 40, 30), ['focusable'], { description: 'Undo' }),
      control('push button', 'Save', box(110, 10, 40, 30)),
      control('check box', '', box(160, 10, 40, 30)),
    );
    expect(issues('control-name', { root })).toEqual([
      'critical button ""',
      'critical checkbox ""',
      'moderate button ""',
    ]);
  });
});

describe('image-alt', () => {
  it('reports images with no text alternative, not those inside a named control', () => {
    const root = windowOf(
      el('icon', '', { bounds: box(10, 10, 16, 16) }),
      el('icon', '', { bounds: box(30, 10, 16, 16), description: 'Warning' }),
      control('push button', 'Open', box(50, 10, 60, 30), ['focusable'], {}),
      el('push button', 'Print', { bounds: box(120, 10, 60, 30), states: ['focusable'] }, [
        el('icon', '', { bounds: box(122, 12, 16, 16) }),
      ]),
    );
    expect(issues('image-alt', { root })).toEqual(['serious image ""']);
  });
});

describe('field-label', () => {
  it('reports text fields without a label', () => {
    const root = windowOf(
      control('entry', '', box(10, 10, 200, 30)),
      control('entry', 'Email', box(10, 50, 200, 30)),
      el('label', 'Name', { bounds: box(10, 90, 50, 20) }),
    );
    expect(issues('field-label', { root })).toEqual(['serious textbox ""']);
  });
});

describe('duplicate-name', () => {
  it('reports siblings of one role sharing a name, not cousins or other roles', () => {
    const root = windowOf(
      el('panel', '', { bounds: box(0, 0, 400, 100) }, [
        control('push button', 'Delete', box(10, 10, 60, 30)),
        control('push button', 'delete ', box(80, 10, 60, 30)),
        control('check box', 'Delete', box(150, 10, 60, 30)),
      ]),
      el('panel', '', { bounds: box(0, 100, 400, 100) }, [
        control('push button', 'Delete', box(10, 110, 60, 30)),
      ]),
    );
    expect(issues('duplicate-name', { root })).toEqual(['moderate button "delete "']);
  });
});

describe('focusable-offscreen', () => {
  it('reports focusable elements that are zero-sized or outside the window, not disabled or visible ones', () => {
    const root = windowOf(
      control('push button', 'Zero', box(10, 10, 0, 30)),
      control('push button', 'Away', box(900, 900, 40, 30)),
      control('push button', 'Here', box(10, 50, 40, 30)),
      control('push button', 'Off', box(900, 10, 40, 30), ['focusable', 'disabled']),
    );
    expect(issues('focusable-offscreen', { root })).toEqual([
      'serious button "Zero"',
      'serious button "Away"',
    ]);
  });
});

describe('target-size', () => {
  const root = windowOf(
    control('push button', 'Tiny', box(10, 10, 16, 16)),
    control('push button', 'Neighbour', box(28, 10, 40, 30)),
    control('push button', 'Alone', box(200, 200, 16, 16)),
    control('push button', 'Big', box(300, 100, 44, 44)),
  );

  it('reports targets under 24x24 points with another target within their spacing (AA)', () => {
    expect(issues('target-size', { root })).toEqual(['minor button "Tiny"']);
  });

  it('wants 44x44 at AAA, spacing or not', () => {
    expect(issues('target-size', { root, level: 'AAA' })).toEqual([
      'minor button "Tiny"',
      'minor button "Neighbour"',
      'minor button "Alone"',
    ]);
  });

  it('is not an A rule', () => {
    expect(issues('target-size', { root, level: 'A' })).toEqual([]);
  });
});

/** A white raster of the area with a block of `ink` in each box (screen points = pixels). */
function raster(blocks: { at: Bounds; ink: [number, number, number] }[]): AuditPixels {
  const { width, height } = AREA;
  const data = new Uint8Array(width * height * 4).fill(255);
  for (const { at, ink } of blocks) {
    for (let y = at.y; y < at.y + at.height; y++) {
      for (let x = at.x; x < at.x + at.width; x++) data.set([...ink, 255], (y * width + x) * 4);
    }
  }
  return { raster: { data, width, height }, bounds: AREA, scale: 1 };
}

describe('text-contrast', () => {
  const root = windowOf(
    el('label', 'Grey', { bounds: box(10, 10, 100, 20) }),
    el('label', 'Black', { bounds: box(10, 40, 100, 20) }),
    el('label', 'Big grey', { bounds: box(10, 70, 200, 40) }),
    el('label', 'Disabled', { bounds: box(10, 120, 100, 20), states: ['disabled'] }),
  );
  const grey: [number, number, number] = [0x99, 0x99, 0x99]; // 2.85:1 on white
  const midGrey: [number, number, number] = [0x76, 0x76, 0x76]; // 4.54:1
  const pixels = raster([
    { at: box(12, 14, 60, 12), ink: grey },
    { at: box(12, 44, 60, 12), ink: [0, 0, 0] },
    { at: box(12, 72, 150, 30), ink: [0x88, 0x88, 0x88] }, // 3.54:1, 30 points tall: large text
    { at: box(12, 124, 60, 12), ink: grey },
  ]);

  it('measures the text colour against the background from the pixels', () => {
    const measured = measureContrast(pixels, box(10, 10, 100, 20));
    expect(measured?.foreground).toEqual(grey);
    expect(measured?.background).toEqual([255, 255, 255]);
    expect(measured?.ratio).toBeCloseTo(2.85, 2);
    expect(measured?.textHeight).toBe(12);
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio(midGrey, [255, 255, 255])).toBeGreaterThan(4.5);
  });

  it('reports normal text under 4.5:1 and large text under 3:1, not disabled text', () => {
    expect(issues('text-contrast', { root, pixels })).toEqual(['serious text "Grey"']);
  });

  it('wants 7:1 and 4.5:1 at AAA', () => {
    expect(issues('text-contrast', { root, pixels, level: 'AAA' })).toEqual([
      'serious text "Grey"',
      'serious text "Big grey"',
    ]);
  });

  it('measures nothing without pixels, or in an area of one colour', () => {
    expect(issues('text-contrast', { root })).toEqual([]);
    expect(measureContrast(raster([]), box(10, 10, 100, 20))).toBeUndefined();
  });
});

describe('keyboard', () => {
  const root = windowOf(
    control('entry', 'Name', box(10, 10, 200, 30)),
    control('push button', 'A', box(10, 50, 60, 30)),
    control('push button', 'B', box(80, 50, 60, 30)),
    control('push button', 'Skipped', box(150, 50, 60, 30)),
    el('panel', '', { bounds: box(0, 100, 400, 60) }, [
      control('radio button', 'One', box(10, 100, 60, 30)),
      control('radio button', 'Two', box(80, 100, 60, 30)),
    ]),
    control('push button', 'Greyed', box(10, 200, 60, 30), ['focusable', 'disabled']),
  );
  const tourOf = (start: string | undefined, ...stops: (string | undefined)[]): TabTour => {
    const refs = (name: string | undefined) => (name === undefined ? undefined : refOf(root, name));
    const seen = new Map([...walk(root)].map((n) => [n.ref, n]));
    return { start: refs(start), stops: stops.map(refs), seen };
  };

  it('reads a tour: round the window, or round a loop that leaves the start behind', () => {
    expect(readTour(tourOf('Name', 'A', 'B', 'Name')).complete).toBe(true);
    expect(readTour(tourOf(undefined, 'A', 'B', 'A')).complete).toBe(true);
    const loop = readTour(tourOf('Name', 'A', 'B', 'A'));
    expect(loop.complete).toBe(false);
    expect(loop.loop).toEqual([refOf(root, 'A'), refOf(root, 'B')]);
  });

  it('reports Tab stops never reached, one radio standing for its group, disabled controls left out', () => {
    const tour = tourOf('Name', 'A', 'B', 'One', 'Name');
    expect(issues('keyboard-unreachable', { root, tour })).toEqual(['serious button "Skipped"']);
    expect(issues('keyboard-trap', { root, tour })).toEqual([]);
  });

  it('reports a focus trap when focus loops short of the start and of other Tab stops, and only the trap', () => {
    const tour = tourOf('Name', 'A', 'B', 'A');
    expect(issues('keyboard-trap', { root, tour })).toEqual(['critical button "A"']);
    expect(issues('keyboard-unreachable', { root, tour })).toEqual([]);
  });

  it('is no trap when the loop holds every Tab stop (focus started outside the Tab order)', () => {
    const small = windowOf(
      control('push button', 'A', box(10, 50, 60, 30)),
      control('push button', 'B', box(80, 50, 60, 30)),
      el('label', 'Info', { bounds: box(10, 10, 60, 20), states: ['focusable'] }),
    );
    const seen = new Map([...walk(small)].map((n) => [n.ref, n]));
    const tour = {
      start: refOf(small, 'Info'),
      stops: [refOf(small, 'A'), refOf(small, 'B'), refOf(small, 'A')],
      seen,
    };
    expect(
      runRules({ root: small, level: 'AA', area: AREA, tour }).filter((i) => i.rule.startsWith('keyboard')),
    ).toEqual([]);
  });
});

describe('the score', () => {
  it('is 100 without issues and falls with the worst issue of each element checked', () => {
    const root = windowOf(
      control('push button', '', box(10, 10, 40, 30)),
      control('push button', 'Ok', box(60, 10, 40, 30)),
    );
    expect(auditScore([], 10)).toBe(100);
    const found = runRules({ root, level: 'AA', area: AREA });
    expect(found.map((i) => i.rule)).toEqual(['control-name']);
    expect(auditScore(found, 2)).toBe(50);
  });
});
