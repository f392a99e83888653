import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import {
  firstSyntaxError,
  helperRoot,
  locate,
  parseSwift,
  parseSwiftSource,
  repoRoot,
  swiftFilesUnder,
} from '../../support/swift-syntax.js';

const sources = [join(repoRoot, 'Package.swift'), ...swiftFilesUnder(helperRoot)];

/** Where the file stops parsing and the text there, or null. */
function syntaxProblem(path: string, source?: string): string | null {
  const file = source === undefined ? parseSwift(path) : parseSwiftSource(source, path);
  const error = firstSyntaxError(file);
  if (!error) return null;
  const what = error.isMissing
    ? `missing ${error.type}`
    : `cannot parse ${JSON.stringify(error.text.slice(0, 120))}`;
  return `${locate(file, error)}: ${what}`;
}

test('the Swift package has its manifest, its entry point and its tests', () => {
  const names = sources.map((path) => relative(repoRoot, path));
  expect(names).toEqual(
    expect.arrayContaining([
      'Package.swift',
      'helper-swift/Sources/macpilot-helper/main.swift',
      'helper-swift/Sources/HelperCore/Dispatcher.swift',
      'helper-swift/Sources/HelperMac/Register.swift',
      expect.stringMatching(/^helper-swift\/Tests\/HelperCoreTests\/.+\.swift$/),
    ]),
  );
});

test.each(sources.map((path) => [relative(repoRoot, path), path]))('%s parses as Swift', (_, path) => {
  expect(syntaxProblem(path)).toBeNull();
});

test('a file that does not parse is reported with the line where it stops', () => {
  const broken = 'import Foundation\n\nfunc ok() {}\nfunc broken( {\n  let x = \n}\n';
  expect(syntaxProblem('Broken.swift', broken)).toMatch(/^Broken\.swift:4:\d+: /);
});
