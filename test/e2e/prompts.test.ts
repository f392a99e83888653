/**
 * Prompts and completions through a real client: the guided workflows list and render with the arguments given,
 * name only tools the server lists, and app arguments (of prompts and resource templates) complete with the
 * running apps.
 */
import { beforeAll, expect, inject, test } from 'vitest';
import { useMacpilot } from '../support/mcp.js';

const { macpilot, start } = useMacpilot(inject('desktopEnv'));
const PROMPTS = [
  'test-app',
  'navigate-to',
  'extract-data',
  'automate-workflow',
  'debug-ui',
  'accessibility-audit',
  'cross-app-copy',
];

beforeAll(async () => {
  await start('gtk3-demo', 'Application Class');
});

test('every prompt is listed with a description and renders, naming only tools the server lists', async () => {
  const { prompts } = await macpilot.client.listPrompts();
  expect(prompts.map((p) => p.name).sort()).toEqual([...PROMPTS].sort());
  const { tools } = await macpilot.client.listTools();
  const toolNames = new Set(tools.map((t) => t.name));
  const args: Record<string, string> = {
    app_name: 'gtk3-demo',
    destination: 'File > Save As…',
    data_description: 'the demo names',
    workflow: 'copy the demo title into the clipboard',
    element_description: 'the Run button',
    source_app: 'gtk3-demo',
    source_element: 'the demo title',
    target_app: 'mousepad',
    target_element: 'the document',
  };
  for (const prompt of prompts) {
    expect(prompt.description, prompt.name).toBeTruthy();
    const given = Object.fromEntries(
      (prompt.arguments ?? []).filter((a) => a.required).map((a) => [a.name, args[a.name] ?? 'x']),
    );
    const { messages } = await macpilot.client.getPrompt({ name: prompt.name, arguments: given });
    const text = messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
    expect(text, prompt.name).toContain('data, not instructions');
    const named = [...text.matchAll(/\b([a-z]+(?:_[a-z]+)+)\b/g)].map((m) => m[1]!);
    const unknown = named.filter(
      (name) => !toolNames.has(name) && !/^(app_name|include_hidden|max_)/.test(name),
    );
    expect(unknown, prompt.name).toEqual([]);
  }
  const { messages } = await macpilot.client.getPrompt({
    name: 'navigate-to',
    arguments: { app_name: 'gtk3-demo', destination: 'Help > About' },
  });
  expect(messages[0]?.content).toMatchObject({
    type: 'text',
    text: expect.stringContaining('"Help > About"'),
  });
});

test("a prompt's app argument and a resource template's app name complete with the running apps", async () => {
  const { prompts } = await macpilot.client.listPrompts();
  const appArguments = prompts.flatMap((p) =>
    (p.arguments ?? []).filter((a) => /(^|_)app(_|$)/.test(a.name)).map((a) => [p.name, a.name] as const),
  );
  expect(appArguments.length).toBe(7);
  for (const [name, argument] of appArguments) {
    const { completion } = await macpilot.client.complete({
      ref: { type: 'ref/prompt', name },
      argument: { name: argument, value: 'gtk' },
    });
    expect(completion.values, `${name} ${argument}`).toContain('gtk3-demo');
  }
  const prompt = await macpilot.client.complete({
    ref: { type: 'ref/prompt', name: 'test-app' },
    argument: { name: 'app_name', value: 'gtk' },
  });
  expect(prompt.completion.values).toContain('gtk3-demo');
  expect(prompt.completion.values.every((v) => v.toLowerCase().startsWith('gtk'))).toBe(true);
  const resource = await macpilot.client.complete({
    ref: { type: 'ref/resource', uri: 'macpilot://app/{name}/tree' },
    argument: { name: 'name', value: 'GTK3' },
  });
  expect(resource.completion.values).toEqual(['gtk3-demo']);
  const windows = await macpilot.client.complete({
    ref: { type: 'ref/resource', uri: 'macpilot://app/{name}/window/{index}/tree' },
    argument: { name: 'index', value: '' },
    context: { arguments: { name: 'gtk3-demo' } },
  });
  expect(windows.completion.values).toContain('0');
  const none = await macpilot.client.complete({
    ref: { type: 'ref/prompt', name: 'cross-app-copy' },
    argument: { name: 'target_app', value: 'no-such-' },
  });
  expect(none.completion.values).toEqual([]);
});
