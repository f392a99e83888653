/**
 * What every front end of one process shares, assembled once: the helper, the engine, the policy and the
 * platform services. `macpilot serve` puts an MCP server in front of it, a CLI command a ToolSession.
 */
import { consoleBrowsers } from './control.js';
import type { Config } from './config.js';
import { createEngine, type Engine } from './engine/index.js';
import type { HelperPort } from './engine/kernel/port.js';
import { HelperClient } from './helper-client/client.js';
import { createLogger } from './log.js';
import { AuditLog } from './policy/audit-log.js';
import { appGate, appPolicyOf } from './policy/apps.js';
import { backgroundOfCall } from './policy/call-scope.js';
import { Desk } from './policy/desk.js';
import { CallFeed, type Thumbnail } from './policy/watch.js';
import { chooseApp } from './policy/choose-app.js';
import { ConsentGuard } from './policy/consent.js';
import { ToolsetGuard } from './policy/toolset-guard.js';
import { ModeGuard } from './policy/mode.js';
import { Policy } from './policy/pipeline.js';
import { RateLimiter } from './policy/rate-limits.js';
import { helperFor } from './platforms/helper-command.js';
import { platformServiceChecks, platformServices, platformTextRecognizer } from './platforms/index.js';
import type { StartedHelper } from './helper-client/spawn.js';
import type { ToolDependencies } from './tools/call.js';

/** The long edge of the pictures of the screen before and after an action, in pixels. */
const THUMBNAIL_EDGE = 480;

/** What the tools share, and the helper client itself, which only the entry point that made it closes. */
export interface Runtime extends ToolDependencies {
  helper: HelperClient;
}

/**
 * `port`: how the engine reaches the helper (the MCP server times each call through it). `started`: a helper the
 * caller started from the same configuration (helperFor) while it loaded the rest.
 */
export function createRuntime(
  config: Config,
  port: (helper: HelperPort) => HelperPort = (helper) => helper,
  started?: StartedHelper,
): Runtime {
  const log = createLogger(config.logLevel);
  const helper = new HelperClient({
    helper: started?.command ?? helperFor(config),
    ...(started ? { started: started.process } : {}),
    log,
  });
  const apps = appPolicyOf(config, consoleBrowsersNow());
  const engine = createEngine(
    port(helper),
    {
      clipboardHistory: config.clipboardHistory,
      clipboardHistoryOffBy: config.clipboardHistory ? undefined : config.origins.clipboardHistory.where,
      recognizer: platformTextRecognizer(),
      // Safe and read-only modes: what the app lists hide stays hidden in pixels too, unless a screenshot asks.
      blackOutHidden: config.mode !== 'full',
      background: backgroundOfCall,
      foregroundAgain: config.origins.input.change('foreground'),
      personFirst: config.personFirst,
      longestAction: {
        ms: config.rateLimits.actionSeconds * 1000,
        setBy: `action_seconds: ${config.origins.rateLimits.where}`,
      },
    },
    appGate(apps),
    chooseApp,
  );
  const desk = new Desk();
  desk.onStop(() => void engine.held.releaseAll().catch(() => {}));
  const audit = new AuditLog({ file: config.auditLog, mode: config.mode, refs: engine.kernel.refs, log });
  const feed = new CallFeed({
    describe: (call, outcome) => audit.entry(call, outcome),
    thumbnail: () => thumbnail(engine),
    pictures: config.consolePictures,
  });
  engine.recorder.watch((view) => feed.recorded(view));
  const policy = new Policy([
    desk,
    new ToolsetGuard(config.toolsets, config.origins.toolsets),
    new ModeGuard(config.mode, config.origins.mode),
    new RateLimiter(config.rateLimits, undefined, config.origins.rateLimits),
    new ConsentGuard(config, engine.kernel, () => engine.held.heldModifiers()),
    // After every guard that may refuse or ask: what it pictures before an action is what the action starts from.
    feed,
    audit,
  ]);
  return {
    config,
    log,
    audit,
    helper,
    engine,
    policy,
    desk,
    feed,
    services: platformServices(),
    serviceChecks: platformServiceChecks(),
  };
}

/** The primary display, small, for the person watching (the app lists' black-out as screenshots have it). */
export async function thumbnail(engine: Engine, maxWidth = THUMBNAIL_EDGE): Promise<Thumbnail | undefined> {
  const shot = await engine.screen.take({ format: 'jpeg', quality: 60, maxWidth });
  if (!shot.image) return undefined;
  return { data: shot.image.data, width: shot.facts.width, height: shot.facts.height };
}

/** The console browsers (control.ts), looked up at most once a second: the app policy asks on every check. */
function consoleBrowsersNow(): () => ReadonlySet<number> {
  let known: { at: number; pids: ReadonlySet<number> } | undefined;
  return () => {
    const now = performance.now();
    if (!known || now - known.at > 1000) known = { at: now, pids: consoleBrowsers() };
    return known.pids;
  };
}
