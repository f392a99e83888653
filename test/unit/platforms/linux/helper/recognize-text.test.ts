/**
 * screen.recognizeText is not the Linux helper's: on Linux the server reads text itself (tesseract.js), and the
 * helper says so. (Not a contract test: the replay fixture needs a result for each method those call.)
 */
import { expect, it } from 'vitest';
import { HelperErrorCode } from '../../../../../src/helper-client/protocol.js';
import { HelperFailure } from '../../../../../src/platforms/linux/errors.js';
import { handlers } from '../../../../../src/platforms/linux/helper/dispatch.js';
import type { Session } from '../../../../../src/platforms/linux/helper/session.js';

it('answers NotAvailable, saying that the server reads text on Linux and pointing to read_text', async () => {
  const answer = handlers['screen.recognizeText'](
    {} as Session,
    { data: 'iVBORw0KGgo=' },
    new AbortController().signal,
  );
  const error = await answer.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HelperFailure);
  expect(error).toMatchObject({ code: HelperErrorCode.NotAvailable });
  expect((error as HelperFailure).message).toMatch(/server does \(tesseract\.js\)/);
  expect((error as HelperFailure).hint).toMatch(/read_text/);
});
