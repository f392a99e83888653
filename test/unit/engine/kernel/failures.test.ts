import { describe, expect, it } from 'vitest';
import { explain, helperFailure } from '../../../../src/engine/kernel/failures.js';
import type { MacpilotError } from '../../../../src/errors.js';
import { ClientErrorCode, HelperError } from '../../../../src/helper-client/errors.js';
import { HelperErrorCode } from '../../../../src/helper-client/protocol.js';
import { createLogger } from '../../../../src/log.js';
import { failedAnswer } from '../../../../src/tools/errors.js';

const codes = [...Object.values(HelperErrorCode), ...Object.values(ClientErrorCode)];

describe('one error table', () => {
  it.each(codes)('code %i reads the same from the engine and from a tool, with its hint', (code) => {
    const error = new HelperError('ax.snapshot', code, 'it broke', { hint: 'try this' });
    const engine = explain(error, 'take a snapshot') as MacpilotError;
    const tool = failedAnswer(error, 'snapshot_ui', createLogger('silent')).result.content[0];
    expect(engine.what).toBe('Could not take a snapshot');
    // A cancel's message names the helper request it stopped: it is said in words instead.
    // A missing or refused capability: the helper's hint is the next step (it knows this desktop).
    const hintIsNext = code === HelperErrorCode.NotAvailable || code === HelperErrorCode.PermissionDenied;
    expect(engine.why).toContain(
      code === ClientErrorCode.Cancelled
        ? 'it was cancelled before it finished'
        : hintIsNext
          ? 'it broke'
          : 'it broke (try this)',
    );
    if (hintIsNext) expect(engine.next).toBe('try this');
    expect(engine.next).not.toBe('');
    expect(tool).toMatchObject({ type: 'text' });
    const text = (tool as { text: string }).text;
    expect(text).toContain(`Why: ${engine.why}`);
    expect(text).toContain(`Next: ${engine.next}`);
  });

  it('names what to do for the failures an agent can act on', () => {
    const next = (code: number, apps?: string) =>
      helperFailure(new HelperError('m', code, 'x'), undefined, apps).next;
    expect(next(HelperErrorCode.Timeout)).toContain('wait a few seconds and retry');
    expect(next(HelperErrorCode.PermissionDenied)).toContain(
      'System Settings > Privacy & Security > Accessibility',
    );
    expect(next(HelperErrorCode.NotAvailable)).toContain('check_permissions');
    expect(next(HelperErrorCode.AppNotFound, 'mousepad (pid 4)')).toBe('running apps: mousepad (pid 4)');
    expect(next(ClientErrorCode.HelperExited)).toContain('restarts by itself');
  });

  it("an app launch_app finds nowhere is not installed, not 'not running', with the helper's hint as the next step", () => {
    const launched = helperFailure(
      new HelperError('apps.launch', HelperErrorCode.AppNotFound, 'no installed app matches "nosuch"', {
        hint: 'check the name',
      }),
    );
    expect(launched.kind).toBe('app_not_installed');
    expect(launched.next).toBe('check the name');
    expect(helperFailure(new HelperError('apps.activate', HelperErrorCode.AppNotFound, 'gone')).kind).toBe(
      'app_not_running',
    );
  });

  it('a code outside the protocol keeps its message; anything else passes through', () => {
    const odd = explain(new HelperError('ax.perform', -1, 'strange')) as MacpilotError;
    expect(odd.what).toBe('ax.perform failed');
    expect(odd.why).toBe('strange');
    const bug = new TypeError('oops');
    expect(explain(bug)).toBe(bug);
  });
});
