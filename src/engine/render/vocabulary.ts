/**
 * The words a rendering uses for what its reader does next. An agent holds refs and calls tools with arguments;
 * a person at the terminal names elements by path and runs macpilot's commands with flags. Both read the same
 * renderers; only these words differ. PERSON's commands and flags are the CLI's (src/cli/commands.ts; a unit
 * test checks each exists there).
 */
import { maskedPath } from '../kernel/entered.js';
import { shellQuote } from '../../text.js';
import { parsePath } from '../kernel/paths.js';
import { SNAPSHOT_DEFAULTS } from '../kernel/tree.js';
import { CLIPBOARD_READ_LIMIT } from '../kernel/results.js';

/** An element a reader may name again. */
interface Nameable {
  ref: string;
  path: string;
}

export interface Vocabulary {
  /** Whether the reader holds refs (a line ends with `[ref=e12]`) or paths. */
  refs: boolean;
  /** Text values shown as their lengths only (`value=(16 characters)`): what a watching person reads. */
  valueLengths?: boolean;
  /** Where a line names its element for later: `[ref=e12]`, or `at app("x")/button["OK"]`. */
  tag(node: Nameable): string;
  /** An element named in a list: `e12`, or its path. */
  name(node: Nameable): string;
  /** How to read a cut value in full: the element's. */
  readValue(node: Nameable): string;
  /** How to read the whole tree of the app an element is in. */
  readTree(example: Nameable | undefined): string;
  /** How to see more of a cut tree. */
  /**
   * How to see what a tree left out: `depth` (levels were cut), `size` (elements were cut by a cap), `moreLines`
   * (asking for more lines would show more), `all` (everything was asked for already), `rootOnly` (`example`
   * is the walk's root: no element below it was named).
   */
  readMore(
    example: Nameable | undefined,
    cut: { depth: boolean; size: boolean; moreLines?: boolean; all?: boolean; rootOnly?: boolean },
  ): string;
  /** The cap a tree's lines were cut at, by their count. */
  lineCap(maxNodes: number): string;
  /** The cap a tree's lines were cut at, by their characters. */
  sizeCap(maxChars: number): string;
  /** How to narrow a search that reached its walk's cap. */
  narrowSearch: string;
  /** How to see more matches. */
  moreMatches: string;
  /** How to search elements off screen too. */
  searchHidden: string;
  /** How to list minimized windows too. */
  listMinimized: string;
  /** How to compare two readings of an app. */
  compareReadings: string;
  /** How to click where a text was read. */
  clickText: string;
  /** How to read the text an app draws without elements. */
  readDrawnText: string;
  /** What presses a key. */
  pressKey: string;
  /** How to read more of a clipboard text cut at `maxChars` (none past the limit). */
  readMoreClipboard(maxChars: number): string;
  /** Whose app lists (MACPILOT_DENY_APPS, MACPILOT_ALLOW_APPS) hide or deny an app. */
  appLists: string;
  /**
   * After the count of what the app lists hide: which settings hide them (`by`) and how to see them ('' when not
   * the reader's to do); `count`: how many.
   */
  listHidden(by: readonly string[], count: number): string;
  /** How an app with windows but no tree gets one. */
  relaunch: string;
  /** How to reach a long list's children left off screen; `named`: they carry names (a fast search); `all`: the read already listed hidden ones. */
  reachOffScreen(node: Nameable, how: { named: boolean; all: boolean }): string;
}

/** What `macpilot tree` takes for the app an element's path starts at (its name or pid), else a placeholder. */
const treeArgument = (example: Nameable | undefined): string =>
  example === undefined ? '<app>' : shellQuote(parsePath(example.path).app);

export const AGENT: Vocabulary = {
  refs: true,
  tag: (node) => `[ref=${node.ref}]`,
  name: (node) => node.ref,
  readValue: () => 'get_element shows it all',
  readTree: () => 'snapshot_ui shows the whole tree',
  readMore: (example, cut) => {
    const larger = [cut.depth ? 'depth' : undefined, cut.moreLines ? 'max_nodes' : undefined].filter(Boolean);
    const raise = larger.length > 0 ? `, a larger ${larger.join(' or ')}` : '';
    const subtree = cut.rootOnly || !example ? 'the ref of a container in it' : `ref=${example.ref}`;
    return `snapshot_ui with ${subtree} for a subtree${raise}, or find_elements to search`;
  },
  lineCap: (maxNodes) => `max_nodes=${maxNodes}`,
  sizeCap: (maxChars) => `the size cap of ${maxChars.toLocaleString('en-US')} characters`,
  narrowSearch: 'narrow it with within=<ref>',
  moreMatches: 'raise max_results or narrow the query to see them',
  searchHidden: 'include_hidden: true also searches the rest',
  listMinimized: 'include_minimized: true shows them',
  compareReadings: 'Compare two snapshot_ui calls instead.',
  clickText: 'click_text clicks there',
  readDrawnText: 'find_text reads the text on screen',
  pressKey: 'press_key',
  readMoreClipboard: (maxChars) =>
    maxChars < CLIPBOARD_READ_LIMIT
      ? 'max_chars reads more'
      : `no read shows more than ${CLIPBOARD_READ_LIMIT}`,
  appLists: "the person's app lists",
  listHidden: () => '',
  relaunch: 'relaunch_app restarts one so that it builds its tree',
  reachOffScreen: (node, { named, all }) =>
    [
      `find_elements within=${node.ref} with include_hidden: true searches them ${searchSpeed(named)}`,
      'scroll_to_element brings one into view',
      all
        ? undefined
        : `snapshot_ui ref=${node.ref} with include_hidden: true lists them, up to max_nodes and the size cap`,
    ]
      .filter(Boolean)
      .join('; '),
};

/** How fast a search of a long list's hidden children is: by their names, or by reading each. */
const searchSpeed = (named: boolean): string =>
  named
    ? 'by name (10,000 rows in about half a second)'
    : '(their text is in their children, so each is read: slow past a few thousand)';

export const PERSON: Vocabulary = {
  refs: false,
  tag: (node) => `at ${node.path}`,
  name: (node) => node.path,
  readValue: (node) => `\`macpilot get ${shellQuote(node.path)}\` shows it all`,
  readTree: (example) => `\`macpilot tree ${treeArgument(example)}\` shows the whole tree`,
  // --all lifts the line cap, not the depth.
  readMore: (example, cut) => {
    const ways = [
      cut.depth
        ? `\`macpilot tree ${treeArgument(example)} --depth N${cut.all ? ' --all' : ''}\``
        : undefined,
      cut.size && !cut.all ? '`--all`' : undefined,
    ].filter(Boolean);
    // --all already given: searching is what is left.
    const find = `\`macpilot find <text> --app ${treeArgument(example)}${cut.all ? ' --all' : ''}\` to search`;
    return ways.length > 0 ? `${ways.join(' or ')}, or ${find}` : find;
  },
  lineCap: () => `the line cap (--all shows up to ${SNAPSHOT_DEFAULTS.maxNodesLimit} lines)`,
  sizeCap: (maxChars) => `the size cap of ${maxChars.toLocaleString('en-US')} characters (--all lifts it)`,
  narrowSearch: 'narrow it with --app, --role or more of the text',
  moreMatches:
    'raise --max (at most 500) or narrow the search with --app, --role or more of the text to see them',
  searchHidden: '--all also searches the rest',
  listMinimized: '--minimized shows them',
  compareReadings: 'Compare two `macpilot tree` outputs instead.',
  clickText: '`macpilot click x,y` clicks there',
  readDrawnText: '`macpilot screenshot` shows it',
  pressKey: '`macpilot key`',
  readMoreClipboard: (maxChars) =>
    maxChars < CLIPBOARD_READ_LIMIT
      ? `--max-chars reads more, up to ${CLIPBOARD_READ_LIMIT}`
      : `no read shows more than ${CLIPBOARD_READ_LIMIT}: paste it into a file to see it all`,
  appLists: 'your app lists',
  relaunch:
    'quit one and start it again: it builds its tree as it starts while the accessibility switch is on (`macpilot doctor` says whether it is)',
  reachOffScreen: (node, { named, all }) =>
    [
      `\`macpilot find <text> --app ${treeArgument(node)} --all\` searches them ${searchSpeed(named)}`,
      all ? undefined : `\`macpilot tree ${treeArgument(node)} --all\` lists up to 5,000 lines of them`,
    ]
      .filter(Boolean)
      .join('; '),
  listHidden: (by, count) =>
    hiddenNote(by, count, 'MACPILOT_LIST_DENIED_APPS=on, or "listDeniedApps": "on" in the config file'),
};

/** Which settings hide what is hidden, and how to list them (`listThem`). */
const hiddenNote = (by: readonly string[], count: number, listThem: string): string => {
  const they = count === 1 ? 'It is' : 'They are';
  const them = count === 1 ? 'it' : 'them';
  const setting = by.length > 0 ? ` ${they} hidden by ${by.join(' and ')};` : '';
  return `${setting} to list ${them} (${count === 1 ? 'it stays' : 'they stay'} unreadable): ${listThem}.`;
};

/**
 * What the console shows of a call's changes: a person's words, and text values as their lengths, as the audit
 * log keeps typed text and values set.
 */
export const WATCHING: Vocabulary = {
  ...PERSON,
  valueLengths: true,
  // A path repeats the names it passes: those that may be entered text are given as their lengths too.
  tag: (node) => `at ${maskedPath(node.path)}`,
};

/** The person's vocabulary, with how to list the apps their lists hide: `listThem`, a setting's change in their words. */
export const personWords = (listThem: string): Vocabulary => ({
  ...PERSON,
  listHidden: (by, count) => hiddenNote(by, count, listThem),
});
