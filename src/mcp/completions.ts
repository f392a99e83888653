/**
 * completion/complete, answered from macpilot's own table of what completes where (prompt arguments, resource
 * template variables). A reference the table does not know completes with nothing, rather than failing: a
 * client offering completions as the user types should not see errors for arguments that have none.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CompleteRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** Values for an argument, given what it holds so far and the other arguments already given. */
export type Completer = (value: string, context: Record<string, string>) => Promise<string[]>;

/** By prompt name (or resource template), by argument (or template variable). */
export type Completers = Record<string, Record<string, Completer>>;

/** The protocol caps a completion at 100 values. */
const MAX_VALUES = 100;

export function registerCompletions(server: McpServer, prompts: Completers, templates: Completers): void {
  server.server.setRequestHandler(CompleteRequestSchema, async ({ params }) => {
    const { ref, argument, context } = params;
    const table = ref.type === 'ref/prompt' ? prompts[ref.name] : templates[ref.uri];
    const complete = table?.[argument.name];
    const values = complete ? await complete(argument.value, context?.arguments ?? {}).catch(() => []) : [];
    return {
      completion: {
        values: values.slice(0, MAX_VALUES),
        total: values.length,
        hasMore: values.length > MAX_VALUES,
      },
    };
  });
}
