/**
 * One reply per tool call: the engine's result rendered once as the text the model reads and, for tools that
 * declare an output schema, as its structuredContent.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { renderText } from '../engine/render-text.js';
import type { EngineResult } from '../engine/results.js';

export function reply<R extends EngineResult>(
  result: R,
  json?: (result: R) => { [key: string]: unknown },
): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: renderText(result) }];
  return json ? { content, structuredContent: json(result) } : { content };
}
