/** Renders docs/protocol.md from protocol.ts, so that the document cannot drift from the code. */
import { z } from 'zod';
import {
  EXIT_CONNECTION_LOST,
  HelperErrorCode,
  methods,
  notifications,
  PROTOCOL_VERSION,
} from './protocol.js';

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  $defs?: Record<string, JsonSchema>;
}

function typeName(schema: JsonSchema): string {
  if (schema.$ref) return schema.$ref.split('/').pop() ?? '?';
  if (schema.anyOf) return schema.anyOf.map(typeName).join(' \\| ');
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (Array.isArray(schema.type)) return schema.type.join(' \\| ');
  if (schema.type === 'array' && schema.items) return `${typeName(schema.items)}[]`;
  if (schema.type === 'object') {
    if (schema.properties) return fields(schema);
    if (typeof schema.additionalProperties === 'object') {
      return `Record<string, ${typeName(schema.additionalProperties)}>`;
    }
    return '{}';
  }
  return schema.type ?? 'unknown';
}

function fields(schema: JsonSchema): string {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([key, value]) => `${key}${required.has(key) ? '' : '?'}: ${typeName(value)}`).join(', ')} }`;
}

export function renderProtocolDoc(): string {
  const defs = new Map<string, JsonSchema>();
  const summarize = (schema: z.ZodType, io: 'input' | 'output') => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
    for (const [name, def] of Object.entries(json.$defs ?? {})) defs.set(name, def);
    return typeName(json);
  };
  const rows = Object.entries(methods).map(
    ([name, m]) =>
      `| \`${name}\` | ${m.description} | ${summarize(m.params, 'input')} | ${summarize(m.result, 'output')} |`,
  );
  const notes = Object.entries(notifications).map(
    ([name, n]) => `| \`${name}\` | ${n.description} | ${summarize(n.params, 'output')} |`,
  );
  const types = [...defs.keys()]
    .sort()
    .map((name) => `| \`${name}\` | ${typeName({ ...(defs.get(name) as JsonSchema), $ref: undefined })} |`);
  const errors = Object.entries(HelperErrorCode).map(([name, code]) => `| ${code} | ${name} |`);
  return [
    '# The helper protocol',
    '',
    '<!-- Generated from src/helper-client/protocol.ts by `npm run docs:protocol`; a unit test checks it. -->',
    '',
    `Protocol version ${PROTOCOL_VERSION}. JSON-RPC 2.0 over the helper's stdin/stdout, each message framed as`,
    '`Content-Length: N\\r\\n\\r\\n` followed by N bytes of UTF-8 JSON. The server starts with `system.hello` and',
    'refuses a helper whose protocol version differs. Errors carry one of the codes below and may carry',
    "`data.hint`, a sentence saying what to do next; a method the helper does not know gets JSON-RPC's own",
    '-32601 (method not found).',
    '',
    '## Methods',
    '',
    '| Method | What it does | Params | Result |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    '## Notifications (helper to server)',
    '',
    '| Notification | What it says | Params |',
    '| --- | --- | --- |',
    ...notes,
    '',
    '## Types',
    '',
    '| Type | Shape |',
    '| --- | --- |',
    ...types,
    '',
    '## Error codes',
    '',
    '| Code | Name |',
    '| --- | --- |',
    ...errors,
    '',
    '## Exit codes',
    '',
    `A helper that loses a connection it cannot work without (the display, the accessibility bus) exits with code`,
    `${EXIT_CONNECTION_LOST} rather than fail every later call; the server then starts a fresh one on the next call.`,
    '',
  ].join('\n');
}
