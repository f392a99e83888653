/**
 * computer-use-mcp's screen capture without its tool's 1 s sleep: nut.js's grab of the screen, its conversion to
 * RGB, and a PNG with the same sharp settings as macpilot's. Run with the peers' node_modules folder and a count;
 * prints {"median": ms} as JSON.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const [modules, runs] = [process.argv[2], Number(process.argv[3])];
const { screen } = await import(join(modules, '@nut-tree-fork', 'nut-js', 'dist', 'index.js'));
const { default: sharp } = await import(join(modules, 'sharp', 'lib', 'index.js'));

async function captureToPng() {
  const rgb = await (await screen.grab()).toRGB();
  const raw = { width: rgb.width, height: rgb.height, channels: rgb.channels };
  return sharp(rgb.data, { raw }).png({ compressionLevel: 2, adaptiveFiltering: false }).toBuffer();
}

for (let i = 0; i < 3; i++) await captureToPng();
const samples = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  await captureToPng();
  samples.push(performance.now() - started);
}
samples.sort((a, b) => a - b);
process.stdout.write(`${JSON.stringify({ median: samples[Math.floor(samples.length / 2)] })}\n`);
