/**
 * The screen toolset: screenshots (scaled for models, optionally with refs drawn on them), the displays, and the
 * text on screen read by OCR (read_text, find_text, click_text).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { screenshotJson, ScreenshotJson, structured } from '../engine/render/json.js';
import { renderText } from '../engine/render/text.js';
import { TEXT_DEFAULTS } from '../engine/features/screen-text.js';
import { appParam, captureArea, oneCaptureArea } from './params.js';
import { reply } from './reply.js';
import { defineTool, toolsetTools, READ_ONLY, WRITE } from './types.js';

const OCR_NOTE =
  'Text is read by OCR (on Linux tesseract.js in the server, on macOS Vision), for what the accessibility tree ' +
  'does not show (canvases, images, remote desktops); prefer snapshot_ui and find_elements where the tree has it.';

const textParams = {
  text: z
    .string()
    .min(1)
    .max(500)
    .refine((text) => text.trim() !== '', 'the text must have a character other than spaces')
    .describe('The text to look for, as shown on screen.'),
  app: appParam
    .optional()
    .describe("Look in this app's front-most window; default: the whole primary display."),
  match: z
    .enum(['words', 'exact', 'contains'])
    .optional()
    .describe(
      'words (default): whole words in a row, case-insensitive, ignoring punctuation around them (a dot or ' +
        'dash inside one parts it: "report2" finds "report2.txt"); exact: a whole line; contains: any part of a line.',
    ),
  occurrence: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe('Which match, 1-based in reading order (top to bottom, left to right), when several match.'),
};

export const screenTools = toolsetTools('screen', [
  defineTool({
    name: 'take_screenshot',
    title: 'Take a screenshot',
    description:
      'An image of the screen: the primary display by default, or one display, a region (screen points), or an ' +
      "app's window (its front-most one, or one picked by title, index or window id). Scaled so the long edge " +
      'is at most max_width pixels (default 1568); the text part states the scale and how image pixels map back ' +
      'to screen points, for click {x, y}. annotate: true draws the refs of the visible named or interactive ' +
      'elements of the captured app (or the active app) and lists them: use those refs with the ui tools. Prefer ' +
      'snapshot_ui to read a UI; use a screenshot for what the tree does not show. file_path saves the image ' +
      'to a new file instead of returning it (full resolution unless max_width is given; never overwrites; ' +
      'refused in read-only mode). include_text: true adds the text read on it (OCR) with boxes in screen points.',
    input: z
      .object({
        ...captureArea,
        format: z.enum(['png', 'jpeg']).optional().describe('Default png (or the file extension).'),
        quality: z.number().int().min(1).max(100).optional().describe('JPEG quality, default 80.'),
        max_width: z
          .number()
          .int()
          .min(16)
          .max(16_384)
          .optional()
          .describe('Longest edge of the image in pixels; default 1568.'),
        annotate: z.boolean().optional().describe('Draw element refs (boxes and "e12" labels) on the image.'),
        file_path: z
          .string()
          .min(2)
          .max(4096)
          .optional()
          .describe(
            'Absolute path of a new .png / .jpg file to write instead of returning the image (readable by its owner only).',
          ),
        include_text: z
          .boolean()
          .optional()
          .describe('Also read the text on the captured area (OCR, as read_text does) and list its lines.'),
        black_out_hidden: z
          .boolean()
          .optional()
          .describe(
            "Paint black the windows of apps the person's app lists hide; default true in safe and read-only mode.",
          ),
      })
      .refine(...oneCaptureArea),
    output: { schema: ScreenshotJson },
    // Read-only unless file_path is given: read-only mode then refuses the call.
    annotations: READ_ONLY,
    writesWith: { file_path: 'writes the image to a new file' },
    handle: async (args, { engine, signal }): Promise<CallToolResult> => {
      const shot = await engine.screen.take(
        {
          app: args.app,
          window: args.window,
          display: args.display,
          region: args.region,
          format: args.format,
          quality: args.quality,
          maxWidth: args.max_width,
          annotate: args.annotate,
          filePath: args.file_path,
          blackOutHidden: args.black_out_hidden,
        },
        { signal },
      );
      const text = { type: 'text' as const, text: shot.text };
      const content: CallToolResult['content'] = shot.image
        ? [{ type: 'image', ...shot.image }, text]
        : [text];
      if (args.include_text) {
        const { app, window, display, region } = args;
        const read = await engine.text.read({ app, window, display, region }, TEXT_DEFAULTS.minConfidence, {
          signal,
        });
        content.push({ type: 'text', text: renderText(read) });
      }
      return { content, structuredContent: screenshotJson(shot.facts) };
    },
  }),
  defineTool({
    name: 'find_visual',
    title: 'Find an element by looking',
    description:
      "For what the accessibility tree does not name (an icon, a canvas, a badly labelled control): the app's " +
      "window (default: the screen, with the active app's refs) is captured with refs drawn on it, and the client's own model " +
      '(MCP sampling; macpilot holds no API key) picks the ref that fits the description, or a point in screen ' +
      'points when no drawn element does, with its confidence. If the client offers no model, the annotated ' +
      'screenshot comes back for you to look at. Try find_elements first: it is faster and exact.',
    input: z.object({
      description: z
        .string()
        .min(1)
        .max(500)
        .describe('What to find, in words: "the gear icon at the top right", "the blue Submit button".'),
      app: appParam.optional().describe("Look at this app's window (default: the active app)."),
    }),
    output: structured.visual,
    annotations: { ...READ_ONLY, idempotentHint: false },
    handle: async (args, { engine, model, signal }): Promise<CallToolResult> => {
      const result = await engine.visual.find({ description: args.description, app: args.app }, model, {
        signal,
      });
      const answer = reply(result, structured.visual);
      // Without a model the agent looks itself: the annotated image first, then what it shows.
      return result.image
        ? { ...answer, content: [{ type: 'image', ...result.image }, ...answer.content] }
        : answer;
    },
  }),
  defineTool({
    name: 'read_text',
    title: 'Read the text on screen',
    description:
      'The text on the screen (the primary display by default), a display, a region (screen points) or an ' +
      "app's window, as lines top to bottom, each with its box in screen points and a confidence from 0 to 1, " +
      'and its words with theirs: click a word at the centre of its box (click {x, y}), or use click_text. ' +
      OCR_NOTE,
    input: z
      .object({
        ...captureArea,
        min_confidence: z
          .number()
          .min(0)
          .max(1)
          .optional()
          .describe(`Leave out lines read with less confidence; default ${TEXT_DEFAULTS.minConfidence}.`),
      })
      .refine(...oneCaptureArea),
    output: structured.text,
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) =>
      engine.text.read(
        { app: args.app, window: args.window, display: args.display, region: args.region },
        args.min_confidence ?? TEXT_DEFAULTS.minConfidence,
        { signal },
      ),
  }),
  defineTool({
    name: 'find_text',
    title: 'Find text on screen',
    description:
      'Where a text is on screen (OCR): its box in screen points and the centre click_text would click. When ' +
      'it appears more than once the call is refused with the candidates listed: pick one with occurrence. ' +
      OCR_NOTE,
    input: z.object(textParams),
    output: structured.textMatch,
    annotations: READ_ONLY,
    handle: (args, { engine, signal }) => engine.text.find(args, { signal }),
  }),
  defineTool({
    name: 'click_text',
    title: 'Click text on screen',
    description:
      'Click at the centre of a text read on screen (OCR): a button or link drawn without an accessibility ' +
      'element. When it appears more than once the call is refused with the candidates listed: pick one with ' +
      `occurrence. Returns what changed in the app there. ${OCR_NOTE}`,
    input: z.object({
      ...textParams,
      button: z.enum(['left', 'right', 'middle']).optional().describe('Default left.'),
      count: z.number().int().min(1).max(3).optional().describe('Clicks in a row; default 1.'),
    }),
    output: structured.action,
    annotations: WRITE,
    handle: (args, { engine, signal }) =>
      engine.text.click(
        { text: args.text, app: args.app, match: args.match, occurrence: args.occurrence },
        { button: args.button, count: args.count },
        { signal },
      ),
  }),
  defineTool({
    name: 'list_displays',
    title: 'List displays',
    description:
      'The displays: id, bounds in screen points (origin at the top left of the primary display), scale ' +
      '(pixels per point) and which is primary. Use an id with take_screenshot display.',
    input: z.object({}),
    output: structured.displays,
    annotations: READ_ONLY,
    handle: (_args, { engine, signal }) => engine.screen.listDisplays({ signal }),
  }),
]);
