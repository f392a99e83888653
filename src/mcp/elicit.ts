/** The human behind an MCP client, asked through elicitation when the client declared it. */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Human } from '../policy/pipeline.js';

export function elicitingHuman(server: Server): Human {
  return {
    unreachable: () =>
      server.getClientCapabilities()?.elicitation
        ? undefined
        : 'this MCP client cannot ask its user (it did not declare the elicitation capability)',
    confirm: async ({ action, detail }, signal) => {
      const answer = await server.elicitInput(
        {
          message: `An AI agent wants to ${action}. Allow it?${detail === undefined ? '' : `\n\n${detail}`}`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Allow', description: `Allow: ${action}` } },
            required: ['confirm'],
          },
        },
        { signal },
      );
      if (answer.action !== 'accept') return answer.action;
      return answer.content?.confirm === true ? 'accept' : 'decline';
    },
    choose: async ({ question, title, options }, signal) => {
      const answer = await server.elicitInput(
        {
          message: question,
          requestedSchema: {
            type: 'object',
            properties: {
              choice: {
                type: 'string',
                title,
                oneOf: options.map((option) => ({ const: option.value, title: option.label })),
              },
            },
            required: ['choice'],
          },
        },
        { signal },
      );
      const value = answer.content?.choice;
      if (answer.action !== 'accept') return { action: answer.action };
      return typeof value === 'string' ? { action: 'accept', value } : { action: 'decline' };
    },
  };
}
