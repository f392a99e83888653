/**
 * computer-use-mcp's screen capture without its tool's 1 s sleep: nut.js's grab of the screen, its conversion to
 * RGB, and a PNG with the same sharp settings as macpilot's, in this process (no MCP call around it). Run with
 * the peers' node_modules folder; each line on stdin takes one capture and answers the milliseconds it took.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

const modules = process.argv[2];
const { screen } = await import(join(modules, '@nut-tree-fork', 'nut-js', 'dist', 'index.js'));
const { default: sharp } = await import(join(modules, 'sharp', 'lib', 'index.js'));

// The bench asks for one capture at a time and waits for its answer.
createInterface({ input: process.stdin }).on('line', async () => {
  const started = performance.now();
  const rgb = await (await screen.grab()).toRGB();
  const raw = { width: rgb.width, height: rgb.height, channels: rgb.channels };
  await sharp(rgb.data, { raw }).png({ compressionLevel: 2, adaptiveFiltering: false }).toBuffer();
  process.stdout.write(`${performance.now() - started}\n`);
});
