/**
 * tools/list answered from macpilot's own tool definitions. McpServer lists every enabled tool, and refuses a
 * disabled one as "disabled" before the policy sees the call; macpilot registers every tool the platform
 * serves (so that a call of one the mode hides reaches the policy, which names the setting that would allow
 * it) and lists only those the mode runs, with the schemas converted as the SDK converts them.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolDefinition } from '../tools/types.js';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'draft-7', io }) as Tool['inputSchema'];

/** A tool as tools/list describes it. */
export function listedTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input'),
    annotations: { title: tool.title, ...tool.annotations },
    // As McpServer registers it: task tools may run as tasks, the others may not.
    execution: { taskSupport: tool.task ? 'optional' : 'forbidden' },
    ...(tool.output
      ? { outputSchema: jsonSchema(tool.output.schema, 'output') as Tool['outputSchema'] }
      : {}),
  };
}

export function listOnly(server: McpServer, tools: readonly ToolDefinition[]): void {
  const listed = tools.map(listedTool);
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
}
