/** A tool is data plus one handler: the MCP server registers these, policy and tests read them. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Engine } from '../engine/index.js';
import type { HelperClient } from '../helper/client.js';
import type { ServiceCheck, ServiceName, Services } from '../services/types.js';
import type { Toolset } from '../toolsets.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolContext {
  engine: Engine;
  helper: HelperClient;
  config: Config;
  /** What this platform offers beyond the accessibility tree (system, audio, file manager, scripts...). */
  services: Services;
  serviceChecks: readonly ServiceCheck[];
  /** Aborted when the client cancels the request. */
  signal: AbortSignal;
  /** Tools in tools/list, by toolset, for session_info. */
  enabledTools: readonly string[];
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  toolset: Toolset;
  input: Input;
  annotations: ToolAnnotations;
  /** The platform service the tool needs: without it on this platform, the tool is not listed. */
  service?: ServiceName;
  /** What the human asked to allow the call also reads, when its title and target say too little (a script's source). */
  consentDetail?: (args: z.output<Input>) => string;
  /** Returns the text the agent reads, or a full result. Throws MacpilotError for foreseeable failures. */
  handle(args: z.output<Input>, context: ToolContext): Promise<string | CallToolResult>;
}

export function defineTool<Input extends z.ZodObject>(
  definition: ToolDefinition<Input>,
): ToolDefinition<Input> {
  return definition;
}

/** Annotation presets; a tool spreads one and overrides what differs. */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

/** The service a tool declared in `service`; the server lists and registers the tool only where it exists. */
export function serviceOf<Name extends ServiceName>(
  context: Pick<ToolContext, 'services'>,
  name: Name,
): NonNullable<Services[Name]> {
  const service = context.services[name];
  if (service === undefined) throw new Error(`service ${name} is not available on this platform`);
  return service;
}
