/** The editor's document in the scenarios: its ref (the multiline text box) and its text, as the app gives it. */
import type { Macpilot } from '../support/mcp.js';
import { refOf } from '../support/text.js';

export const documentRef = async (macpilot: Macpilot, app: string): Promise<string> =>
  refOf(await macpilot.ok('find_elements', { app, role: 'textbox' }), /multiline/);

export const textOf = async (macpilot: Macpilot, ref: string): Promise<string | undefined> =>
  (
    (await macpilot.client.callTool({ name: 'get_element', arguments: { ref } })).structuredContent as {
      value?: string;
    }
  ).value;
