/**
 * A pointer of macpilot's own on a wlroots compositor (zwlr_virtual_pointer_v1): absolute motion over the output
 * layout, buttons and wheel steps, each batch ended by a frame and answered after a round trip, so the
 * compositor has delivered the events when a call answers. While it exists the seat has a pointer, which a
 * headless compositor otherwise lacks.
 */
import type { Bounds, MouseButton, Point } from '../../../../helper-client/protocol.js';
import { WaylandConnection } from './wire.js';

const MANAGER = 'zwlr_virtual_pointer_manager_v1';
const CREATE = 0;
/** zwlr_virtual_pointer_v1 requests. */
const MOTION_ABSOLUTE = 1;
const BUTTON = 2;
const AXIS = 3;
const FRAME = 4;
const AXIS_SOURCE = 5;
const AXIS_DISCRETE = 7;
const WHEEL_SOURCE = 0;
/** Linux input event codes (BTN_LEFT, BTN_RIGHT, BTN_MIDDLE). */
const BUTTON_CODES: Record<MouseButton, number> = { left: 0x110, right: 0x111, middle: 0x112 };
/** libinput's scroll distance for one wheel step. */
const STEP_DISTANCE = 15;

export type Axis = 'vertical' | 'horizontal';

export class VirtualPointer {
  private readonly started = Date.now();

  private constructor(
    private readonly wayland: WaylandConnection,
    private readonly pointer: number,
  ) {}

  /** Undefined, with the reason, when the compositor offers no virtual pointers. */
  static async open(env: NodeJS.ProcessEnv): Promise<VirtualPointer> {
    const wayland = await WaylandConnection.open(env);
    const manager = wayland.global(MANAGER);
    if (!manager) {
      wayland.close();
      throw new Error(`the compositor offers no ${MANAGER} (wlroots' virtual pointer protocol)`);
    }
    const seat = wayland.global('wl_seat');
    const managerId = wayland.bind(manager, 1);
    const seatId = seat ? wayland.bind(seat, 1) : 0;
    const pointer = wayland.newId();
    wayland.send(managerId, CREATE, [{ object: seatId }, { u: pointer }]);
    await wayland.roundTrip();
    return new VirtualPointer(wayland, pointer);
  }

  onClose(listener: (error: Error) => void): void {
    this.wayland.onClose(listener);
  }

  private get time(): number {
    return (Date.now() - this.started) >>> 0;
  }

  /** Moves to a point of the layout whose bounding box is `layout`. */
  moveTo(at: Point, layout: Bounds): void {
    const x = Math.min(Math.max(Math.round(at.x - layout.x), 0), layout.width);
    const y = Math.min(Math.max(Math.round(at.y - layout.y), 0), layout.height);
    this.wayland.send(this.pointer, MOTION_ABSOLUTE, [
      { u: this.time },
      { u: x },
      { u: y },
      { u: layout.width },
      { u: layout.height },
    ]);
    this.frame();
  }

  button(button: MouseButton, down: boolean): void {
    this.wayland.send(this.pointer, BUTTON, [
      { u: this.time },
      { u: BUTTON_CODES[button] },
      { u: down ? 1 : 0 },
    ]);
    this.frame();
  }

  /** One wheel step; positive is down (vertical) or right (horizontal). */
  wheel(axis: Axis, direction: 1 | -1): void {
    const code = axis === 'vertical' ? 0 : 1;
    this.wayland.send(this.pointer, AXIS_SOURCE, [{ u: WHEEL_SOURCE }]);
    this.wayland.send(this.pointer, AXIS_DISCRETE, [
      { u: this.time },
      { u: code },
      { fixed: STEP_DISTANCE * direction },
      { i: direction },
    ]);
    this.frame();
  }

  /** Scroll by a distance in surface pixels, as a touchpad does. */
  glide(axis: Axis, pixels: number): void {
    this.wayland.send(this.pointer, AXIS, [
      { u: this.time },
      { u: axis === 'vertical' ? 0 : 1 },
      { fixed: pixels },
    ]);
    this.frame();
  }

  private frame(): void {
    this.wayland.send(this.pointer, FRAME, []);
  }

  /** Resolves once the compositor has handled everything sent. */
  sync(): Promise<void> {
    return this.wayland.roundTrip();
  }

  close(): void {
    this.wayland.close();
  }
}
