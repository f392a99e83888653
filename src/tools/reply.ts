/**
 * One reply per tool call: a handler's answer as the tool result the client gets. An engine result is rendered
 * once, as the text the model reads and, when the tool declares a structured output, as its structuredContent.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { StructuredOutput } from '../engine/render/json.js';
import { renderText } from '../engine/render/text.js';
import type { EngineResult } from '../engine/kernel/results.js';

export type Answer = string | CallToolResult | EngineResult;

export function reply(
  answer: Answer,
  output?: StructuredOutput<EngineResult> | { schema: unknown },
): CallToolResult {
  if (typeof answer === 'string') return { content: [{ type: 'text', text: answer }] };
  if ('content' in answer) return answer;
  const content: CallToolResult['content'] = [{ type: 'text', text: renderText(answer) }];
  return output && 'json' in output ? { content, structuredContent: output.json(answer) } : { content };
}
