/** gnome-calculator (GTK4) started for a test: its process, the ref of its focused entry, and the entry's text. */
import type { Macpilot } from './mcp.js';
import type { Processes } from './processes.js';
import { eventually } from './text.js';

export async function calculatorEntry(macpilot: Macpilot, processes: Processes) {
  const calculator = processes.start('gnome-calculator');
  const app = String(calculator.pid);
  const entry = await eventually("the calculator's entry", async () => {
    const found = await macpilot.call('find_elements', { app, role: 'textbox' });
    return found.isError ? undefined : /\[ref=(e\d+)\][^\n]*focused/.exec(found.text)?.[1];
  });
  const value = async (): Promise<unknown> => {
    const { structuredContent } = (await macpilot.client.callTool({
      name: 'get_element',
      arguments: { ref: entry },
    })) as { structuredContent?: { value?: unknown } };
    return structuredContent?.value ?? '';
  };
  return { calculator, app, entry, value };
}
