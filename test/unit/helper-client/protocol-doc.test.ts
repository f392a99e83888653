import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { methodNames } from '../../../src/helper-client/protocol.js';
import { renderProtocolDoc } from '../../../src/helper-client/protocol-doc.js';

const doc = readFileSync(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');

test('docs/protocol.md is what protocol.ts generates (run `npm run docs:protocol` after changing the protocol)', () => {
  expect(doc).toBe(renderProtocolDoc());
});

test('docs/protocol.md has a row for every method', () => {
  const methodsSection = doc.slice(doc.indexOf('## Methods'), doc.indexOf('## Notifications'));
  const documented = [...methodsSection.matchAll(/^\| `([a-z]+\.[A-Za-z]+)` \|/gm)].map((m) => m[1]);
  expect(documented).toEqual(methodNames);
});
