/** A zenity entry dialog started for a test: its process, the entry's ref, and the entry's text as the tree has it. */
import type { Macpilot } from './mcp.js';
import type { Processes } from './processes.js';
import { eventually, refOf } from './text.js';

export async function zenityEntry(macpilot: Macpilot, processes: Processes, title: string) {
  const zenity = processes.start('zenity', ['--entry', '--title', title, '--text', 'Type here']);
  const field = await eventually('the zenity entry', async () => {
    const out = await macpilot.call('find_elements', { app: String(zenity.pid), role: 'textbox' });
    return out.isError ? undefined : refOf(out.text, /textbox/);
  });
  const value = async (): Promise<unknown> => {
    const { structuredContent } = (await macpilot.client.callTool({
      name: 'get_element',
      arguments: { ref: field },
    })) as { structuredContent?: { value?: unknown } };
    return structuredContent?.value;
  };
  return { zenity, field, value };
}
