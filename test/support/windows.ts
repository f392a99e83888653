/** The windows list_windows answers with, minimized ones included, as its structured answer gives them. */
import type { Macpilot } from './mcp.js';

export type Bounds = { x: number; y: number; width: number; height: number };

export interface ListedWindow {
  id: string;
  pid: number;
  title: string;
  focused: boolean;
  minimized: boolean;
  bounds: Bounds;
}

export async function listedWindows(macpilot: Macpilot): Promise<ListedWindow[]> {
  const answer = await macpilot.client.callTool({
    name: 'list_windows',
    arguments: { include_minimized: true },
  });
  return (answer.structuredContent as { windows: ListedWindow[] }).windows;
}
