/**
 * The Swift helper's sources as tree-sitter-swift syntax trees, for the checks Linux can make without a Swift
 * compiler: does every file parse, and which string literals are passed to `.on(` and `.notify(`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Parser from 'tree-sitter';
import Swift from 'tree-sitter-swift';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const helperRoot = join(repoRoot, 'helper-swift');

export interface SwiftFile {
  /** Relative to the repository root. */
  path: string;
  tree: Parser.Tree;
}

/** Where something is, as `path:line:column` (1-based). */
export type Location = string;

const parser = new Parser();
// tree-sitter-swift's typings describe its inner language object as `unknown`; it is the one Parser expects.
parser.setLanguage(Swift as unknown as Parser.Language);

export function parseSwift(path: string): SwiftFile {
  return parseSwiftSource(readFileSync(path, 'utf8'), relative(repoRoot, path));
}

/** `path` only names the source in locations. */
export function parseSwiftSource(source: string, path: string): SwiftFile {
  // The default buffer (32 KiB) refuses bigger files.
  return {
    path,
    tree: parser.parse(source, undefined, { bufferSize: Buffer.byteLength(source) * 2 + 1024 }),
  };
}

/** Every .swift file under `dir`, sorted. */
export function swiftFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.swift'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

export function locate(file: SwiftFile, node: Parser.SyntaxNode): Location {
  return `${file.path}:${node.startPosition.row + 1}:${node.startPosition.column + 1}`;
}

/** The first node that did not parse (an ERROR node or a missing token), or null when the file parses. */
export function firstSyntaxError(file: SwiftFile): Parser.SyntaxNode | null {
  let node = file.tree.rootNode;
  if (!node.hasError) return null;
  for (;;) {
    if (node.isError || node.isMissing) return node;
    const next = node.children.find((child) => child.hasError || child.isMissing);
    if (!next) return node;
    node = next;
  }
}

export interface LiteralCall {
  /** A plain string literal's text, or `Name.self` as written, or null when the first argument is neither. */
  literal: string | null;
  at: Location;
}

/**
 * Calls of `x.name(...)` or `name(...)` whose first argument has no label, with that argument when it is a plain
 * string literal (no interpolation) or a type's `.self`.
 */
export function callsWithFirstArgument(file: SwiftFile, name: string): LiteralCall[] {
  return file.tree.rootNode
    .descendantsOfType('call_expression')
    .filter((call) => calleeName(call) === name)
    .flatMap((call) => {
      const first = call.children
        .find((child) => child.type === 'call_suffix')
        ?.namedChildren.find((child) => child.type === 'value_arguments')
        ?.namedChildren.find((child) => child.type === 'value_argument');
      if (!first || first.namedChildren.some((child) => child.type === 'value_argument_label')) return [];
      return [
        {
          literal: plainStringLiteral(first.namedChildren[0]) ?? typeSelf(first.namedChildren[0]),
          at: locate(file, call),
        },
      ];
    });
}

function calleeName(call: Parser.SyntaxNode): string | undefined {
  const callee = call.namedChildren[0];
  if (callee?.type === 'simple_identifier') return callee.text;
  if (callee?.type !== 'navigation_expression') return undefined;
  const suffix = callee.namedChildren.find((child) => child.type === 'navigation_suffix');
  return suffix?.namedChildren.find((child) => child.type === 'simple_identifier')?.text;
}

/** `AXSnapshot.self` as written, a method bound to its types (HelperCore's Methods.swift). */
function typeSelf(node: Parser.SyntaxNode | undefined): string | null {
  return node?.type === 'navigation_expression' && /^[A-Z]\w*\.self$/.test(node.text) ? node.text : null;
}

function plainStringLiteral(node: Parser.SyntaxNode | undefined): string | null {
  if (node?.type !== 'line_string_literal') return null;
  const parts = node.namedChildren;
  if (parts.length === 0) return '';
  return parts.length === 1 && parts[0]?.type === 'line_str_text' ? parts[0].text : null;
}

function structDeclaration(file: SwiftFile, struct: string): Parser.SyntaxNode {
  const declaration = file.tree.rootNode
    .descendantsOfType('class_declaration')
    .find((node) => node.namedChildren.find((child) => child.type === 'type_identifier')?.text === struct);
  if (!declaration) throw new Error(`${file.path} declares no ${struct}`);
  return declaration;
}

/** The names of a struct's stored public properties (`public var x` / `public let x`), in order. */
export function publicProperties(file: SwiftFile, struct: string): string[] {
  return (
    structDeclaration(file, struct).namedChildren.find((child) => child.type === 'class_body')
      ?.namedChildren ?? []
  )
    .filter(
      (member) =>
        member.type === 'property_declaration' &&
        member.namedChildren.some((child) => child.type === 'modifiers' && /\bpublic\b/.test(child.text)) &&
        !member.namedChildren.some((child) => child.type === 'computed_property'),
    )
    .flatMap((member) => member.namedChildren.filter((child) => child.type === 'pattern').map((p) => p.text));
}

/** A struct's public properties as JSON names them: renamed by its CodingKeys (`case repeatCount = "repeat"`). */
export function jsonFields(file: SwiftFile, struct: string): string[] {
  const renames = new Map(
    [...structDeclaration(file, struct).text.matchAll(/case (\w+) = "([^"]+)"/g)].map(([, swift, json]) => [
      swift,
      json,
    ]),
  );
  return publicProperties(file, struct).map((name) => renames.get(name) ?? name);
}
