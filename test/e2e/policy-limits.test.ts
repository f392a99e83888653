/** Rate limits and the audit log (issue 5) through a real MCP client against the Linux helper. */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { useMacpilot } from '../support/mcp.js';
import { eventually, refOf } from '../support/text.js';
import { temporaryFolder } from '../support/temp.js';
import { windowOfPid } from '../support/xwindows.js';

const desktopEnv = inject('desktopEnv');

describe('rate limits', () => {
  const { macpilot } = useMacpilot({ ...desktopEnv, MACPILOT_RATE_LIMITS: 'calls_per_second=2' });

  test('calls over the limit are refused with a retry-after hint; after the wait a call succeeds', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => macpilot.call('session_info')));
    const refused = results.filter((r) => r.isError);
    expect(results.filter((r) => !r.isError).length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(4);
    const hint = /rate limit of 2 calls per second reached; retry after (\d+) ms/.exec(
      refused[0]?.text ?? '',
    );
    expect(hint, refused[0]?.text).not.toBeNull();
    expect(refused[0]?.text).toContain('MACPILOT_RATE_LIMITS');
    const retryAfterMs = Number(hint?.[1]);
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(1000);

    await new Promise((resolve) => setTimeout(resolve, retryAfterMs + 50));
    expect(await macpilot.ok('session_info')).toContain('macpilot');
  });
});

describe('audit log', () => {
  const auditFile = join(temporaryFolder('macpilot-audit-e2e-'), 'logs', 'audit.jsonl');
  const { macpilot, processes } = useMacpilot({ ...desktopEnv, MACPILOT_AUDIT_LOG: auditFile });
  const messages: { logger?: string; data: unknown }[] = [];
  macpilot.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    messages.push(notification.params);
  });

  test('set_value and type_text are logged with tool, app and target, the lengths but never the text', async () => {
    await macpilot.client.setLoggingLevel('info');
    const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot audit', '--text', 'Secret?']);
    const app = String(zenity.pid);
    const field = await eventually('the zenity entry', async () => {
      const out = await macpilot.call('find_elements', { app, role: 'textbox' });
      return out.isError ? undefined : refOf(out.text, /textbox/);
    });

    const setSecret = 'set-secret swordfish 7791';
    const typedSecret = 'typed-secret opensesame 4412';
    await macpilot.ok('set_value', { ref: field, value: setSecret });
    await macpilot.ok('type_text', { ref: field, text: typedSecret });

    const content = readFileSync(auditFile, 'utf8');
    expect(content).not.toContain('swordfish');
    expect(content).not.toContain('opensesame');
    const entries = content
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // find_elements is read-only: only the two write actions are logged
    expect(entries.map((e) => e.tool)).toEqual(['set_value', 'type_text']);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        app: 'zenity',
        target: { role: 'textbox' },
        outcome: 'ok',
        flags: { mode: 'full' },
      });
      expect(Date.parse(String(entry.time))).not.toBeNaN();
    }
    expect(entries[0]?.value_length).toBe(setSecret.length);
    expect(entries[1]?.text_length).toBe(typedSecret.length);
    expect(statSync(auditFile).mode & 0o777).toBe(0o600);

    const audit = await eventually('the audit log messages', async () => {
      const seen = messages.filter((m) => m.logger === 'audit');
      return seen.length >= 2 ? seen : undefined;
    });
    expect(audit.map((m) => m.data)).toEqual(entries);
    expect(JSON.stringify(messages)).not.toMatch(/swordfish|opensesame/);
  });

  test("a value set into a combo box, which GTK takes for the box's name, is not logged as its name", async () => {
    const zenity = processes.start('zenity', [
      '--forms',
      '--text',
      'Audit',
      '--add-combo',
      'Colour',
      '--combo-values',
      'Amber|Violet',
    ]);
    const app = String(zenity.pid);
    const combo = await eventually('the combo box', async () => {
      const out = await macpilot.call('find_elements', { app, role: 'combobox' });
      return out.isError ? undefined : refOf(out.text, /combobox/);
    });
    await macpilot.ok('set_value', { ref: combo, value: 'Violet' });
    // The box shows it: its name is the item now.
    expect(await macpilot.ok('find_elements', { app, role: 'combobox' })).toContain('combobox "Violet"');
    const line = auditLines(auditFile).at(-1);
    expect(line).toMatchObject({ tool: 'set_value', app: 'zenity', value_length: 6 });
    expect(JSON.stringify(line)).not.toContain('Violet');
    const ok = refOf(await macpilot.ok('find_elements', { app, role: 'button', name: 'OK' }), /"OK"/);
    await macpilot.ok('click_element', { ref: ok });
    expect(await zenity.exited).toBe(0);
    expect(zenity.stdout()).toBe('Violet\n');
  });

  test('a release of a key or button not held is logged as one that sent nothing', async () => {
    expect(await macpilot.ok('key_up', { key: 'escape' })).toContain('nothing was sent');
    expect(await macpilot.ok('mouse_up', {})).toContain('nothing was sent');
    expect(auditLines(auditFile).slice(-2)).toEqual([
      expect.objectContaining({ tool: 'key_up', outcome: 'ok', flags: { mode: 'full', nothing_sent: true } }),
      expect.objectContaining({
        tool: 'mouse_up',
        outcome: 'ok',
        flags: { mode: 'full', nothing_sent: true },
      }),
    ]);
  });
});

/** The audit file's lines, parsed. */
const auditLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('audit log of refusals', () => {
  const auditFile = join(temporaryFolder('macpilot-audit-refused-'), 'audit.jsonl');
  const { macpilot } = useMacpilot({
    ...desktopEnv,
    MACPILOT_AUDIT_LOG: auditFile,
    MACPILOT_MODE: 'read-only',
  });

  test('calls refused by the mode are "refused", by kind; a one-letter and a common-word secret leave no trace', async () => {
    // Read-only mode lists no write tool; called by name anyway, each is refused before it runs.
    for (const [name, args] of [
      ['press_key', { key: 'a' }],
      ['type_text', { text: 'on' }],
      // Arguments that do not fit a tool the mode leaves out: the mode's refusal is the answer all the same.
      ['type_text', { text: 'on', at_once: 'yes' }],
    ] as const) {
      const refused = await macpilot.call(name, args);
      expect(refused.isError, refused.text).toBe(true);
    }
    const lines = auditLines(auditFile);
    expect(lines.map(({ tool, outcome, error }) => ({ tool, outcome, error }))).toEqual([
      { tool: 'press_key', outcome: 'refused', error: 'not_in_mode' },
      { tool: 'type_text', outcome: 'refused', error: 'not_in_mode' },
      { tool: 'type_text', outcome: 'refused', error: 'not_in_mode' },
    ]);
    expect(lines[0]?.key_length).toBe(1);
    expect(lines[1]?.text_length).toBe(2);
    expect(lines[2]?.text_length).toBe(2);
    for (const line of lines) {
      // Nothing quoted or masked: a sentence with every "a" (or "on") replaced shows what was typed.
      expect(JSON.stringify(line)).not.toMatch(/"a"|"on"|\[key\]|\[text\]|not available/);
      expect(String(line.error)).toMatch(/^[a-z_]+$/);
    }
  });
});

describe('audit log of a refused consent', () => {
  const auditFile = join(temporaryFolder('macpilot-audit-consent-'), 'audit.jsonl');
  // No human to ask (the client offers no elicitation): a call that needs consent is refused.
  const { macpilot, processes } = useMacpilot({
    ...desktopEnv,
    MACPILOT_AUDIT_LOG: auditFile,
    MACPILOT_CONSENT: 'ask',
  });

  test("close_window by its window id names the window's app in the refusal's line", async () => {
    const dialog = processes.start('zenity', ['--info', '--title', 'consent audit', '--text', 'keep me']);
    const listed = await eventually('the zenity window', async () => {
      const out = await macpilot.ok('list_windows', { app: String(dialog.pid) });
      return /- window (\d+) "consent audit"/.exec(out)?.[1];
    });
    const refused = await macpilot.call('close_window', { window_id: listed });
    expect(refused.isError).toBe(true);
    expect(auditLines(auditFile).at(-1)).toMatchObject({
      tool: 'close_window',
      outcome: 'refused',
      error: 'consent_unreachable',
      app: 'zenity',
    });
    await processes.stop(dialog.pid);
  });
});

describe('audit log of the app list', () => {
  const auditFile = join(temporaryFolder('macpilot-audit-apps-'), 'audit.jsonl');
  const { macpilot, processes } = useMacpilot({
    ...desktopEnv,
    MACPILOT_AUDIT_LOG: auditFile,
    MACPILOT_DENY_APPS: 'zenity',
  });

  test('an action on a denied app is logged as refused, by kind', async () => {
    const zenity = processes.start('zenity', ['--entry', '--title', 'macpilot deny', '--text', 'Secret?']);
    const refused = await eventually('the refusal', async () => {
      const out = await macpilot.call('type_text', { path: 'app("zenity")/dialog/textbox', text: 'on' });
      return out.isError && out.text.includes('hidden; only the person can change that') ? out : undefined;
    });
    // To the agent, the denied app is not there.
    expect(refused.text).toMatch(/^No running app matches "zenity"/);
    // Typed where the focus is, which is in the denied app: refused without naming it.
    const focused = await macpilot.call('type_text', { text: 'on' });
    expect(focused.text).toMatch(/^Not done: what it would read or act on is in an app hidden from you/);
    expect(focused.text).not.toContain('zenity');
    const last = auditLines(auditFile).at(-1);
    expect(last).toMatchObject({
      tool: 'type_text',
      outcome: 'refused',
      error: 'app_off_limits',
      text_length: 2,
    });
    // A window named by its app: to the agent, no window matches; to the person, a refusal.
    const closed = await macpilot.call('close_window', { app: 'zenity' });
    expect(closed.text).toMatch(/^No window matches: the window of "zenity"/);
    expect(closed.text).toContain(
      "1 window is hidden by the person's app lists; only the person can change that",
    );
    expect(auditLines(auditFile).at(-1)).toMatchObject({
      tool: 'close_window',
      outcome: 'refused',
      error: 'app_off_limits',
      app: 'zenity',
    });
    // Named with a title none of its windows has: a try at the app all the same.
    const titled = await macpilot.call('focus_window', { app: 'zenity', title: 'no such title' });
    expect(titled.text).toMatch(/^No window matches: the window of "zenity" titled "no such title"/);
    expect(auditLines(auditFile).at(-1)).toMatchObject({
      tool: 'focus_window',
      outcome: 'refused',
      error: 'app_off_limits',
    });
    // By its window id (the person's, say): to the agent no window has it, and it learns one is hidden.
    const id = (await eventually('its window', async () => windowOfPid(desktopEnv, zenity.pid))).id;
    const byId = await macpilot.call('close_window', { window_id: id });
    expect(byId.text).toMatch(new RegExp(`^No window has the id "${id}"`));
    expect(byId.text).toContain(
      "1 window is hidden by the person's app lists; only the person can change that",
    );
  });

  test('failures name their kind and the arguments they are about: a point off every display, a window no title or id names', async () => {
    for (const [tool, args, error, about] of [
      ['click', { x: 99_999, y: 10 }, 'point_off_screen', ['x', 'y']],
      // Saved to a file, a screenshot is a write, and logged.
      [
        'take_screenshot',
        { window: 'no such window title', file_path: join(dirname(auditFile), 'never.png') },
        'window_not_found',
        ['window'],
      ],
      ['focus_window', { window_id: '12345' }, 'window_not_found', ['window_id']],
      ['focus_window', { title: 'no such window title' }, 'window_not_found', ['title']],
      // An argument the tool does not take is the agent's own text: the log does not keep its name.
      ['set_clipboard', { text: 'x', swordfish: 'x' }, 'invalid_arguments', ['(unknown)']],
    ] as const) {
      expect((await macpilot.call(tool, args)).isError, tool).toBe(true);
      expect(auditLines(auditFile).at(-1), tool).toMatchObject({ tool, error, error_arguments: about });
    }
    expect(readFileSync(auditFile, 'utf8')).not.toContain('swordfish');
    // An app named in an argument the tool does not take is no app the call was about: no pid is logged.
    expect((await macpilot.call('type_text', { text: 'x', app: '4242' })).isError).toBe(true);
    const line = auditLines(auditFile).at(-1);
    expect(line).toMatchObject({ tool: 'type_text', error: 'invalid_arguments' });
    expect(line).not.toHaveProperty('pid');
  });

  test('a workflow stopped by a refused step says which step, and how it ended, on its own line', async () => {
    const stopped = await macpilot.call('run_workflow', {
      steps: [
        { tool: 'set_clipboard', args: { text: 'step zero' } },
        { tool: 'type_text', args: { path: 'app("zenity")/dialog/textbox', text: 'on' } },
      ],
    });
    expect(stopped.isError).toBe(true);
    const [step, workflow] = auditLines(auditFile).slice(-2);
    expect(step).toMatchObject({ tool: 'type_text', outcome: 'refused', error: 'app_off_limits' });
    expect(workflow).toMatchObject({
      tool: 'run_workflow',
      outcome: 'failed',
      error: 'answered_error',
      flags: {
        stopped_at_step: '1',
        step_tool: 'type_text',
        step_outcome: 'refused',
        step_error: 'app_off_limits',
      },
    });
    // A step of a toolset the server leaves out is refused as a call by name is, naming the setting, on its own
    // line; a step naming no tool is logged without that name, the agent's own text.
    const leftOut = await macpilot.call('run_workflow', { steps: [{ tool: 'get_system_info', args: {} }] });
    expect(leftOut.text).toContain('MACPILOT_TOOLSETS');
    const [leftOutStep, leftOutWorkflow] = auditLines(auditFile).slice(-2);
    expect(leftOutStep).toMatchObject({
      tool: 'get_system_info',
      outcome: 'refused',
      error: 'toolset_left_out',
    });
    expect(leftOutWorkflow).toMatchObject({
      flags: { step_outcome: 'refused', step_error: 'toolset_left_out' },
    });
    await macpilot.call('run_workflow', { steps: [{ tool: 'swordfish_tool', args: {} }] });
    expect(auditLines(auditFile).at(-1)).toMatchObject({
      tool: 'run_workflow',
      flags: { step_tool: '(unknown)', step_outcome: 'failed', step_error: 'unknown_tool' },
    });
    expect(readFileSync(auditFile, 'utf8')).not.toContain('swordfish');
    // A dry run is told from a run.
    await macpilot.ok('run_workflow', { dry_run: true, steps: [{ tool: 'list_apps' }] });
    expect(auditLines(auditFile).at(-1)).toMatchObject({
      tool: 'run_workflow',
      outcome: 'ok',
      flags: { dry_run: 'true' },
    });
  });
});
