/** The part of the untyped `x11` package's RECORD extension (x11/lib/ext/record.js) that recording uses. */
declare module 'x11' {
  export interface RecordRange8 {
    first: number;
    last: number;
  }

  /** A RECORD_RANGE; the protocol parts left out record nothing. */
  export interface RecordRange {
    deviceEvents?: RecordRange8;
    deliveredEvents?: RecordRange8;
  }

  /** One reply of EnableContext's series. */
  export interface RecordReply {
    /** 0 FromServer, 1 FromClient, 2 ClientStarted, 3 ClientDied, 4 StartOfData (5 EndOfData ends the series). */
    category: number;
    elementHeader: number;
    /** The recorded protocol: for device events, 32-byte core events one after another. */
    data: Buffer;
  }

  export interface XRecord {
    CS: { AllClients: number };
    CreateContext(context: number, elementHeader: number, clientSpecs: number[], ranges: RecordRange[]): void;
    EnableContext(
      context: number,
      onData: (reply: RecordReply) => void,
      cb: (error: Error | null | undefined, replies: unknown) => void,
    ): void;
    DisableContext(context: number): void;
    FreeContext(context: number): void;
  }

  export interface XClient {
    require(extension: 'record', cb: (error: Error | null | undefined, record: XRecord) => void): void;
    QueryExtension(
      name: string,
      cb: (error: Error | null | undefined, ext: { present: boolean }) => void,
    ): void;
    seq_num: number;
    replies: Record<number, unknown[] | undefined>;
  }
}
