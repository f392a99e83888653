import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig, SETTING_VARIABLES } from '../../src/config.js';
import { DEFAULT_TOOLSETS, TOOLSET_NAMES } from '../../src/toolsets.js';
import { temporaryFolder } from '../support/temp.js';

const emptyHome = temporaryFolder('macpilot-home-');

function withFile(content: unknown): string {
  const path = join(temporaryFolder('macpilot-config-'), 'config.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

describe('loadConfig', () => {
  test('defaults: the default toolsets plus session, log level warn', () => {
    const config = loadConfig({}, {}, emptyHome);
    expect(config.toolsets).toEqual([...DEFAULT_TOOLSETS]);
    expect(config.logLevel).toBe('warn');
    expect(config.configFile).toBeUndefined();
  });

  test('MACPILOT_TOOLSETS picks toolsets; session is always on', () => {
    expect(loadConfig({}, { MACPILOT_TOOLSETS: 'ui, apps' }, emptyHome).toolsets).toEqual([
      'ui',
      'apps',
      'session',
    ]);
    expect(loadConfig({}, { MACPILOT_TOOLSETS: 'all' }, emptyHome).toolsets).toEqual([...TOOLSET_NAMES]);
  });

  test('an unknown toolset is refused with the valid names', () => {
    expect(() => loadConfig({}, { MACPILOT_TOOLSETS: 'ui,shell' }, emptyHome)).toThrow(
      /MACPILOT_TOOLSETS: unknown toolset "shell"; valid: ui, input/,
    );
  });

  test('flags override the environment, which overrides the file', () => {
    const file = withFile({ toolsets: ['apps'], logLevel: 'debug', helperPath: '/nonexistent/file-helper' });
    const envHelper = join(temporaryFolder('macpilot-helper-'), 'helper.js');
    writeFileSync(envHelper, '');
    const env = { MACPILOT_CONFIG: file, MACPILOT_TOOLSETS: 'ui', MACPILOT_HELPER_PATH: envHelper };
    const config = loadConfig({ toolsets: 'session' }, env, emptyHome);
    expect(config.toolsets).toEqual(['session']);
    expect(config.helperPath).toBe(envHelper);
    expect(config.logLevel).toBe('debug');
    expect(config.configFile).toBe(file);
  });

  test('the default config file lives under XDG_CONFIG_HOME', () => {
    const xdg = temporaryFolder('macpilot-xdg-');
    mkdirSync(join(xdg, 'macpilot'));
    writeFileSync(join(xdg, 'macpilot', 'config.json'), JSON.stringify({ toolsets: 'ui' }));
    expect(loadConfig({}, { XDG_CONFIG_HOME: xdg }, emptyHome).toolsets).toEqual(['ui', 'session']);
  });

  test('MACPILOT_CLIPBOARD_HISTORY: on by default, off from the environment or the file, nothing else', () => {
    expect(loadConfig({}, {}, emptyHome).clipboardHistory).toBe(true);
    expect(loadConfig({}, { MACPILOT_CLIPBOARD_HISTORY: 'OFF' }, emptyHome).clipboardHistory).toBe(false);
    const file = withFile({ clipboardHistory: 'off' });
    expect(loadConfig({}, { MACPILOT_CONFIG: file }, emptyHome).clipboardHistory).toBe(false);
    expect(
      loadConfig({}, { MACPILOT_CONFIG: file, MACPILOT_CLIPBOARD_HISTORY: 'on' }, emptyHome).clipboardHistory,
    ).toBe(true);
    expect(() => loadConfig({}, { MACPILOT_CLIPBOARD_HISTORY: 'no' }, emptyHome)).toThrow(
      new ConfigError('MACPILOT_CLIPBOARD_HISTORY: unknown clipboard history setting "no"; valid: on, off'),
    );
  });

  test('MACPILOT_LIST_DENIED_APPS: off by default, on from the environment or the file', () => {
    expect(loadConfig({}, {}, emptyHome).listDeniedApps).toBe(false);
    expect(loadConfig({}, { MACPILOT_LIST_DENIED_APPS: 'on' }, emptyHome).listDeniedApps).toBe(true);
    const file = withFile({ listDeniedApps: 'on' });
    expect(loadConfig({}, { MACPILOT_CONFIG: file }, emptyHome).listDeniedApps).toBe(true);
    expect(() => loadConfig({}, { MACPILOT_LIST_DENIED_APPS: 'yes' }, emptyHome)).toThrow(
      new ConfigError('MACPILOT_LIST_DENIED_APPS: unknown setting "yes"; valid: on, off'),
    );
  });

  test('a variable set to nothing but spaces is unset, as an empty one is', () => {
    const defaults = loadConfig({}, {}, emptyHome);
    expect(loadConfig({}, { MACPILOT_DENY_APPS: ' ' }, emptyHome).denyApps).toEqual(defaults.denyApps);
    expect(loadConfig({}, { MACPILOT_DENY_APPS: '' }, emptyHome).denyApps).toEqual(defaults.denyApps);
  });

  test('the person comes first by default in safe mode, and only there; either way the setting decides', () => {
    expect(loadConfig({}, {}, emptyHome).personFirst).toBe(false);
    expect(loadConfig({}, { MACPILOT_MODE: 'safe' }, emptyHome).personFirst).toBe(true);
    expect(
      loadConfig({}, { MACPILOT_MODE: 'safe', MACPILOT_PERSON_FIRST: 'off' }, emptyHome).personFirst,
    ).toBe(false);
    expect(loadConfig({}, { MACPILOT_PERSON_FIRST: 'on' }, emptyHome).personFirst).toBe(true);
    expect(() => loadConfig({}, { MACPILOT_PERSON_FIRST: 'yes' }, emptyHome)).toThrow(
      /MACPILOT_PERSON_FIRST/,
    );
  });

  test("the console's pictures of actions: on by default, off by default in read-only mode; the setting decides", () => {
    expect(loadConfig({}, {}, emptyHome).consolePictures).toBe(true);
    expect(loadConfig({}, { MACPILOT_MODE: 'read-only' }, emptyHome).consolePictures).toBe(false);
    expect(
      loadConfig({}, { MACPILOT_MODE: 'read-only', MACPILOT_CONSOLE_PICTURES: 'on' }, emptyHome)
        .consolePictures,
    ).toBe(true);
    expect(loadConfig({}, { MACPILOT_CONSOLE_PICTURES: 'off' }, emptyHome).consolePictures).toBe(false);
    expect(() => loadConfig({}, { MACPILOT_CONSOLE_PICTURES: 'maybe' }, emptyHome)).toThrow(
      /MACPILOT_CONSOLE_PICTURES/,
    );
  });

  test("paths in the file: ~/ is the home folder, a relative one is the file's folder's", () => {
    const file = withFile({ auditLog: 'logs/audit.jsonl' });
    expect(loadConfig({}, { MACPILOT_CONFIG: file }, emptyHome).auditLog).toBe(
      join(dirname(file), 'logs', 'audit.jsonl'),
    );
    const home = withFile({ auditLog: '~/audit.jsonl' });
    expect(loadConfig({}, { MACPILOT_CONFIG: home }, emptyHome).auditLog).toBe(
      join(emptyHome, 'audit.jsonl'),
    );
    expect(loadConfig({}, { MACPILOT_AUDIT_LOG: 'here.jsonl' }, emptyHome).auditLog).toBe(
      join(process.cwd(), 'here.jsonl'),
    );
    expect(() =>
      loadConfig({}, { MACPILOT_CONFIG: withFile({ helperPath: 'nohelper' }) }, emptyHome),
    ).toThrow(/: "helperPath": \/.*\/nohelper does not exist/);
  });

  test('a toolsets value that names none is refused, not taken for the session tools alone', () => {
    expect(() => loadConfig({}, { MACPILOT_TOOLSETS: ',' }, emptyHome)).toThrow(
      /MACPILOT_TOOLSETS: no toolset named; give some of ui, /,
    );
    expect(() => loadConfig({}, { MACPILOT_CONFIG: withFile({ toolsets: '' }) }, emptyHome)).toThrow(
      /: "toolsets": no toolset named/,
    );
    expect(loadConfig({}, { MACPILOT_TOOLSETS: 'session' }, emptyHome).toolsets).toEqual(['session']);
  });

  test('a wrong value in the file stops macpilot even where the environment overrides it', () => {
    const file = withFile({ consent: 'never', mode: 'safe' });
    expect(() => loadConfig({}, { MACPILOT_CONFIG: file, MACPILOT_CONSENT: 'allow' }, emptyHome)).toThrow(
      /: "consent".*"never"/,
    );
    const limits = withFile({ rateLimits: 'calls_per_hour=5' });
    expect(() =>
      loadConfig({}, { MACPILOT_CONFIG: limits, MACPILOT_RATE_LIMITS: 'concurrent=2' }, emptyHome),
    ).toThrow(/: "rateLimits": unknown rate limit "calls_per_hour"/);
    // Right values in the file, overridden, are fine.
    const right = withFile({ consent: 'ask' });
    expect(loadConfig({}, { MACPILOT_CONFIG: right, MACPILOT_CONSENT: 'allow' }, emptyHome).consent).toBe(
      'allow',
    );
  });

  test('an audit log that could be no file is refused at start, and the folder named is left as it was', () => {
    const folder = temporaryFolder('macpilot-audit-folder-');
    expect(() => loadConfig({}, { MACPILOT_AUDIT_LOG: folder }, emptyHome)).toThrow(
      new RegExp(
        `MACPILOT_AUDIT_LOG: ${folder} is a folder; give the path of a file in it \\(e\\.g\\. ${folder}/audit\\.jsonl\\), or "off"`,
      ),
    );
    // An empty path in the file would have been the file's own folder.
    expect(() => loadConfig({}, { MACPILOT_CONFIG: withFile({ auditLog: '' }) }, emptyHome)).toThrow(
      /: "auditLog": the path is empty; give a file's path, or "off"/,
    );
    expect(() => loadConfig({}, { MACPILOT_AUDIT_LOG: '/proc/nope/audit.jsonl' }, emptyHome)).toThrow(
      /is in a kernel filesystem/,
    );
    expect(loadConfig({}, { MACPILOT_AUDIT_LOG: join(folder, 'audit.jsonl') }, emptyHome).auditLog).toBe(
      join(folder, 'audit.jsonl'),
    );
    expect(loadConfig({}, { MACPILOT_AUDIT_LOG: 'OFF' }, emptyHome).auditLog).toBeUndefined();
    // A file where a folder above the log should be.
    const file = join(folder, 'a-file');
    writeFileSync(file, '');
    expect(() =>
      loadConfig({}, { MACPILOT_AUDIT_LOG: join(file, 'deeper', 'audit.jsonl') }, emptyHome),
    ).toThrow(`MACPILOT_AUDIT_LOG: ${file} is a file, so no log can be kept under it`);
  });

  test('bad files and values are refused with the setting named', () => {
    expect(() => loadConfig({}, { MACPILOT_CONFIG: '/nonexistent/macpilot.json' }, emptyHome)).toThrow(
      /MACPILOT_CONFIG: \/nonexistent\/macpilot.json does not exist/,
    );
    // A relative path is named absolute: the person may read the refusal far from where it was set.
    expect(() => loadConfig({}, { MACPILOT_CONFIG: 'no-such-macpilot.json' }, emptyHome)).toThrow(
      `MACPILOT_CONFIG: ${join(process.cwd(), 'no-such-macpilot.json')} does not exist`,
    );
    expect(() => loadConfig({}, { MACPILOT_CONFIG: withFile('{oops') }, emptyHome)).toThrow(/not valid JSON/);
    expect(() => loadConfig({}, { MACPILOT_CONFIG: withFile([1]) }, emptyHome)).toThrow(
      /expected a JSON object of settings/,
    );
    expect(() => loadConfig({}, { MACPILOT_CONFIG: emptyHome }, emptyHome)).toThrow(
      `MACPILOT_CONFIG: ${emptyHome} is a folder; name the JSON file in it`,
    );
    expect(loadConfig({}, { MACPILOT_CONFIG: '' }, emptyHome).configFile).toBeUndefined();
    expect(() =>
      loadConfig({}, { MACPILOT_CONFIG: withFile({ denyApp: ['1Password'] }) }, emptyHome),
    ).toThrow(/unknown key "denyApp"; did you mean "denyApps"\?/);
    // Two letters swapped is one slip, not two.
    expect(() => loadConfig({}, { MACPILOT_CONFIG: withFile({ mdoe: 'safe' }) }, emptyHome)).toThrow(
      /unknown key "mdoe"; did you mean "mode"\?/,
    );
    expect(() => loadConfig({}, { MACPILOT_LOG_LEVEL: 'loud' }, emptyHome)).toThrow(ConfigError);
    expect(() => loadConfig({}, { MACPILOT_LOG_LEVEL: 'loud' }, emptyHome)).toThrow(
      /MACPILOT_LOG_LEVEL: unknown log level "loud"/,
    );
    // In any case, as every other setting's words.
    expect(loadConfig({}, { MACPILOT_LOG_LEVEL: 'DEBUG' }, emptyHome).logLevel).toBe('debug');
    expect(loadConfig({}, {}, emptyHome).portal).toBe('auto');
    expect(loadConfig({}, { MACPILOT_PORTAL: 'On' }, emptyHome).portal).toBe('on');
    expect(() => loadConfig({}, { MACPILOT_PORTAL: 'maybe' }, emptyHome)).toThrow(
      'MACPILOT_PORTAL: unknown portal setting "maybe"; valid: auto, on, off',
    );
  });
});

describe('where each setting came from', () => {
  test('a refusal can name the flag, the variable or the file (with its path) that set it', () => {
    const file = withFile({ denyApps: ['mousepad'], mode: 'read-only' });
    const config = loadConfig(
      { toolsets: 'ui' },
      { MACPILOT_CONFIG: file, MACPILOT_CONSENT: 'ask' },
      emptyHome,
    );
    expect(config.origins.denyApps.where).toBe(`"denyApps" in ${file}`);
    expect(config.origins.mode.change('full')).toBe(`set "mode": "full" in ${file}`);
    expect(config.origins.consent.where).toBe('the environment variable MACPILOT_CONSENT');
    expect(config.origins.toolsets.where).toBe('the flag --toolsets');
    // A flag is changed by starting macpilot again: said once, not "start …, then restart".
    expect(config.origins.toolsets.changeAndRestart('ui,screen')).toBe(
      'restart macpilot with --toolsets ui,screen',
    );
    expect(config.origins.mode.changeAndRestart('full')).toBe(
      `set "mode": "full" in ${file}, then restart macpilot`,
    );
    expect(config.origins.allowApps.where).toBe('the default of MACPILOT_ALLOW_APPS');
    expect(config.origins.allowApps.change('mousepad')).toBe(
      `set MACPILOT_ALLOW_APPS=mousepad where macpilot is started, or "allowApps": "mousepad" in ${file}`,
    );
  });

  test('rateLimits in the file may be an object; a wrong type names the key and the accepted forms', () => {
    const config = loadConfig(
      {},
      { MACPILOT_CONFIG: withFile({ rateLimits: { calls_per_second: 40, action_seconds: 120 } }) },
      emptyHome,
    );
    expect(config.rateLimits).toMatchObject({ callsPerSecond: 40, actionSeconds: 120, concurrent: 8 });
    expect(() =>
      loadConfig({}, { MACPILOT_CONFIG: withFile({ rateLimits: { calls_per_second: '5' } }) }, emptyHome),
    ).toThrow(/"rateLimits": expected .*\(numbers, not strings\)/);
    expect(() => loadConfig({}, { MACPILOT_CONFIG: withFile({ rateLimits: [1] }) }, emptyHome)).toThrow(
      /config\.json: "rateLimits": expected "calls_per_second=20,concurrent=8" or \{"calls_per_second": 20, "concurrent": 8\} \(numbers, not strings\) \(docs\/configuration\.md/,
    );
    expect(() => loadConfig({}, { MACPILOT_CONFIG: withFile({ mode: 3 }) }, emptyHome)).toThrow(
      /config\.json: "mode": expected one of "full", "safe", "read-only"/,
    );
    expect(() => loadConfig({}, { MACPILOT_CONFIG: withFile({ denyApps: 5 }) }, emptyHome)).toThrow(
      /config\.json: "denyApps": expected "1Password,KeePassXC" or \["1Password", "KeePassXC"\]/,
    );
  });
});

test('a helper path that is missing or not executable stops macpilot at start, saying so', () => {
  expect(() => loadConfig({}, { MACPILOT_HELPER_PATH: emptyHome }, emptyHome)).toThrow(
    `MACPILOT_HELPER_PATH: ${emptyHome} is a folder; give the path of a macpilot helper`,
  );
  expect(() => loadConfig({}, { MACPILOT_HELPER_PATH: '/nonexistent/macpilot-helper' }, emptyHome)).toThrow(
    'MACPILOT_HELPER_PATH: /nonexistent/macpilot-helper does not exist; give the path of a macpilot helper',
  );
  const binary = join(temporaryFolder('macpilot-helper-'), 'macpilot-helper');
  writeFileSync(binary, '', { mode: 0o644 });
  expect(() => loadConfig({}, { MACPILOT_HELPER_PATH: binary }, emptyHome)).toThrow(
    `MACPILOT_HELPER_PATH: ${binary} is not executable (chmod +x it)`,
  );
});

describe('docs/configuration.md', () => {
  test('its example names every setting, each with the variable the table gives, and the file loads', () => {
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(doc)?.[1] ?? '{}') as Record<string, unknown>;
    expect(Object.keys(example).sort()).toEqual(Object.keys(SETTING_VARIABLES).sort());
    for (const [key, variable] of Object.entries(SETTING_VARIABLES)) {
      expect(doc, key).toContain(`| \`${key}\``);
      expect(doc, key).toMatch(new RegExp(`\\| \`${key}\` +\\| \`${variable}\` `));
    }
    // The helper it names is one a person would have built; the rest loads as written.
    const { helperPath: _, ...rest } = example;
    const config = loadConfig({}, { MACPILOT_CONFIG: withFile(rest) }, emptyHome);
    expect(config.mode).toBe(example.mode);
    expect(config.auditLog).toBe(join(emptyHome, '.local/state/macpilot/audit.jsonl'));
    expect(config.http()).toMatchObject({ host: example.host, port: example.port });
  });
});
