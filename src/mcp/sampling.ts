/**
 * The client's model as the engine's ModelPort: MCP sampling (sampling/createMessage), offered only to clients
 * that declared the sampling capability. The image and the question go as two user messages (one content block
 * each, which every sampling client takes); the answer's text blocks come back.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ModelPort } from '../engine/features/visual.js';
import { MacpilotError } from '../errors.js';

/** The client's model, or undefined when the client cannot be asked (it did not declare sampling). */
export function clientModel(server: Server): ModelPort | undefined {
  if (!server.getClientCapabilities()?.sampling) return undefined;
  return {
    ask: async (request, call) => {
      const result = await server
        .createMessage(
          {
            systemPrompt: request.system,
            messages: [
              { role: 'user', content: { type: 'image', ...request.image } },
              { role: 'user', content: { type: 'text', text: request.text } },
            ],
            maxTokens: request.maxTokens,
            includeContext: 'none',
          },
          { signal: call?.signal },
        )
        .catch((error: unknown) => {
          throw new MacpilotError(
            {
              what: "The client's model could not be asked",
              why: error instanceof Error ? error.message : String(error),
              next: 'look yourself: take_screenshot with annotate: true draws the refs on the screen',
              kind: 'sampling_failed',
            },
            { cause: error },
          );
        });
      const blocks = Array.isArray(result.content) ? result.content : [result.content];
      const text = blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
      return { text, model: result.model };
    },
  };
}
