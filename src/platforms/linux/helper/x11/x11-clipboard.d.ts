/** The part of the untyped `x11` package that the clipboard (selections, properties, a hidden window) uses. */
declare module 'x11' {
  type Callback<T> = (error: Error | null | undefined, result: T) => void;

  export interface PropertyNotifyEvent {
    name: 'PropertyNotify';
    wid: number;
    atom: number;
    time: number;
    /** 0: new value, 1: deleted. */
    state: number;
  }

  export interface SelectionClearEvent {
    name: 'SelectionClear';
    time: number;
    owner: number;
    selection: number;
  }

  export interface SelectionRequestEvent {
    name: 'SelectionRequest';
    time: number;
    owner: number;
    requestor: number;
    selection: number;
    target: number;
    property: number;
  }

  export interface SelectionNotifyEvent {
    name: 'SelectionNotify';
    time: number;
    requestor: number;
    selection: number;
    target: number;
    property: number;
  }

  export type SelectionEvent =
    PropertyNotifyEvent | SelectionClearEvent | SelectionRequestEvent | SelectionNotifyEvent;

  export interface XClient {
    AllocID(): number;
    /** class 2 is InputOnly (depth and visual 0). */
    CreateWindow(
      id: number,
      parent: number,
      x: number,
      y: number,
      width: number,
      height: number,
      borderWidth: number,
      depth: number,
      windowClass: number,
      visual: number,
      values: { eventMask?: number },
    ): void;
    ChangeWindowAttributes(window: number, values: { eventMask?: number }): void;
    SetSelectionOwner(owner: number, selection: number, time: number): void;
    GetSelectionOwner(selection: number, cb: Callback<number>): void;
    ConvertSelection(
      requestor: number,
      selection: number,
      target: number,
      property: number,
      time: number,
    ): void;
    /** mode 0 replaces; format 8, 16 or 32. */
    ChangeProperty(
      mode: number,
      window: number,
      property: number,
      type: number,
      format: number,
      data: Buffer | number[],
    ): void;
    DeleteProperty(window: number, property: number): void;
    GetAtomName(atom: number, cb: Callback<string>): void;
    SendEvent(
      destination: number,
      propagate: number,
      eventMask: number,
      event: Omit<SelectionNotifyEvent, 'name'> & { name: 'SelectionNotify'; seq: number },
    ): void;
    /** Every event arrives here; the selection events are the ones the clipboard reads by name. */
    on(event: 'event', listener: (event: SelectionEvent) => void): this;
  }
}
