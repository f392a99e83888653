/**
 * run_workflow through a real client: steps run as the tool calls they are, a value read in one step reaches a
 * later one, retry outlasts an element that appears late, a failing step stops the run (or is skipped), and one
 * call saves a mousepad document through File > Save As…, its name field and Enter.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';
import { eventually } from '../support/text.js';

const { macpilot, processes, start } = useMacpilot(inject('desktopEnv'));
const folder = mkdtempSync(join(tmpdir(), 'macpilot-workflow-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface WorkflowJson {
  success: boolean;
  steps_completed: number;
  steps_total: number;
  results: {
    step: number;
    tool: string;
    status: string;
    attempts: number;
    result?: Record<string, unknown>;
  }[];
  error?: string;
}

const run = async (args: Record<string, unknown>) => {
  const result = (await macpilot.client.callTool({
    name: 'run_workflow',
    arguments: args,
  })) as CallToolResult;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return {
    text,
    isError: result.isError === true,
    json: result.structuredContent as unknown as WorkflowJson,
  };
};

test('a value read in one step reaches a later step through {{step_N.field}}', async () => {
  const { json, text, isError } = await run({
    name: 'clipboard relay',
    steps: [
      { tool: 'set_clipboard', args: { text: 'relayed ✓' } },
      { tool: 'get_clipboard' },
      { tool: 'set_clipboard', args: { text: 'copy of {{step_1.text}}' } },
      { tool: 'get_clipboard' },
    ],
  });
  expect(isError, text).toBe(false);
  expect(json).toMatchObject({ success: true, steps_completed: 4, steps_total: 4 });
  expect(json.results[3]?.result?.text).toBe('copy of relayed ✓');
  expect(text).toMatch(/^Workflow "clipboard relay": 4 of 4 steps done/);
});

test('a missing field fails its step before it runs; skip goes on, abort stops', async () => {
  const skipped = await run({
    steps: [
      { tool: 'list_apps' },
      { tool: 'set_clipboard', args: { text: '{{step_0.nothing}}' }, on_fail: 'skip' },
      { tool: 'set_clipboard', args: { text: 'after the skip' } },
    ],
  });
  expect(skipped.json.results.map((r) => r.status)).toEqual(['ok', 'failed', 'ok']);
  expect(skipped.text).toContain('step_0 has no field "nothing" (it has: apps)');
  const aborted = await run({
    steps: [
      { tool: 'list_apps' },
      { tool: 'get_clipboard', args: { max_chars: '{{step_5.x}}' } },
      { tool: 'list_apps' },
    ],
  });
  expect(aborted.isError).toBe(true);
  expect(aborted.json).toMatchObject({ success: false, steps_completed: 1, steps_total: 3 });
  expect(aborted.json.error).toContain('step 5 does not come before step 1');
  const nested = await run({ steps: [{ tool: 'run_workflow', args: { steps: [] } }] });
  expect(nested.json.error).toContain('cannot be called from within another tool call');
});

test('a dry run checks every step as the call would (tool, arguments, references) and runs none', async () => {
  await macpilot.ok('set_clipboard', { text: 'before the dry run' });
  const planned = await run({
    name: 'plan',
    dry_run: true,
    steps: [
      { tool: 'get_clipboard' },
      // A reference stands for a value not known yet: its argument is not judged.
      { tool: 'get_clipboard', args: { max_chars: '{{step_0.length}}' } },
      { tool: 'set_clipboard', args: { text: 'written by a dry run' } },
    ],
  });
  expect(planned.isError, planned.text).toBe(false);
  expect(planned.json.results.map((r) => r.status)).toEqual(['planned', 'planned', 'planned']);
  expect(planned.text).toMatch(/^Workflow "plan" would run: 3 steps checked, none run/);
  // It ran nothing, so it quotes no app: no fence.
  expect(planned.text).not.toContain('app data');
  expect(await macpilot.ok('get_clipboard')).toMatch(/\nbefore the dry run$/);

  const refused = await run({
    dry_run: true,
    steps: [
      { tool: 'list_apps' },
      { tool: 'format_disk' },
      { tool: 'get_clipboard', args: { max_chars: 0, colour: 'red' } },
      { tool: 'set_clipboard', args: {} },
      { tool: 'get_clipboard', args: { max_chars: '{{step_4.length}}' } },
    ],
  });
  expect(refused.isError).toBe(true);
  expect(refused.json.results.map((r) => r.status)).toEqual([
    'planned',
    'failed',
    'failed',
    'failed',
    'failed',
  ]);
  expect(refused.text).toMatch(/^Workflow would not run: 4 of 5 steps must be fixed first/);
  expect(refused.text).toContain('1. format_disk: failed - format_disk is not a tool of this server');
  expect(refused.text).toMatch(
    /2\. get_clipboard: failed - invalid arguments for get_clipboard: max_chars: .*; arguments: .*colour/,
  );
  expect(refused.text).toMatch(/3\. set_clipboard: failed - invalid arguments for set_clipboard: text: /);
  expect(refused.text).toContain(
    '4. get_clipboard: failed - it refers to a step that does not come before it',
  );
});

test('retry outlasts an element that appears late', async () => {
  let started: ReturnType<typeof processes.start> | undefined;
  const later = setTimeout(() => {
    started = processes.start('zenity', ['--info', '--title', 'late dialog', '--text', 'Hello late']);
  }, 1500);
  try {
    const { json, text, isError } = await run({
      steps: [
        {
          tool: 'wait_for',
          args: { condition: 'appears', app: 'zenity', role: 'button', name: 'OK', timeout_ms: 300 },
          retry: 10,
          retry_delay_ms: 500,
        },
        { tool: 'click_element', args: { ref: '{{step_0.element.ref}}' } },
      ],
    });
    expect(isError, text).toBe(false);
    expect(json.results[0]?.attempts).toBeGreaterThan(1);
    expect(text).toMatch(/0\. wait_for: ok after \d+ tries/);
    expect(await started?.exited).toBe(0);
  } finally {
    clearTimeout(later);
  }
});

test('one run_workflow saves a mousepad document through File > Save As…, the name field and Enter', async () => {
  await start('mousepad', 'menu "File"');
  const file = join(folder, 'saved by a workflow.txt');
  const { json, text, isError } = await run({
    name: 'save as',
    steps: [
      { tool: 'get_focused_element', args: { app: 'mousepad' } },
      { tool: 'set_value', args: { ref: '{{step_0.element.ref}}', value: 'written by one workflow' } },
      { tool: 'click_menu_item', args: { app: 'mousepad', path: 'File > Save As…' } },
      { tool: 'get_focused_element', args: { app: 'mousepad' } },
      // set_value answers once the chooser has enabled its Save button: Enter may follow at once.
      { tool: 'set_value', args: { ref: '{{step_3.element.ref}}', value: file } },
      { tool: 'press_key', args: { key: 'enter' } },
    ],
  });
  expect(isError, text).toBe(false);
  expect(json).toMatchObject({ success: true, steps_completed: 6 });
  expect(json.results[3]?.result).toMatchObject({ found: true, element: { role: 'textbox', name: 'Name:' } });
  await eventually('the saved file', async () => (existsSync(file) ? true : undefined));
  expect(readFileSync(file, 'utf8')).toBe('written by one workflow');
});
