/**
 * Bundles the server into dist/macpilot.js, the file `macpilot` and `npm start` run: one file loads in about
 * half the time of the hundreds of modules the MCP SDK and zod are made of (cold start is a budget).
 * Native packages stay outside.
 */
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/macpilot.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['sharp'],
  // CommonJS dependencies (vscode-jsonrpc) call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __macpilotRequire } from 'node:module';\nconst require = __macpilotRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
