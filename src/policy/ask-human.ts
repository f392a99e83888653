/**
 * Asking the human through the MCP client (form elicitation): what consent and the choice of an app share. The
 * answer is the human's; no tool argument can give it.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export type FormQuestion = Pick<ElicitRequestFormParams, 'message' | 'requestedSchema'>;

/** The human's answer, or undefined when the client cannot ask its user (it did not declare elicitation). */
export async function askHuman(
  server: Server,
  question: FormQuestion,
  signal: AbortSignal,
): Promise<ElicitResult | undefined> {
  if (!server.getClientCapabilities()?.elicitation) return undefined;
  return server.elicitInput(question, { signal });
}
