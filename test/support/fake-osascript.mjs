#!/usr/bin/env node
// Stands in for osascript, osacompile, sw_vers, sysctl and pmset in unit tests on Linux. Reached through a symlink
// named after the command (test/support/fake-macos.ts makes them); the symlink's directory holds:
// - <command>.json, the answers, one per call in turn (the last repeats):
//   [{stdout?, stdoutFile?, stderr?, stderrFile?, exitCode?, sleepMs?, ignoreSigterm?, signalSelf?}]
// - calls.jsonl, where every call is appended as {command, argv, stdin, outputDirMode}.
import { Buffer } from 'node:buffer';
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const command = basename(process.argv[1]);
const dir = dirname(process.argv[1]);
const planFile = join(dir, `${command}.json`);
const plans = existsSync(planFile) ? JSON.parse(readFileSync(planFile, 'utf8')) : [{}];
// Several answers are given in turn, the last one repeating: <command>.count says how many calls came before.
const countFile = join(dir, `${command}.count`);
const count = existsSync(countFile) ? Number(readFileSync(countFile, 'utf8')) : 0;
writeFileSync(countFile, String(count + 1));
const plan = plans[Math.min(count, plans.length - 1)];

const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const stdin = Buffer.concat(chunks).toString('utf8');
  const argv = process.argv.slice(2);
  // osacompile's -o file: the mode of the directory it is written into
  const output = argv[argv.indexOf('-o') + 1];
  const outputDirMode = argv.includes('-o') && output ? statSync(dirname(output)).mode & 0o777 : undefined;
  appendFileSync(join(dir, 'calls.jsonl'), `${JSON.stringify({ command, argv, stdin, outputDirMode })}\n`);
  if (plan.ignoreSigterm) process.on('SIGTERM', () => {});
  if (plan.signalSelf) process.kill(process.pid, plan.signalSelf);
  const answer = () => {
    process.stdout.write(plan.stdoutFile ? readFileSync(plan.stdoutFile, 'utf8') : (plan.stdout ?? ''));
    process.stderr.write(plan.stderrFile ? readFileSync(plan.stderrFile, 'utf8') : (plan.stderr ?? ''));
    process.exitCode = plan.exitCode ?? 0;
  };
  if (plan.sleepMs) setTimeout(answer, plan.sleepMs);
  else answer();
});
