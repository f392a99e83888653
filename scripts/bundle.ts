/**
 * Bundles the server into dist/macpilot.js, the file `macpilot` and `npm start` run, and the Linux helper into
 * dist/macpilot-linux-helper.js: one file loads in about half the time of the hundreds of modules the MCP SDK,
 * zod and dbus-next are made of (cold start is a budget). Native packages stay outside.
 *
 * It also makes the files of packages/macpilot-linux-ocr, the OCR engine npm installs on Linux only: tesseract.js
 * and its worker script, each one file, and the one tesseract.js-core build they load (see OCR_CORE).
 */
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildOptions, build, type Plugin } from 'esbuild';

/**
 * What loads from node_modules at run time is exactly what package.json lists as dependencies (native code,
 * the OCR engine's worker script and WebAssembly, dbus-next); everything else is bundled, so an install carries
 * no more than those (the MCP SDK, zod and the rest are devDependencies).
 */
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
const RUNTIME = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies });

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // The helper takes dbus-next into its one file (it loads faster so); the server's chunks cannot (below).
  external: RUNTIME.filter((name) => name !== 'dbus-next'),
  // CommonJS dependencies (vscode-jsonrpc, dbus-next) call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __macpilotRequire } from 'node:module';\nconst require = __macpilotRequire(import.meta.url);",
  },
  logLevel: 'warning',
};

const OCR_PACKAGE = 'packages/macpilot-linux-ocr';
/**
 * tesseract.js-core ships six builds (with or without SIMD, relaxed SIMD, the legacy recognizer) and tesseract.js
 * picks one by what the WebAssembly engine supports. macpilot reads with the LSTM recognizer only, and SIMD is in
 * every Node.js macpilot runs on (>= 20; relaxed SIMD only from 22): this one build serves them all.
 */
const OCR_CORE = 'tesseract-core-simd-lstm';

/** tesseract.js's worker loads OCR_CORE from beside itself instead of choosing among the builds of the package. */
const oneCore: Plugin = {
  name: 'one-tesseract-core',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\/getCore$/ }, () => ({ path: 'getCore', namespace: 'one-core' }));
    plugin.onLoad({ filter: /.*/, namespace: 'one-core' }, () => ({
      loader: 'js',
      contents: `let core = null;
module.exports = async (_oem, _core, res) => {
  if (core === null) {
    res.progress({ status: 'loading tesseract core', progress: 0 });
    core = require('./${OCR_CORE}.js');
    res.progress({ status: 'loading tesseract core', progress: 1 });
  }
  return core;
};`,
    }));
  },
};

const ocr: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
};

// Type checking is `npm run lint`'s job (tsc); esbuild only strips the types.
rmSync('dist', { recursive: true, force: true });
for (const file of [`${OCR_CORE}.js`, `${OCR_CORE}.wasm`, 'LICENSE']) {
  copyFileSync(join('node_modules', 'tesseract.js-core', file), join(OCR_PACKAGE, file));
}
await Promise.all([
  // Split: what the server imports only when asked for (execa for the system services, the HTTP transport,
  // doctor) becomes chunks under dist/chunks/ that load on first use. dbus-next (which pulls in the whole x11
  // package) stays in node_modules: a split-out CommonJS chunk would offer only a default export.
  build({
    ...common,
    external: RUNTIME,
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
  build({
    ...ocr,
    entryPoints: ['node_modules/tesseract.js/src/index.js'],
    outfile: join(OCR_PACKAGE, 'tesseract.cjs'),
  }),
  build({
    ...ocr,
    entryPoints: ['node_modules/tesseract.js/src/worker-script/node/index.js'],
    outfile: join(OCR_PACKAGE, 'worker.cjs'),
    external: [`./${OCR_CORE}.js`],
    plugins: [oneCore],
  }),
]);
