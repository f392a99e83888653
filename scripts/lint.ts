/**
 * `npm run lint`: ESLint, Prettier's check, the type checker and the import-direction check, two at a time (each
 * is bound to one core for most of its run, and together they take about 50 s one after another). Each one's
 * output is printed whole once it ends, in this order; the exit code is the first failure's, else 0.
 */
import { execa } from 'execa';

const CHECKS: readonly (readonly [string, ...string[]])[] = [
  ['tsc', '-p', 'tsconfig.json', '--noEmit'],
  ['eslint', '.'],
  ['prettier', '--check', '.'],
  ['depcruise', 'src', '--config', '.dependency-cruiser.cjs'],
];
const AT_ONCE = 2;

const results = new Array<Promise<{ exitCode?: number; all?: string }>>(CHECKS.length);
let started = 0;
const startNext = (): Promise<unknown> | undefined => {
  const at = started++;
  const check = CHECKS[at];
  if (!check) return undefined;
  const [command, ...args] = check;
  const running = execa(command, args, { preferLocal: true, reject: false, all: true });
  results[at] = running;
  return running.then(() => startNext());
};
await Promise.all(Array.from({ length: AT_ONCE }, startNext));

let exitCode = 0;
for (const [at, check] of CHECKS.entries()) {
  const result = await results[at];
  process.stdout.write(`> ${check.join(' ')}\n${result?.all ? `${result.all}\n` : ''}`);
  if (result?.exitCode !== 0 && exitCode === 0) exitCode = result?.exitCode ?? 1;
}
process.exitCode = exitCode;
