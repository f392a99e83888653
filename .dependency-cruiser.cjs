/**
 * The direction imports run in (README "How it is built", docs/architecture.md), checked by `npm run lint`:
 * entry points → mcp → tools → policy → engine → helper; services beside the engine; platforms below, reaching
 * up to nothing but the contract and the service interfaces. Leaves anyone may import, and which import only
 * each other: the settings, the toolsets, errors, text rules and the helper protocol.
 */
const LEAVES =
  '^src/(config|toolsets|modes|errors|untrusted|text|bounds|menu-path|log|version|keys|package-root|sharp)\\.ts$|^src/helper-client/(protocol|errors)\\.ts$';
const ENTRY = '^src/(cli|serve|doctor|runtime|control)\\.ts$|^src/(cli|setup|console)/';
/** The engine's rooms, lowest first: each imports only the rooms before it (docs/architecture.md). */
const ENGINE = '^src/engine/';
const engineRoom = (room, above, comment) =>
  forbid(
    `engine-${room}`,
    comment,
    `${ENGINE}${room}/`,
    `${ENGINE}(${above.join('|')})/|${ENGINE}index\\.ts$`,
  );

/** `from` may not import anything in `to`. */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: { path: to },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Modules that import each other, directly or through others: move the shared part down.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    forbid(
      'leaves-stay-leaves',
      'A leaf imports only other leaves.',
      LEAVES,
      `^src/(?!${LEAVES.replaceAll('^src/', '')})`,
    ),
    forbid(
      'mcp-below-entry',
      'Only the entry points use the MCP surface.',
      '^src/(?!mcp/|cli|serve|console/)',
      '^src/mcp/',
    ),
    forbid(
      'tools-below-mcp',
      'Tools know nothing of the MCP server or the entry points.',
      '^src/tools/',
      `^src/mcp/|${ENTRY}`,
    ),
    forbid(
      'policy-below-tools',
      'The policy reads tool metadata (src/toolsets.ts), not tool definitions.',
      '^src/policy/',
      `^src/(tools|mcp)/|${ENTRY}`,
    ),
    forbid(
      'engine-below-policy',
      'The engine knows no MCP, tools, policy, services or platform, and reaches the helper through HelperPort.',
      '^src/engine/',
      `^src/(tools|mcp|policy|services|platforms)/|^src/helper-client/(client|rpc)\\.ts$|${ENTRY}`,
    ),
    engineRoom(
      'kernel',
      ['reading', 'features', 'testing', 'render'],
      'The kernel imports no other room of the engine.',
    ),
    engineRoom('reading', ['features', 'testing', 'render'], 'Readings of a tree build on the kernel alone.'),
    engineRoom('features', ['testing', 'render'], 'Features answer data; they never render it.'),
    engineRoom('testing', ['render'], 'The testing tools answer data; they never render it.'),
    engineRoom(
      'render',
      ['reading', 'features', 'testing'],
      'Renderers read results and the kernel only (the types they need live in kernel/results.ts).',
    ),
    forbid(
      'tools-through-the-engine',
      'Tools reach the helper through the engine (and its app gate), never through the client.',
      '^src/tools/',
      '^src/helper-client/(client|rpc)\\.ts$',
    ),
    forbid(
      'services-beside-engine',
      'Services know no engine, policy, tools or MCP.',
      '^src/services/',
      `^src/(engine|tools|mcp|policy|platforms)/|${ENTRY}`,
    ),
    forbid(
      'helper-at-the-bottom',
      'The helper client and protocol import nothing above them.',
      '^src/helper-client/',
      `^src/(engine|tools|mcp|policy|services|platforms)/|${ENTRY}`,
    ),
    forbid(
      'platforms-below-all',
      'The helpers and platform services know no engine, policy, tools or MCP.',
      '^src/platforms/',
      `^src/(engine|tools|mcp|policy)/|${ENTRY}`,
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.d.ts'] },
  },
};
