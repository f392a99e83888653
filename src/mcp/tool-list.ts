/**
 * tools/list showing only some of the registered tools. McpServer lists every enabled tool, and a disabled one
 * is refused as "disabled" before the policy sees the call; so its list handler is wrapped and filtered
 * instead. The SDK keeps request handlers in a private map: this is the one place that reaches into it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';

type Handler = (request: unknown, extra: unknown) => Promise<ListToolsResult> | ListToolsResult;

export function listOnly(server: McpServer, names: readonly string[]): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const list = handlers?.get('tools/list');
  if (!list) throw new Error('the MCP SDK no longer keeps tools/list where macpilot expects it');
  const shown = new Set(names);
  server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const result = await list(request, extra);
    return { ...result, tools: result.tools.filter((tool) => shown.has(tool.name)) };
  });
}
