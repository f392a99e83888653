/** The part of the untyped `x11` package's XFIXES extension (x11/lib/ext/fixes.js) the clipboard watch uses. */
declare module 'x11' {
  export interface XFixes {
    QueryVersion(
      major: number,
      minor: number,
      cb: (error: Error | null | undefined, version: unknown) => void,
    ): void;
    SelectionEventMask: {
      SetSelectionOwner: number;
      SelectionWindowDestroy: number;
      SelectionClientClose: number;
    };
    SelectSelectionInput(window: number, selection: number, eventMask: number): void;
  }

  /** XFixesSelectionNotify, which the package names like the core SelectionNotify. */
  export interface XFixesSelectionNotifyEvent {
    name: 'SelectionNotify';
    subtype: number;
    owner: number;
    selection: number;
  }

  export interface XClient {
    require(extension: 'fixes', cb: (error: Error | null | undefined, fixes: XFixes) => void): void;
  }
}
