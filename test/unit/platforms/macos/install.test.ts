/**
 * Installing the macOS helper app at its stable path, on this Linux machine: from the installed copy, the
 * macpilot-darwin package, or a download from a loopback HTTP server checked against the shipped SHA-256.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MacpilotError } from '../../../../src/errors.js';
import { HelperClient } from '../../../../src/helper-client/client.js';
import { createLogger } from '../../../../src/log.js';
import { helperCommand } from '../../../../src/platforms/helper-command.js';
import { APP_NAME, binaryIn, installLocation, releaseAsset } from '../../../../src/platforms/macos/bundle.js';
import { CHECKSUMS_FILE } from '../../../../src/platforms/macos/checksums.js';
import { ensureHelper } from '../../../../src/platforms/macos/install.js';
import { temporaryFolder } from '../../../support/temp.js';

const VERSION = '9.8.7';
const temp = (prefix: string) => temporaryFolder(`macpilot-${prefix}-`);

/** A stand-in app bundle whose executable prints `marker`, in a fresh directory. */
function fakeApp(marker: string): { dir: string; app: string } {
  const dir = temp('app');
  const app = join(dir, APP_NAME);
  mkdirSync(join(app, 'Contents', 'MacOS'), { recursive: true });
  writeFileSync(join(app, 'Contents', 'Info.plist'), '<plist version="1.0"><dict/></plist>\n');
  writeFileSync(binaryIn(app), `#!/bin/sh\necho ${marker}\n`, { mode: 0o755 });
  return { dir, app };
}

/** The release zip as `ditto -c -k --keepParent` lays it out: the app folder at the top. */
function zipOf(marker: string): Buffer {
  const { dir } = fakeApp(marker);
  execFileSync('zip', ['-qr', 'asset.zip', APP_NAME], { cwd: dir });
  return readFileSync(join(dir, 'asset.zip'));
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A macpilot package root with its checksums file, and optionally a macpilot-darwin package. */
function packageRoot(
  checksum: string | undefined,
  darwinPackage?: { version: string; marker: string },
): string {
  const root = temp('package');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'macpilot', version: VERSION }));
  if (checksum !== undefined) {
    writeFileSync(
      join(root, CHECKSUMS_FILE),
      JSON.stringify({ version: VERSION, assets: { [releaseAsset(VERSION)]: checksum } }),
    );
  }
  if (darwinPackage) {
    const dir = join(root, 'node_modules', 'macpilot-darwin');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'macpilot-darwin', version: darwinPackage.version }),
    );
    execFileSync('cp', ['-R', fakeApp(darwinPackage.marker).app, dir]);
  }
  return root;
}

const run = (binary: string) => execFileSync(binary, { encoding: 'utf8' }).trim();

async function failure(promise: Promise<unknown>): Promise<MacpilotError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MacpilotError);
  return error as MacpilotError;
}

describe('ensureHelper', () => {
  const release = zipOf('downloaded');
  let server: Server;
  let url: string;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests++;
      if (request.url === `/${releaseAsset(VERSION)}`) response.end(release);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${releaseAsset(VERSION)}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test('a download with the shipped checksum is installed at the stable path, executable, its version recorded', async () => {
    const home = temp('home');
    const before = requests;
    const installed = await ensureHelper({
      version: VERSION,
      packageRoot: packageRoot(sha256(release)),
      home,
      url,
    });
    const place = installLocation(home);
    expect(installed).toEqual({ binary: place.binary, source: 'download' });
    expect(place.app).toBe(join(home, 'Library', 'Application Support', 'macpilot', APP_NAME));
    expect(statSync(place.binary).mode & 0o111).toBe(0o111);
    expect(run(place.binary)).toBe('downloaded');
    expect(readFileSync(place.versionFile, 'utf8').trim()).toBe(VERSION);
    expect(requests).toBe(before + 1);

    // The next start finds it in place and downloads nothing.
    const again = await ensureHelper({
      version: VERSION,
      packageRoot: packageRoot(sha256(release)),
      home,
      url,
    });
    expect(again.source).toBe('installed');
    expect(requests).toBe(before + 1);
  });

  test('a download with another checksum is refused, explained, and nothing is installed', async () => {
    const home = temp('home');
    const expected = 'a'.repeat(64);
    const error = await failure(
      ensureHelper({ version: VERSION, packageRoot: packageRoot(expected), home, url }),
    );
    expect(error.what).toBe('Refused the downloaded macOS helper');
    expect(error.why).toContain(sha256(release));
    expect(error.why).toContain(expected);
    expect(error.next).toContain('shasum -a 256');
    expect(existsSync(installLocation(home).app)).toBe(false);
    expect(existsSync(installLocation(home).versionFile)).toBe(false);
  });

  test('offline (connection refused): the error gives the manual steps', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const home = temp('home');
    const place = installLocation(home);
    const offline = `http://127.0.0.1:${port}/${releaseAsset(VERSION)}`;
    const error = await failure(
      ensureHelper({ version: VERSION, packageRoot: packageRoot(sha256(release)), home, url: offline }),
    );
    expect(error.what).toBe('Could not download the macOS helper');
    expect(error.why).toContain('ECONNREFUSED');
    for (const step of [
      offline,
      `shasum -a 256 ${releaseAsset(VERSION)}`,
      sha256(release),
      place.dir,
      place.versionFile,
    ]) {
      expect(error.next).toContain(step);
    }
    expect(existsSync(place.app)).toBe(false);
  });

  test('the macpilot-darwin package of the same version is copied in place, without a download', async () => {
    const home = temp('home');
    const before = requests;
    const root = packageRoot(sha256(release), { version: VERSION, marker: 'packaged' });
    const installed = await ensureHelper({ version: VERSION, packageRoot: root, home, url });
    expect(installed.source).toBe('package');
    expect(run(installLocation(home).binary)).toBe('packaged');
    expect(requests).toBe(before);
  });

  test('a macpilot-darwin package of another version is passed over for the download', async () => {
    const home = temp('home');
    const root = packageRoot(sha256(release), { version: '0.0.1', marker: 'stale' });
    const installed = await ensureHelper({ version: VERSION, packageRoot: root, home, url });
    expect(installed.source).toBe('download');
    expect(run(installLocation(home).binary)).toBe('downloaded');
  });

  test('an upgrade replaces the app of an older version in place', async () => {
    const home = temp('home');
    const place = installLocation(home);
    mkdirSync(place.dir, { recursive: true });
    execFileSync('cp', ['-R', fakeApp('old').app, place.dir]);
    writeFileSync(join(place.app, 'Contents', 'old-only'), '');
    writeFileSync(place.versionFile, '0.0.1\n');

    const installed = await ensureHelper({
      version: VERSION,
      packageRoot: packageRoot(sha256(release)),
      home,
      url,
    });
    expect(installed).toEqual({ binary: place.binary, source: 'download' });
    expect(run(place.binary)).toBe('downloaded');
    expect(existsSync(join(place.app, 'Contents', 'old-only'))).toBe(false);
    expect(readFileSync(place.versionFile, 'utf8').trim()).toBe(VERSION);
  });

  test('without shipped checksums nothing is downloaded, and the error says why', async () => {
    const before = requests;
    const error = await failure(
      ensureHelper({ version: VERSION, packageRoot: packageRoot(undefined), home: temp('home'), url }),
    );
    expect(error.why).toContain('not a release build');
    expect(error.next).toContain('MACPILOT_HELPER_PATH');
    expect(requests).toBe(before);
  });
});

describe('helperCommand', () => {
  test('MACPILOT_HELPER_PATH wins: an app means the executable inside it, a .js file runs under Node', () => {
    expect(helperCommand({ helperPath: '/Apps/macpilot Helper.app/', platform: 'darwin' })).toEqual({
      command: '/Apps/macpilot Helper.app/Contents/MacOS/macpilot-helper',
      args: [],
    });
    expect(helperCommand({ helperPath: '/opt/helper', platform: 'darwin' })).toEqual({
      command: '/opt/helper',
      args: [],
    });
    expect(helperCommand({ helperPath: '/opt/helper.js', platform: 'darwin' })).toEqual({
      command: process.execPath,
      args: ['/opt/helper.js'],
    });
  });

  test('macOS without an override runs the app at the stable path, installing it first', () => {
    const command = helperCommand({ platform: 'darwin' });
    expect(command.command).toBe(installLocation().binary);
    expect(command.prepare).toBeTypeOf('function');
  });

  test('Linux runs the bundled Node helper and needs no preparation', () => {
    const command = helperCommand({ platform: 'linux' });
    expect(command.command).toBe(process.execPath);
    expect(command.args[0]).toMatch(/dist\/macpilot-linux-helper\.js$/);
    expect(command.prepare).toBeUndefined();
  });
});

describe('HelperClient with a helper to prepare', () => {
  const fake = fileURLToPath(new URL('../../../support/fake-helper.mjs', import.meta.url));

  test('prepare puts the helper in place before it is started, at each start', async () => {
    const binary = join(temp('bin'), 'macpilot-helper');
    let prepared = 0;
    const client = new HelperClient({
      helper: {
        command: binary,
        args: [],
        env: { ...process.env, FAKE_HELPER_MODE: 'ok' },
        prepare: async () => {
          prepared++;
          writeFileSync(binary, `#!/bin/sh\nexec "${process.execPath}" "${fake}"\n`, { mode: 0o755 });
        },
      },
      log: createLogger('silent'),
    });
    try {
      expect((await client.hello()).protocolVersion).toBeGreaterThan(0);
      expect(prepared).toBe(1);
    } finally {
      await client.close();
    }
  });

  test("a failing prepare's explanation reaches the caller, and the next call prepares again", async () => {
    const refused = new MacpilotError({
      what: 'Refused the downloaded macOS helper',
      why: 'test',
      next: 'test',
    });
    let prepared = 0;
    const client = new HelperClient({
      helper: {
        command: join(temp('bin'), 'never-created'),
        args: [],
        prepare: async () => {
          prepared++;
          throw refused;
        },
      },
      log: createLogger('silent'),
    });
    try {
      await expect(client.hello()).rejects.toBe(refused);
      await expect(client.call('apps.list', {})).rejects.toBe(refused);
      expect(prepared).toBe(2);
    } finally {
      await client.close();
    }
  });
});
