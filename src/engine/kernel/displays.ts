/**
 * The displays, in one global space of screen points (the primary display's top-left at 0,0; others beside it,
 * possibly at negative coordinates). Every point an agent gives is checked against them: a point on no display
 * reaches nothing a person can see, so it is refused with the displays listed instead of being sent.
 */
import { geometry, overlaps, pointText } from '../../bounds.js';
import { MacpilotError } from '../../errors.js';
import type { CallOptions } from '../../helper-client/errors.js';
import type { Bounds, DisplayInfo, Point } from '../../helper-client/protocol.js';
import type { HelperPort } from './port.js';

/** How long a reading of the displays is trusted for the points checked against it. */
const FRESH_MS = 2000;

const contains = (b: Bounds, p: Point) =>
  p.x >= b.x && p.y >= b.y && p.x < b.x + b.width && p.y < b.y + b.height;

export const describeDisplay = (d: DisplayInfo): string =>
  `${JSON.stringify(d.id)}${d.primary ? ' (primary)' : ''} ${geometry(d.bounds)}`;

export class Displays {
  private reading: { at: number; displays: Promise<DisplayInfo[]> } | undefined;

  constructor(private readonly port: HelperPort) {}

  /** The displays as the helper reports them now (and for the next FRESH_MS of point checks). */
  async list(call?: CallOptions): Promise<DisplayInfo[]> {
    const displays = this.port.call('screen.displays', {}, call).then((r) => r.displays);
    this.reading = { at: performance.now(), displays };
    displays.catch(() => (this.reading = undefined));
    return displays;
  }

  /**
   * The display `point` is on, or a refusal listing them; `what` names the point ("The drop point"), `concerns`
   * the call's arguments that gave it.
   */
  async at(
    point: Point,
    what: string,
    call?: CallOptions,
    concerns: readonly string[] = ['x', 'y'],
  ): Promise<{ display: DisplayInfo; several: boolean }> {
    const fresh = this.reading && performance.now() - this.reading.at < FRESH_MS;
    const displays = await (fresh && this.reading ? this.reading.displays : this.list(call));
    const display = displays.find((d) => contains(d.bounds, point));
    if (display) return { display, several: displays.length > 1 };
    throw new MacpilotError({
      what: `${what} ${pointText(point)} is on no display`,
      why: `the displays, in screen points: ${displays.map(describeDisplay).join('; ') || 'none'}`,
      next: 'give a point on one of them (element bounds and screenshots use the same screen points)',
      kind: 'point_off_screen',
      concerns,
    });
  }

  /** Refuses a region that overlaps no display, listing them. */
  async overlapping(region: Bounds, call?: CallOptions): Promise<void> {
    const displays = await this.list(call);
    if (displays.some((d) => overlaps(d.bounds, region))) return;
    throw new MacpilotError({
      what: `The region ${region.width}x${region.height} at ${region.x},${region.y} is on no display`,
      why: `the displays, in screen points: ${displays.map(describeDisplay).join('; ') || 'none'}`,
      next: 'give a region that overlaps one of them (list_displays lists them)',
      kind: 'region_off_screen',
      concerns: ['region'],
      person: { next: 'give a region that overlaps one of them (`macpilot displays` lists them)' },
    });
  }
}
