/** The session toolset (always on): what this server can do here and why not. */
import { z } from 'zod';
import type { Capability } from '../helper-client/protocol.js';
import type { ServiceCheck } from '../services/types.js';
import { plural } from '../text.js';
import { VERSION } from '../version.js';
import { defineTool, toolsetTools, READ_ONLY } from './types.js';

const capabilityLine = (name: string, capability: Capability) =>
  `- ${name}: ${capability.available ? 'available' : 'NOT available'} (${capability.detail})`;

const serviceLine = (label: string, result: Awaited<ReturnType<ServiceCheck['check']>>) =>
  result.available
    ? `- ${label}: available (${result.detail})`
    : `- ${label}: NOT available (${result.detail}); ${result.how}`;

export const sessionTools = toolsetTools('session', [
  defineTool({
    name: 'check_permissions',
    title: 'Check permissions',
    description:
      'Whether this server can read the accessibility tree, reach the display and send input here, and what ' +
      'to do about anything missing.',
    input: z.object({}),
    annotations: READ_ONLY,
    handle: async (_args, { helper, config, serviceChecks, signal }) => {
      const hello = await helper.hello({ signal });
      const entries = Object.entries(hello.capabilities);
      const missing = entries.filter(([, c]) => !c.available).map(([name]) => name);
      const checks = serviceChecks.filter((c) => c.toolsets.some((t) => config.toolsets.includes(t)));
      const services = await Promise.all(checks.map(async (c) => serviceLine(c.label, await c.check())));
      return [
        `Platform: ${hello.platform}; helper ${hello.helperVersion}.`,
        ...entries.map(([name, capability]) => capabilityLine(name, capability)),
        missing.length === 0
          ? 'Everything this platform offers is available.'
          : `Missing: ${missing.join(', ')}. Tools that need them fail with an explanation; fix as each line says.`,
        ...(services.length > 0 ? ['Services of the enabled toolsets:', ...services] : []),
      ].join('\n');
    },
  }),
  defineTool({
    name: 'session_info',
    title: 'Session info',
    description:
      'Server and helper versions, platform, enabled toolsets and tools, the recording and what the session holds down.',
    input: z.object({}),
    annotations: READ_ONLY,
    handle: async (_args, { engine, helper, config, services, enabledTools, history, holder, signal }) => {
      const hello = await helper.hello({ signal });
      const recording = engine.recorder.status;
      const held = engine.held.heldBy(holder);
      return [
        `macpilot ${VERSION} on ${hello.platform} (Node ${process.versions.node})`,
        `helper: ${hello.helperVersion}, protocol ${hello.protocolVersion}, pid ${(await helper.pid()) ?? 'none'}`,
        `toolsets: ${config.toolsets.join(', ')}`,
        `platform services: ${Object.keys(services).join(', ') || 'none'}`,
        `tools (${enabledTools.length}): ${enabledTools.join(', ')}`,
        `config file: ${config.configFile ?? 'none'}`,
        `actions this session: ${history.count}, of which ${history.undoable} can be undone (undo)`,
        recording
          ? `recording: ${recording.app === undefined ? 'every app' : JSON.stringify(recording.app)} since ${new Date(recording.startedAt).toISOString()}, ${plural(recording.events, 'press', 'presses')} so far (stop_recording ends it)`
          : 'recording: none',
        `held down: ${held.length > 0 ? `${held.join(', ')} (mouse_up / key_up release them)` : 'nothing'}`,
      ].join('\n');
    },
  }),
]);
