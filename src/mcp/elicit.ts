/** The human behind an MCP client, asked through elicitation when the client declared it. */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { MacpilotError } from '../errors.js';
import type { Human } from '../policy/pipeline.js';

/**
 * The client answered, but with content that does not fit the question (the SDK checks it against the schema
 * asked): the person's answer is unknown, so nothing is done, and the fault is said to be the client's.
 */
function unreadable(error: unknown, signal: AbortSignal): never {
  if (signal.aborted || !(error instanceof Error) || !/does not match requested schema/i.test(error.message))
    throw error;
  throw new MacpilotError(
    {
      what: "Not done: the user's answer to the question could not be read",
      why: `the MCP client sent an answer that does not fit the question (${error.message})`,
      next: 'nothing was changed; this is a fault of the MCP client, not of the call: tell the user, and do not retry it',
      kind: 'answer_unreadable',
      refusal: true,
    },
    { cause: error },
  );
}

export function elicitingHuman(server: Server): Human {
  return {
    unreachable: () =>
      server.getClientCapabilities()?.elicitation
        ? undefined
        : 'this MCP client cannot ask its user (it did not declare the elicitation capability)',
    confirm: async ({ action, detail }, signal) => {
      const answer = await server
        .elicitInput(
          {
            message: `An AI agent wants to ${action}. Allow it?${detail === undefined ? '' : `\n\n${detail}`}`,
            requestedSchema: {
              type: 'object',
              properties: { confirm: { type: 'boolean', title: 'Allow', description: `Allow: ${action}` } },
              required: ['confirm'],
            },
          },
          { signal },
        )
        .catch((error: unknown) => unreadable(error, signal));
      if (answer.action !== 'accept') return answer.action;
      return answer.content?.confirm === true ? 'accept' : 'decline';
    },
    choose: async ({ question, title, options }, signal) => {
      const answer = await server
        .elicitInput(
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
        )
        .catch((error: unknown) => unreadable(error, signal));
      const value = answer.content?.choice;
      if (answer.action !== 'accept') return { action: answer.action };
      return typeof value === 'string' ? { action: 'accept', value } : { action: 'decline' };
    },
  };
}
