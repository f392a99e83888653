/** The part of the untyped `x11` package the helper uses. */
declare module 'x11' {
  type Callback<T> = (error: Error | null | undefined, result: T) => void;

  export interface Property {
    type: number;
    format: number;
    bytesAfter: number;
    data: Buffer;
  }

  export interface Geometry {
    windowid: number;
    xPos: number;
    yPos: number;
    width: number;
    height: number;
    borderWidth: number;
  }

  export interface Translated {
    child: number;
    destX: number;
    destY: number;
  }

  export interface XClient {
    InternAtom(onlyIfExists: boolean, name: string, cb: Callback<number>): void;
    GetProperty(
      del: number,
      window: number,
      property: number,
      type: number,
      longOffset: number,
      longLength: number,
      cb: Callback<Property>,
    ): void;
    GetGeometry(drawable: number, cb: Callback<Geometry>): void;
    TranslateCoordinates(src: number, dst: number, x: number, y: number, cb: Callback<Translated>): void;
    SendClientMessage(
      destination: number,
      window: number,
      messageType: number,
      format: number,
      data: number[],
      eventMask?: number,
    ): void;
    on(event: 'error', listener: (error: Error) => void): this;
    on(event: 'end' | 'close', listener: () => void): this;
    once(event: 'end', listener: () => void): this;
    close(cb?: () => void): void;
  }

  export interface Screen {
    root: number;
    pixel_width: number;
    pixel_height: number;
  }

  export interface Display {
    client: XClient;
    screen: Screen[];
  }

  export function createClient(options: { display?: string }, cb: Callback<Display>): XClient;
}
