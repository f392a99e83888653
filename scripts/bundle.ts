/**
 * Bundles the server into dist/macpilot.js, the file `macpilot` and `npm start` run, and the Linux helper into
 * dist/macpilot-linux-helper.js: one file loads in about half the time of the hundreds of modules the MCP SDK,
 * zod and dbus-next are made of (cold start is a budget). Native packages stay outside.
 */
import { rmSync } from 'node:fs';
import { type BuildOptions, build } from 'esbuild';

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Native or worker-spawning packages load from node_modules: tesseract.js starts its worker script by path.
  external: ['sharp', 'tesseract.js'],
  // CommonJS dependencies (vscode-jsonrpc, dbus-next) call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __macpilotRequire } from 'node:module';\nconst require = __macpilotRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

// Type checking is `npm run lint`'s job (tsc); esbuild only strips the types.
rmSync('dist', { recursive: true, force: true });
await Promise.all([
  // Split: what the server imports only when asked for (execa for the system services, the HTTP transport,
  // doctor) becomes chunks under dist/chunks/ that load on first use. dbus-next (which pulls in the whole x11
  // package) stays in node_modules: a split-out CommonJS chunk would offer only a default export.
  build({
    ...common,
    external: [...(common.external ?? []), 'dbus-next'],
    entryPoints: { macpilot: 'src/cli.ts' },
    outdir: 'dist',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  }),
  build({
    ...common,
    entryPoints: ['src/platforms/linux/helper/main.ts'],
    outfile: 'dist/macpilot-linux-helper.js',
  }),
]);
