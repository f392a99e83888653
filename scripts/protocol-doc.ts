/** Writes docs/protocol.md from src/helper-client/protocol.ts. */
import { writeFileSync } from 'node:fs';
import { renderProtocolDoc } from '../src/helper-client/protocol-doc.js';

writeFileSync(new URL('../docs/protocol.md', import.meta.url), renderProtocolDoc());
