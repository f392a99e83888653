/** The helper's text recognizer (macOS: Vision): the image goes as base64 PNG, the lines come back as they are. */
import { expect, it } from 'vitest';
import type { HelperPort } from '../../../../src/engine/kernel/port.js';
import { helperRecognizer } from '../../../../src/engine/reading/text-recognizer.js';

it('sends the PNG to screen.recognizeText and answers its lines', async () => {
  const lines = [
    {
      text: 'OK',
      bounds: { x: 20, y: 10, width: 28, height: 20 },
      confidence: 1,
      words: [{ text: 'OK', bounds: { x: 20, y: 10, width: 28, height: 20 }, confidence: 1 }],
    },
  ];
  const sent: unknown[] = [];
  const port = {
    call: async (method: string, params: unknown) => {
      sent.push([method, params]);
      return { lines };
    },
  } as unknown as HelperPort;
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
  expect(await helperRecognizer(port).recognize(png)).toEqual(lines);
  expect(sent).toEqual([['screen.recognizeText', { data: png.toString('base64') }]]);
});
