/**
 * The scenarios the macOS suite runs too (test/scenarios), here with the Linux desktop's apps: one task, two
 * platforms, held to the same result.
 */
import { describe, inject } from 'vitest';
import { calculatorScenario } from '../scenarios/calculator.js';
import { editorScenario } from '../scenarios/editor.js';
import { sessionScenario } from '../scenarios/session.js';
import { linuxDesk } from '../scenarios/linux-desk.js';

const env = inject('desktopEnv');

describe('a text editor: mousepad', () => editorScenario(linuxDesk, env));
describe('a calculator: gnome-calculator', () => calculatorScenario(linuxDesk, env));
describe('a watched session in safe mode: mousepad', () => sessionScenario(linuxDesk, env));
