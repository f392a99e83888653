/**
 * The toolsets of the tool catalog (README.md lists them), declared once: what each is for, whether it is on by default, and the
 * properties the policy reads (the least mode it runs in, whether its calls run scripts, ...). Tools inherit
 * their toolset (src/tools); `MACPILOT_TOOLSETS` / `--toolsets` pick among them. Also the small description of
 * a tool that the policy reads, so that the policy need not know the tool definitions.
 */
import type { Mode } from './modes.js';

interface ToolsetDeclaration {
  readonly id: string;
  readonly description: string;
  /** On unless MACPILOT_TOOLSETS leaves it out. */
  readonly byDefault: boolean;
  /** On whatever is selected: an agent can always ask what it may do. */
  readonly alwaysOn: boolean;
  /** The least permissive mode its tools run in (read-only mode still runs only read-only tools). */
  readonly lowestMode: Mode;
  /** Its calls run scripts: they count against scripts_per_minute. */
  readonly runsScripts: boolean;
  /**
   * Its tools' title, name and path arguments name controls in an app, so that safe mode may take one for a
   * destructive control ("Delete All"); false where they are a notification's headline or a file.
   */
  readonly namesControls: boolean;
  /** The argument that names the app its tools act on. */
  readonly appArgument: 'app' | 'name';
}

const toolset = <const Id extends string>(
  id: Id,
  description: string,
  properties: Partial<Omit<ToolsetDeclaration, 'id' | 'description'>> = {},
) => ({
  id,
  description,
  byDefault: true,
  alwaysOn: false,
  lowestMode: 'read-only' as Mode,
  runsScripts: false,
  namesControls: true,
  appArgument: 'app' as 'app' | 'name',
  ...properties,
});

export const TOOLSETS = [
  toolset('ui', 'read the accessibility tree and act on its elements by ref or path'),
  toolset('input', 'synthetic mouse and keyboard, at screen points or at elements'),
  toolset('apps', 'list, launch, activate and quit apps', { appArgument: 'name' }),
  toolset('windows', 'list, focus, move, resize, minimize, restore and close windows'),
  toolset('screen', 'screenshots, displays, and the text on screen (OCR)'),
  toolset('clipboard', 'read, write and clear the clipboard'),
  toolset('menus', "an app's menu bar and the status bar"),
  toolset('system', 'machine facts, battery, notifications, volume and mute', {
    byDefault: false,
    namesControls: false,
  }),
  toolset('finder', 'the file manager: reveal a file, the selection, the open folder', {
    byDefault: false,
    namesControls: false,
  }),
  toolset('scripting', 'AppleScript and JXA (macOS; full mode only)', {
    byDefault: false,
    lowestMode: 'full',
    runsScripts: true,
  }),
  toolset(
    'workflow',
    "several tool calls run as one, with retries and references to earlier results; undo; a person's demonstration recorded as steps",
    {
      // Each step is checked as the tool call it is; the workflow's own arguments are not one control's name.
      namesControls: false,
    },
  ),
  toolset('testing', 'assertions on elements, visual regression against baselines, accessibility audits', {
    byDefault: false,
  }),
  toolset('session', 'what this server can do here: permissions, versions, enabled tools', {
    alwaysOn: true,
  }),
] as const satisfies readonly ToolsetDeclaration[];

export type Toolset = (typeof TOOLSETS)[number]['id'];

export const TOOLSET_NAMES: readonly Toolset[] = TOOLSETS.map((t) => t.id);

export function isToolset(value: string): value is Toolset {
  return (TOOLSET_NAMES as readonly string[]).includes(value);
}

export function toolsetOf(id: Toolset): ToolsetDeclaration {
  return TOOLSETS.find((t) => t.id === id) as ToolsetDeclaration;
}

/** The toolsets on when none are chosen, the always-on ones included. */
export const DEFAULT_TOOLSETS: readonly Toolset[] = TOOLSETS.filter((t) => t.byDefault || t.alwaysOn).map(
  (t) => t.id,
);
export const ALWAYS_ON: readonly Toolset[] = TOOLSETS.filter((t) => t.alwaysOn).map((t) => t.id);

/** MCP tool annotations (hints to the client), as every tool declares them. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What the policy knows of a tool: its name, title, toolset and annotations. */
export interface ToolMeta {
  name: string;
  title: string;
  toolset: Toolset;
  annotations: ToolAnnotations;
  /** What the human asked to allow the call also reads, when its title and target say too little (a script's source). */
  consentDetail?: (args: never) => string;
  /**
   * The human is asked before every call, though it changes nothing: what it does reaches beyond the screen the
   * agent reads (start_recording hears what the person types).
   */
  asksConsent?: true;
  /**
   * Arguments that make a read-only tool change something, each with what it changes (take_screenshot's
   * file_path: "writes the image to a file"): a call that gives one is a write for the policy, and read-only
   * mode refuses it.
   */
  writesWith?: Readonly<Partial<Record<string, string>>>;
  /**
   * Its app argument names an app with windows but no accessibility tree (relaunch_app): the tool finds and gates
   * it, where the policy's look-up of apps with a tree would find none.
   */
  namesAppWithoutTree?: true;
  /** What reads how to take the call back before it runs (the undo tool then can); absent: undo cannot. */
  inverse?: unknown;
}

/** The arguments of a call that make it a write, with what each changes (see ToolMeta.writesWith). */
export const writingArgs = (
  tool: Pick<ToolMeta, 'writesWith'>,
  args: Record<string, unknown>,
): [name: string, changes: string][] =>
  Object.entries(tool.writesWith ?? {}).flatMap(([name, changes]) =>
    changes !== undefined && args[name] !== undefined ? [[name, changes] as [string, string]] : [],
  );

/**
 * The access a call has to the apps it reaches: a tool not annotated read-only acts on them; a reader stays one
 * whatever its writing arguments change (take_screenshot's file_path writes a file, and reads the app).
 */
export const appAccess = (tool: Pick<ToolMeta, 'annotations'>): 'read' | 'write' =>
  tool.annotations.readOnlyHint === true ? 'read' : 'write';

/** Whether a call may change something: a tool not annotated read-only, or one given a writing argument. */
export const isWrite = (tool: Pick<ToolMeta, 'annotations' | 'writesWith'>, args: Record<string, unknown>) =>
  !tool.annotations.readOnlyHint || writingArgs(tool, args).length > 0;
