/**
 * A watched session on the text editor, as a careful user runs one: safe mode with an audit log, a client that
 * asks its user. The screen captured at the display's full resolution (its scale: 2 on a Retina Mac), the text
 * typed read back by OCR (Vision on macOS, tesseract.js on Linux), typing cancelled by the client stops, and
 * quitting the app asks the user: declined, it runs on and the audit log says refused; allowed, it quits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { beforeAll, expect, test } from 'vitest';
import { gone } from '../../scripts/process-group.js';
import { useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually, refOf } from '../support/text.js';
import type { Desk } from './desk.js';

interface Display {
  id: string | number;
  bounds: { width: number; height: number };
  scale: number;
  primary?: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function sessionScenario(desk: Desk, env: Record<string, string>): void {
  const folder = temporaryFolder('macpilot-session-');
  const auditLog = join(folder, 'audit.jsonl');
  const { macpilot, launch } = useMacpilot(
    { ...env, MACPILOT_MODE: 'safe', MACPILOT_CONSENT: 'ask', MACPILOT_AUDIT_LOG: auditLog },
    [],
    { elicitation: {} },
  );
  let answer: ElicitResult = { action: 'decline' };
  const asked: string[] = [];
  let app: string;
  const documentRef = async () =>
    refOf(await macpilot.ok('find_elements', { app, role: 'textbox' }), /multiline/);
  const valueOf = async (ref: string) =>
    (
      (await macpilot.client.callTool({ name: 'get_element', arguments: { ref } })).structuredContent as {
        value?: string;
      }
    ).value ?? '';

  beforeAll(async () => {
    macpilot.client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return answer;
    });
    app = String(await launch(desk.editor.launch));
    await desk.editor.newDocument(macpilot, app);
  });

  test("a screenshot saved to a file has the primary display's full resolution: its size in points times its scale", async () => {
    const { displays } = (await macpilot.client.callTool({ name: 'list_displays', arguments: {} }))
      .structuredContent as { displays: Display[] };
    const primary = displays.find((display) => display.primary) ?? displays[0];
    expect(primary).toBeDefined();
    const file = join(folder, 'screen.png');
    await macpilot.ok('take_screenshot', { display: String(primary?.id), file_path: file });
    const { width, height } = await sharp(readFileSync(file)).metadata();
    expect(width).toBe(Math.round((primary?.bounds.width ?? 0) * (primary?.scale ?? 1)));
    expect(height).toBe(Math.round((primary?.bounds.height ?? 0) * (primary?.scale ?? 1)));
  });

  test('read_text reads back, by OCR, the text set in the editor', async () => {
    await macpilot.ok('set_value', { ref: await documentRef(), value: 'Scenario reading 4711' });
    await eventually('4711 read on the editor window', async () => {
      const read = await macpilot.call('read_text', { app });
      return !read.isError && read.text.includes('4711') ? true : undefined;
    });
  });

  test('typing cancelled by the client stops: nothing more arrives, less than asked was typed', async () => {
    const document = await documentRef();
    await macpilot.ok('set_value', { ref: document, value: '' });
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const stop = new AbortController();
    const typing = macpilot.client.callTool(
      { name: 'type_text', arguments: { ref: document, text, delay_ms: 200 } },
      CallToolResultSchema,
      { signal: stop.signal },
    );
    await pause(1200);
    stop.abort();
    await expect(typing).rejects.toThrow();
    const atCancel = await valueOf(document);
    await pause(1000);
    const later = await valueOf(document);
    expect(later).toBe(atCancel);
    expect(text.startsWith(later), later).toBe(true);
    expect(later.length).toBeGreaterThan(0);
    expect(later.length).toBeLessThan(text.length);
  });

  test('quitting asks the user: declined, the editor runs on and the audit log says refused; allowed, it quits', async () => {
    answer = { action: 'decline' };
    const declined = await macpilot.call('quit_app', { name: app, force: true });
    expect(declined.isError).toBe(true);
    expect(declined.text).toContain('The user did not allow');
    expect(asked.at(-1)).toMatch(/^An AI agent wants to /);
    expect(await gone(Number(app), 500)).toBe(false);
    const entries = readFileSync(auditLog, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tool: string; outcome: string });
    expect(entries.filter((entry) => entry.tool === 'quit_app').map((entry) => entry.outcome)).toEqual([
      'refused',
    ]);
    // Typed text is never in the log: only its length.
    expect(readFileSync(auditLog, 'utf8')).not.toContain('Scenario reading 4711');

    answer = { action: 'accept', content: { confirm: true } };
    await macpilot.ok('quit_app', { name: app, force: true });
    expect(await gone(Number(app), 30_000)).toBe(true);
  });
}
