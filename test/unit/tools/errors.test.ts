import { describe, expect, it } from 'vitest';
import { MacpilotError } from '../../../src/errors.js';
import { createLogger } from '../../../src/log.js';
import { failedAnswer } from '../../../src/tools/errors.js';

const text = (answer: ReturnType<typeof failedAnswer>) =>
  answer.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

describe('a failed call', () => {
  const failure = new MacpilotError({
    what: 'No running app matches "nosuchapp"',
    why: 'the running apps are mousepad',
    next: 'name one of the running apps, or launch_app it first; or use type_text',
  });
  const log = createLogger('error', () => {});
  const all = ['snapshot_ui', 'launch_app', 'type_text'];

  it('says which tools its advice names that the session does not offer', () => {
    const answer = failedAnswer(failure, 'snapshot_ui', log, { listed: ['snapshot_ui'], all });
    expect(text(answer)).toMatch(
      /\n\(launch_app and type_text are not among this server's tools: their toolsets are left out of MACPILOT_TOOLSETS, or the mode hides them\.\)$/,
    );
    const offered = failedAnswer(failure, 'snapshot_ui', log, { listed: all, all });
    expect(text(offered)).toBe(failure.render());
  });
});
