/** The part of the untyped `x11` package that screen capture and the display list use. */
declare module 'x11' {
  type Callback<T> = (error: Error | null | undefined, result: T) => void;

  export interface Image {
    depth: number;
    visualId: number;
    data: Buffer;
  }

  export interface Tree {
    root: number;
    parent: number;
    children: number[];
  }

  export interface Visual {
    red_mask: number;
    green_mask: number;
    blue_mask: number;
  }

  export interface PixmapFormat {
    bits_per_pixel: number;
    scanline_pad: number;
  }

  export interface ScreenResources {
    config_timestamp: number;
    crtcs: number[];
  }

  export interface CrtcInfo {
    x: number;
    y: number;
    width: number;
    height: number;
    mode: number;
    output: number[];
  }

  export interface OutputInfo {
    name: string;
  }

  export interface RandR {
    majorOpcode: number;
    QueryVersion(major: number, minor: number, cb: Callback<[number, number]>): void;
    GetScreenResourcesCurrent(window: number, cb: Callback<ScreenResources>): void;
    GetCrtcInfo(crtc: number, configTimestamp: number, cb: Callback<CrtcInfo>): void;
    GetOutputInfo(output: number, configTimestamp: number, cb: Callback<OutputInfo>): void;
    GetOutputPrimary(window: number, cb: Callback<number>): void;
  }

  /** What MIT-SHM's GetImage answers; the pixels are in the segment. */
  export interface ShmImage {
    depth: number;
    visual: number;
    size: number;
  }

  /** A shared segment the server writes into; `buffer` holds what was read back of it. */
  export interface ShmSegment {
    size: number;
    buffer: Buffer;
    getImage(
      drawable: number,
      x: number,
      y: number,
      width: number,
      height: number,
      planeMask: number,
      format: number,
      offset: number,
      cb: Callback<ShmImage>,
    ): void;
    detach(cb?: () => void): void;
  }

  export interface Shm {
    /** Whether a segment really attaches (a remote server may list the extension and refuse it). */
    usable(cb: Callback<boolean>): void;
    createSegment(size: number, cb: Callback<ShmSegment>): void;
  }

  export interface Screen {
    root_depth: number;
    root_visual: number;
    depths: Record<number, Record<number, Visual>>;
  }

  export interface Display {
    /** 0: least significant byte first. */
    image_byte_order: number;
    /** Pixmap formats by depth. */
    format: Record<number, PixmapFormat>;
  }

  export interface XClient {
    /** format 2 is ZPixmap. */
    GetImage(
      format: number,
      drawable: number,
      x: number,
      y: number,
      width: number,
      height: number,
      planeMask: number,
      cb: Callback<Image>,
    ): void;
    QueryTree(window: number, cb: Callback<Tree>): void;
    require(extension: 'randr', cb: Callback<RandR>): void;
    require(extension: 'shm', cb: Callback<Shm>): void;
  }
}
