/**
 * The scenarios Linux runs with its own apps (test/scenarios), here with TextEdit and Calculator through the MCP
 * server and the real helper (`npm run test:macos` builds it and sets MACPILOT_HELPER_PATH; the server it starts
 * inherits it). They need Accessibility and Post Event granted to the helper: without them they fail, never skip.
 */
import { describe } from 'vitest';
import { calculatorScenario } from '../scenarios/calculator.js';
import { editorScenario } from '../scenarios/editor.js';
import { sessionScenario } from '../scenarios/session.js';
import { macosDesk } from '../scenarios/macos-desk.js';

const env = Object.fromEntries(
  Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
);
if (!env.MACPILOT_HELPER_PATH) {
  throw new Error('set MACPILOT_HELPER_PATH to the built helper (npm run test:macos does)');
}

describe('a text editor: TextEdit', () => editorScenario(macosDesk, env));
describe('a calculator: Calculator', () => calculatorScenario(macosDesk, env));
describe('a watched session in safe mode: TextEdit', () => sessionScenario(macosDesk, env));
