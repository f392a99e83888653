/**
 * A watched session on the text editor, as a careful user runs one: safe mode with an audit log, a client that
 * asks its user. The screen captured at the display's full resolution (its scale: 2 on a Retina Mac), the text
 * typed read back by OCR (Vision on macOS, tesseract.js on Linux), typing cancelled by the client stops, and
 * quitting the app asks the user: declined, it runs on and the audit log says refused; allowed, it quits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { beforeAll, expect, test } from 'vitest';
import { gone } from '../../scripts/process-group.js';
import { useMacpilot } from '../support/mcp.js';
import { temporaryFolder } from '../support/temp.js';
import { eventually } from '../support/text.js';
import { pause, typeThenCancel } from '../support/typing.js';
import type { Desk } from './desk.js';
import { documentRef, textOf } from './document.js';

interface Display {
  id: string | number;
  bounds: { width: number; height: number };
  scale: number;
  primary?: boolean;
}

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
  const document = () => documentRef(macpilot, app);

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
    await macpilot.ok('set_value', { ref: await document(), value: 'Scenario reading 4711' });
    await eventually('4711 read on the editor window', async () => {
      const read = await macpilot.call('read_text', { app });
      return !read.isError && read.text.includes('4711') ? true : undefined;
    });
  });

  test('typing cancelled by the client stops: nothing more arrives, less than asked was typed', async () => {
    const editor = await document();
    await macpilot.ok('set_value', { ref: editor, value: '' });
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789';
    await typeThenCancel(macpilot, editor, text, 1200);
    const atCancel = (await textOf(macpilot, editor)) ?? '';
    await pause(1000);
    const later = (await textOf(macpilot, editor)) ?? '';
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
