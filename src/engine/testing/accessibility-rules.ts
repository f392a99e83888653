/**
 * The accessibility audit's rules: pure functions over a walked tree (with bounds), the capture's pixels and the
 * focus stops of a Tab tour. Each rule names the WCAG success criterion it checks and the least conformance
 * level that includes it; the audit runs the rules of the level asked for. audit.ts gathers the inputs.
 */
import type { Bounds } from '../../helper-client/protocol.js';
import { overlaps } from '../../bounds.js';
import { normalizeName, plural } from '../../text.js';
import { type Walked, walk } from '../kernel/tree.js';
import type { Raster } from './raster.js';
import {
  CONTROL_ROLES,
  TEXT_INPUT_ROLES,
  TAB_STOP_ROLES,
  GROUPED_TAB_STOP_ROLES,
  READ_TEXT_ROLES,
} from '../kernel/roles.js';
import {
  type Severity,
  SEVERITIES,
  type Level,
  LEVELS,
  type RuleId,
  type AuditIssue,
} from '../kernel/results.js';

/** The screen's pixels over the audited area, to measure text contrast. */
export interface AuditPixels {
  raster: Raster;
  /** What the raster covers, in screen points. */
  bounds: Bounds;
  /** Raster pixels per screen point. */
  scale: number;
}

/** Where focus went as Tab was pressed through the window: the focused element's ref after each press. */
export interface TabTour {
  /** The element focused before the first press; undefined: none was. */
  start?: string;
  /** After each press: the ref of the focused element, or undefined when none had focus. */
  stops: (string | undefined)[];
  /** The elements focused, by ref (to name a trap's elements). */
  seen: ReadonlyMap<string, Walked>;
}

export interface AuditInput {
  root: Walked;
  level: Level;
  /** The screen area the scope shows in (its window's frame); elements entirely outside are off screen. */
  area?: Bounds;
  pixels?: AuditPixels;
  tour?: TabTour;
}

interface Rule {
  id: RuleId;
  level: Level;
  criterion: string;
  check(input: AuditInput): Omit<AuditIssue, 'rule' | 'criterion'>[];
}

const has = (node: Walked, state: string) => (node.info.states as string[]).includes(state);
const named = (node: Walked) => normalizeName(node.info.name) !== '';
const described = (node: Walked) => normalizeName(node.info.description ?? '') !== '';
const enabled = (node: Walked) => !has(node, 'disabled');
const sized = (b: Bounds | undefined): b is Bounds => b !== undefined && b.width > 0 && b.height > 0;

/** Every element with its ancestors, nearest last. */
function* withAncestors(node: Walked, above: Walked[] = []): Generator<[Walked, Walked[]]> {
  yield [node, above];
  for (const child of node.children) yield* withAncestors(child, [...above, node]);
}

/** Distance from a point to a rectangle (0 inside it). */
function distance(x: number, y: number, r: Bounds): number {
  const dx = Math.max(r.x - x, 0, x - (r.x + r.width));
  const dy = Math.max(r.y - y, 0, y - (r.y + r.height));
  return Math.hypot(dx, dy);
}

// --- contrast ---

/** WCAG relative luminance of an sRGB colour. */
export function luminance([r, g, b]: readonly [number, number, number]): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(
  a: readonly [number, number, number],
  b: readonly [number, number, number],
): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export interface Contrast {
  ratio: number;
  foreground: [number, number, number];
  background: [number, number, number];
  /** The tallest run of rows holding text pixels, in screen points: about the font's size. */
  textHeight: number;
}

/** A colour counts as text when it covers this share of the area (anti-aliased edge shades do not). */
const INK_SHARE = 0.01;
/** Pixels this far from the background (contrast ratio) are ink when rows are measured. */
const INK_RATIO = 1.5;

/**
 * The contrast of the text inside `area` (screen points) on the capture: the background is the most common
 * colour, the text the colour, among those covering at least 1% of the area, that stands out most from it.
 * Undefined when the area holds a single colour (no text drawn) or lies outside the capture.
 */
export function measureContrast(pixels: AuditPixels, area: Bounds): Contrast | undefined {
  const { raster, bounds, scale } = pixels;
  const x0 = Math.max(0, Math.round((area.x - bounds.x) * scale));
  const y0 = Math.max(0, Math.round((area.y - bounds.y) * scale));
  const x1 = Math.min(raster.width, Math.round((area.x + area.width - bounds.x) * scale));
  const y1 = Math.min(raster.height, Math.round((area.y + area.height - bounds.y) * scale));
  if (x1 - x0 < 2 || y1 - y0 < 2) return undefined;
  const counts = new Map<number, number>();
  const colourAt = (x: number, y: number) => {
    const i = (y * raster.width + x) * 4;
    return ((raster.data[i] ?? 0) << 16) | ((raster.data[i + 1] ?? 0) << 8) | (raster.data[i + 2] ?? 0);
  };
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const c = colourAt(x, y);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  }
  const rgb = (c: number): [number, number, number] => [(c >> 16) & 255, (c >> 8) & 255, c & 255];
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const background = rgb(ranked[0]?.[0] ?? 0);
  const total = (x1 - x0) * (y1 - y0);
  const candidates = ranked.slice(1).filter(([, n]) => n >= Math.max(2, total * INK_SHARE));
  let best: { colour: [number, number, number]; ratio: number } | undefined;
  for (const [c] of candidates) {
    const ratio = contrastRatio(rgb(c), background);
    if (!best || ratio > best.ratio) best = { colour: rgb(c), ratio };
  }
  if (!best) return undefined;
  // The tallest run of rows that hold ink: one line of text, about its font size.
  let run = 0;
  let tallest = 0;
  for (let y = y0; y < y1; y++) {
    let ink = false;
    for (let x = x0; x < x1 && !ink; x++) ink = contrastRatio(rgb(colourAt(x, y)), background) >= INK_RATIO;
    run = ink ? run + 1 : 0;
    tallest = Math.max(tallest, run);
  }
  return { ratio: best.ratio, foreground: best.colour, background, textHeight: tallest / scale };
}

/** Text at least this tall (points, about 18 pt) is large text, which needs less contrast. */
export const LARGE_TEXT_POINTS = 24;

const hex = (c: readonly number[]) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/**
 * The contrast of each text on screen that has text drawn in its bounds; text of disabled controls is exempt
 * (WCAG: inactive components) and left out.
 */
export function textContrasts(
  root: Walked,
  pixels: AuditPixels | undefined,
): { node: Walked; contrast: Contrast }[] {
  if (!pixels) return [];
  return [...withAncestors(root)]
    .filter(([n, above]) => READ_TEXT_ROLES.has(n.role) && named(n) && enabled(n) && above.every(enabled))
    .flatMap(([node]) => {
      const contrast = sized(node.info.bounds) ? measureContrast(pixels, node.info.bounds) : undefined;
      return contrast ? [{ node, contrast }] : [];
    });
}

// --- keyboard ---

export interface TourReading {
  /** Refs focused at some point, the start included. */
  reached: Set<string>;
  /** Refs among which focus went round without coming back to where it started. */
  loop?: string[];
  /** Focus came back to where it started: the tour went round the whole Tab order. */
  complete: boolean;
}

/** What a Tab tour shows: the stops reached, and whether focus went round the window or round a smaller loop. */
export function readTour(tour: Pick<TabTour, 'start' | 'stops'>): TourReading {
  const reached = new Set<string>(tour.start === undefined ? [] : [tour.start]);
  const order: (string | undefined)[] = [tour.start];
  for (const stop of tour.stops) {
    const earlier = order.indexOf(stop);
    if (stop !== undefined && earlier >= 0) {
      // Back to the start (or the first stop, when nothing had focus before): round the whole window.
      const home = earlier === 0 || (tour.start === undefined && earlier === 1);
      if (home) return { reached, complete: true };
      return {
        reached,
        loop: order.slice(earlier).filter((r): r is string => r !== undefined),
        complete: false,
      };
    }
    order.push(stop);
    if (stop !== undefined) reached.add(stop);
  }
  return { reached, complete: false };
}

/** Elements that should be Tab stops: each control, and one radio per group, one tab per tab list. */
export function tabStops(root: Walked): Walked[] {
  return [...walk(root)].filter(
    (n) =>
      has(n, 'focusable') &&
      enabled(n) &&
      sized(n.info.bounds) &&
      (TAB_STOP_ROLES.has(n.role) || GROUPED_TAB_STOP_ROLES.has(n.role)),
  );
}

interface KeyboardFindings {
  reading: TourReading;
  /** Tab stops focus never reached. */
  unreached: Walked[];
  /** Focus went round a loop that left Tab stops unreached: a trap. */
  trap?: string[];
}

function keyboardFindings(root: Walked, tour: TabTour): KeyboardFindings {
  const reading = readTour(tour);
  const reachedPaths = [...reading.reached].flatMap((ref) => tour.seen.get(ref)?.path ?? []);
  // An element counts as reached when it, an element inside it, or one around it took focus.
  const isReached = (node: Walked) =>
    reading.reached.has(node.ref) ||
    reachedPaths.some(
      (p) => p === node.path || p.startsWith(`${node.path}/`) || node.path.startsWith(`${p}/`),
    );
  const parents = new Map<Walked, Walked>();
  for (const parent of walk(root)) for (const child of parent.children) parents.set(child, parent);
  const unreached = tabStops(root).filter((node) => {
    if (isReached(node)) return false;
    if (!GROUPED_TAB_STOP_ROLES.has(node.role)) return true;
    // One radio of a group, one tab of a tab list, is the group's Tab stop: arrows move within it.
    const siblings = parents.get(node)?.children ?? [];
    return !siblings.some((sibling) => sibling.role === node.role && isReached(sibling));
  });
  const trap = reading.loop && unreached.length > 0 ? reading.loop : undefined;
  return { reading, unreached, trap };
}

// --- the rules ---

const RULES: readonly Rule[] = [
  {
    id: 'control-name',
    level: 'A',
    criterion: '4.1.2 Name, Role, Value (A)',
    check: ({ root }) =>
      [...walk(root)]
        .filter((n) => CONTROL_ROLES.has(n.role) && !named(n))
        .map((node) =>
          described(node)
            ? {
                node,
                // A tooltip is the name's last resort: read out, but as a description, after the role.
                severity: 'moderate' as const,
                problem: `this ${node.role} has no accessible name, only a description (its tooltip): a screen reader announces it as an unnamed ${node.role}`,
                fix: 'give it an accessible name (for an icon button, the words its tooltip says)',
              }
            : {
                node,
                severity: 'critical' as const,
                problem: `this ${node.role} has no accessible name: a screen reader announces only its role`,
                fix: 'give it a name: visible text as its content or label, or an accessible name',
              },
        ),
  },
  {
    id: 'image-alt',
    level: 'A',
    criterion: '1.1.1 Non-text Content (A)',
    check: ({ root }) =>
      [...withAncestors(root)]
        // An image inside a named control is decoration of that control.
        .filter(([n]) => n.role === 'image' && !named(n) && !described(n))
        .filter(([, above]) => !above.some((a) => CONTROL_ROLES.has(a.role) && named(a)))
        .map(([node]) => ({
          node,
          severity: 'serious',
          problem: 'this image has no text alternative (no name or description)',
          fix: 'give it an accessible name or description that says what it shows, or hide it from accessibility if it is decoration',
        })),
  },
  {
    id: 'field-label',
    level: 'A',
    criterion: '3.3.2 Labels or Instructions (A)',
    check: ({ root }) =>
      [...walk(root)]
        .filter((n) => TEXT_INPUT_ROLES.has(n.role) && !named(n))
        .map((node) => ({
          node,
          severity: 'serious',
          problem: `this ${node.role === 'searchbox' ? 'search field' : 'text field'} has no label: nothing tells a screen reader user what to enter`,
          fix: 'label it: a visible label tied to the field (a mnemonic label / labelled-by relation, or AXTitleUIElement), or an accessible name',
        })),
  },
  {
    id: 'duplicate-name',
    level: 'AA',
    criterion: '2.4.6 Headings and Labels (AA)',
    check: ({ root }) =>
      [...walk(root)].flatMap((parent) => {
        const groups = new Map<string, Walked[]>();
        for (const child of parent.children) {
          if (!(CONTROL_ROLES.has(child.role) || TEXT_INPUT_ROLES.has(child.role)) || !named(child)) continue;
          const key = `${child.role}\n${normalizeName(child.info.name).toLowerCase()}`;
          groups.set(key, [...(groups.get(key) ?? []), child]);
        }
        return [...groups.values()]
          .filter((group) => group.length > 1)
          .flatMap((group) =>
            group.slice(1).map((node) => ({
              node,
              severity: 'moderate' as const,
              problem: `${plural(group.length, `sibling ${node.role}`)} share the name ${JSON.stringify(normalizeName(node.info.name))}: they cannot be told apart by name`,
              fix: 'give each a name that says what it does differently (e.g. "Delete row 3", not "Delete")',
            })),
          );
      }),
  },
  {
    id: 'focusable-offscreen',
    level: 'AA',
    criterion: '2.4.7 Focus Visible (AA)',
    check: ({ root, area }) =>
      [...walk(root)]
        .filter((n) => n !== root && has(n, 'focusable') && enabled(n) && n.info.bounds !== undefined)
        .flatMap((node) => {
          const b = node.info.bounds as Bounds;
          const why = !(b.width > 0 && b.height > 0)
            ? `it is zero-sized (${b.width}x${b.height} points)`
            : area && !overlaps(b, area)
              ? `it lies outside its window (at ${b.x},${b.y})`
              : undefined;
          if (why === undefined) return [];
          return [
            {
              node,
              severity: 'serious' as const,
              problem: `it can take keyboard focus, but ${why}: focus lands where no one sees it`,
              fix: 'hide it from focus while it is not shown (make it not focusable or not showing), or bring it into view when focused',
            },
          ];
        }),
  },
  {
    id: 'target-size',
    level: 'AA',
    criterion: '2.5.8 Target Size (Minimum) (AA)',
    check: ({ root, level }) => {
      const minimum = level === 'AAA' ? 44 : 24;
      const targets = [...walk(root)].filter((n) => CONTROL_ROLES.has(n.role) && sized(n.info.bounds));
      return targets.flatMap((node) => {
        const b = node.info.bounds as Bounds;
        if (b.width >= minimum && b.height >= minimum) return [];
        // AA's spacing exception: a circle of the minimum's diameter on its centre touches no other target.
        const [cx, cy] = [b.x + b.width / 2, b.y + b.height / 2];
        const spaced = targets.every(
          (other) => other === node || distance(cx, cy, other.info.bounds as Bounds) >= minimum / 2,
        );
        if (level !== 'AAA' && spaced) return [];
        return [
          {
            node,
            severity: 'minor' as const,
            problem: `its target is ${b.width}x${b.height} points, under ${minimum}x${minimum}${level === 'AAA' ? '' : ', and other targets are within its spacing'}`,
            fix: `make it at least ${minimum}x${minimum} points (padding counts), or leave ${minimum} points between its centre and other targets`,
          },
        ];
      });
    },
  },
  {
    id: 'text-contrast',
    level: 'AA',
    criterion: '1.4.3 Contrast (Minimum) (AA)',
    check: ({ root, pixels, level }) =>
      textContrasts(root, pixels).flatMap(({ node, contrast }) => {
        const large = contrast.textHeight >= LARGE_TEXT_POINTS;
        const needed = level === 'AAA' ? (large ? 4.5 : 7) : large ? 3 : 4.5;
        if (contrast.ratio >= needed) return [];
        const ratio = Math.floor(contrast.ratio * 100) / 100;
        return [
          {
            node,
            severity: 'serious' as const,
            problem:
              `its text contrast is ${ratio}:1 (text ${hex(contrast.foreground)} on ${hex(contrast.background)}, ` +
              `measured on screen), under the ${needed}:1 ${large ? 'large' : 'normal'} text needs`,
            fix: `darken the text or lighten the background (or the reverse) to reach ${needed}:1`,
          },
        ];
      }),
  },
  {
    id: 'keyboard-unreachable',
    level: 'A',
    criterion: '2.1.1 Keyboard (A)',
    check: ({ root, tour }) => {
      if (!tour) return [];
      const { reading, unreached, trap } = keyboardFindings(root, tour);
      // Past a trap, nothing more could be reached: the trap is the issue.
      if (trap) return [];
      const round = reading.complete ? ' round the whole window' : '';
      return unreached.map((node) => ({
        node,
        severity: 'serious' as const,
        problem: `Tab never reached it in ${plural(tour.stops.length, 'press', 'presses')}${round}`,
        fix: 'make it focusable and part of the Tab order (or reachable with arrow keys from a control that is)',
      }));
    },
  },
  {
    id: 'keyboard-trap',
    level: 'A',
    criterion: '2.1.2 No Keyboard Trap (A)',
    check: ({ root, tour }) => {
      const trap = tour && keyboardFindings(root, tour).trap;
      const node = trap?.[0] === undefined ? undefined : tour?.seen.get(trap[0]);
      if (!tour || !trap || !node) return [];
      const names = trap.map((ref) => {
        const seen = tour.seen.get(ref);
        const name = seen && named(seen) ? ` ${JSON.stringify(normalizeName(seen.info.name))}` : '';
        return seen ? `${seen.role}${name} [${ref}]` : ref;
      });
      return [
        {
          node,
          severity: 'critical' as const,
          problem: `Tab keeps focus going round ${names.join(' → ')}, never back to where it started, and never reaches the rest of the window`,
          fix: 'let Tab (and Shift+Tab) move focus out of this group to the rest of the window',
        },
      ];
    },
  },
];

/** The rules a conformance level includes. */
export const rulesFor = (level: Level): readonly Rule[] =>
  RULES.filter((rule) => LEVELS.indexOf(rule.level) <= LEVELS.indexOf(level));

/** The criterion each rule checks, and at which level (for the tool's description and the report). */
export const RULE_CRITERIA: ReadonlyMap<RuleId, string> = new Map(RULES.map((r) => [r.id, r.criterion]));

/** Every issue the level's rules find, most severe first. */
export function runRules(input: AuditInput): AuditIssue[] {
  const issues = rulesFor(input.level).flatMap((rule) =>
    rule.check(input).map((found) => ({ ...found, rule: rule.id, criterion: rule.criterion })),
  );
  return issues.sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
}

/** How much an element's worst issue takes from it, out of 1. */
const WEIGHT: Record<Severity, number> = { critical: 1, serious: 0.7, moderate: 0.4, minor: 0.15 };

/**
 * A 0-100 score: the elements checked, each counting 1 less the weight of its worst issue, as a share of all
 * checked; a focus trap takes a further 25.
 */
export function auditScore(issues: readonly AuditIssue[], checked: number): number {
  if (checked === 0) return issues.length === 0 ? 100 : 0;
  const worst = new Map<string, number>();
  for (const issue of issues) {
    if (issue.rule === 'keyboard-trap') continue;
    worst.set(issue.node.ref, Math.max(worst.get(issue.node.ref) ?? 0, WEIGHT[issue.severity]));
  }
  const lost = [...worst.values()].reduce((sum, w) => sum + w, 0);
  const trap = issues.some((i) => i.rule === 'keyboard-trap') ? 25 : 0;
  return Math.max(0, Math.round(100 * (1 - lost / Math.max(checked, worst.size)) - trap));
}

/** The elements the rules look at: controls, fields, images, text, and focusable elements. */
export function checkedElements(root: Walked): number {
  return [...walk(root)].filter(
    (n) =>
      CONTROL_ROLES.has(n.role) ||
      TEXT_INPUT_ROLES.has(n.role) ||
      n.role === 'image' ||
      READ_TEXT_ROLES.has(n.role) ||
      has(n, 'focusable'),
  ).length;
}
