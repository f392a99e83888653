/** The part of the untyped `x11` package's X-Resource extension (x11/lib/ext/res.js) clipboard.owner uses. */
declare module 'x11' {
  export interface XRes {
    ClientIdMask: { ClientXID: number; LocalClientPID: number };
    /** Each client's ids asked for: a pid, for LocalClientPID, is value[0]. */
    QueryClientIds(
      specs: { client: number; mask: number }[],
      cb: (error: Error | null | undefined, ids: { client: number; mask: number; value: number[] }[]) => void,
    ): void;
  }

  export interface XClient {
    require(extension: 'res', cb: (error: Error | null | undefined, res: XRes) => void): void;
  }
}
