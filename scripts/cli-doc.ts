/** Writes docs/cli.md from the command table (src/cli/commands.ts). */
import { writeFileSync } from 'node:fs';
import { markdownReference } from '../src/cli/help.js';

writeFileSync(new URL('../docs/cli.md', import.meta.url), markdownReference());
