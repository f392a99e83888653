/**
 * The OCR engine and the English model it reads with on Linux. The engine is the optional package
 * macpilot-linux-ocr (tesseract.js with one core build, installed by npm on Linux only). The model is Debian's
 * tessdata_fast English when the tesseract-ocr-eng package is installed (95% word recall on a UI screen, 0.59 s
 * warm, measured); otherwise the best_int model of the npm package @tesseract.js-data/eng, which macpilot does not
 * install (14 MB that most Linux desktops do not need): the first read that needs it fetches the package once
 * with `npm pack` (npm's own registry, proxy and cache settings), or, where npm is not on the PATH (a bundle
 * started by a desktop app), straight from the registry (npm_config_registry, else npm's), checks it against the
 * integrity pinned here, and keeps the model in the user's cache folder. Nothing else reaches the network.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import type Tesseract from 'tesseract.js';
import { MacpilotError } from '../../../errors.js';
import { findProgram, runProcess } from '../../../services/process.js';

export const DEBIAN_TESSDATA = '/usr/share/tesseract-ocr/5/tessdata';
export const ENGINE_PACKAGE = 'macpilot-linux-ocr';
/** The npm package the model is fetched from when Debian's is not installed, pinned to the byte. */
export const NPM_MODEL = {
  spec: '@tesseract.js-data/eng@1.0.0',
  tarball: 'tesseract.js-data-eng-1.0.0.tgz',
  integrity:
    'sha512-mbTumm6KQPUHyzTPQaF3ObXYnx0SqqfV2nabqFVQBwD6Kl7PhGSLSzOlfFTWy0P3BjghaSKA2W9GB19Jk+ZcTg==',
  /** The model inside the package's tarball: tesseract 4's best_int English, gzipped. */
  member: 'package/4.0.0_best_int/eng.traineddata.gz',
  /** The tarball holds a second, larger model too, so the download is this big. */
  downloadBytes: 13_839_644,
} as const;
const FETCH_TIMEOUT_MS = 180_000;
/** Tesseract 5's models have 24 entries; its reader refuses more than 1000. */
const MAX_MODEL_ENTRIES = 1000;
const gunzip = promisify(gunzipCallback);

export interface OcrModel {
  /** The folder holding eng.traineddata (or eng.traineddata.gz when gzip). */
  langPath: string;
  gzip: boolean;
  /** Where it comes from: Debian's package, or the npm package, fetched into the cache folder when missing. */
  source: 'debian' | 'npm';
}

/** Where the npm package's model is kept: $XDG_CACHE_HOME (~/.cache)/macpilot/ocr/<package version>. */
export function modelCache(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'macpilot', 'ocr', NPM_MODEL.spec.replace(/^@/, '').replace(/[/@]/g, '-'));
}

/** The model to read with here: Debian's when installed, else the npm package's (which may still be to fetch). */
export function ocrModel(debianTessdata = DEBIAN_TESSDATA, cache = modelCache()): OcrModel {
  if (existsSync(join(debianTessdata, 'eng.traineddata'))) {
    return { langPath: debianTessdata, gzip: false, source: 'debian' };
  }
  return { langPath: cache, gzip: true, source: 'npm' };
}

export const modelFile = (model: OcrModel) =>
  join(model.langPath, `eng.traineddata${model.gzip ? '.gz' : ''}`);

const NO_MODEL_FIX =
  'install the Debian package tesseract-ocr-eng (sudo apt-get install tesseract-ocr-eng), or let macpilot ' +
  `fetch ${NPM_MODEL.spec} from the npm registry: it needs npm and the registry within reach`;

/**
 * Fetches the npm package's model into model.langPath, unless it is there. `npm pack` downloads the tarball (or
 * takes it from npm's cache, so it also works offline once fetched); its SHA-512 must be the pinned one.
 */
export async function fetchModel(model: OcrModel, signal?: AbortSignal): Promise<void> {
  if (model.source !== 'npm' || existsSync(modelFile(model))) return;
  await mkdir(model.langPath, { recursive: true });
  const scratch = await mkdtemp(join(model.langPath, '.fetch-'));
  try {
    const tarball = join(scratch, NPM_MODEL.tarball);
    const npm = findProgram('npm');
    if (npm === undefined) await download(tarball, signal);
    else await packWithNpm(npm, scratch, tarball, signal);
    const packed = await readFile(tarball);
    const integrity = `sha512-${createHash('sha512').update(packed).digest('base64')}`;
    if (integrity !== NPM_MODEL.integrity) {
      throw new MacpilotError({
        what: 'OCR is unavailable: the English model fetched is not the one macpilot expects',
        why: `${NPM_MODEL.spec} from the registry has the integrity ${integrity}, not ${NPM_MODEL.integrity}`,
        next: 'check which registry npm uses (npm config get registry); or install tesseract-ocr-eng',
        kind: 'ocr_model_mismatch',
      });
    }
    const member = tarMember(await gunzip(packed), NPM_MODEL.member);
    if (member === undefined) {
      throw new MacpilotError({
        what: 'OCR is unavailable: its English model could not be unpacked',
        why: `${NPM_MODEL.tarball} holds no ${NPM_MODEL.member}`,
        next: NO_MODEL_FIX,
        kind: 'ocr_model_unpack_failed',
      });
    }
    await writeFile(join(scratch, 'model'), member);
    // In place in one step: a read that starts meanwhile sees the whole file or none.
    await rename(join(scratch, 'model'), modelFile(model));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** One file of a tar archive (ustar: 512-byte headers, the name split into prefix and name, sizes in octal). */
export function tarMember(archive: Buffer, name: string): Buffer | undefined {
  const text = (from: number, length: number) =>
    archive
      .subarray(from, from + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= archive.length;) {
    const base = text(at, 100);
    if (base === '') return undefined;
    const prefix = text(at + 345, 155);
    const size = Number.parseInt(text(at + 124, 12).trim() || '0', 8);
    const data = at + 512;
    if ((prefix === '' ? base : `${prefix}/${base}`) === name) return archive.subarray(data, data + size);
    at = data + Math.ceil(size / 512) * 512;
  }
  return undefined;
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';
const FETCHING = `Fetching the OCR model (${NPM_MODEL.spec}, ${(NPM_MODEL.downloadBytes / 1e6).toFixed(1)} MB)`;

async function packWithNpm(
  npm: string,
  scratch: string,
  tarball: string,
  signal?: AbortSignal,
): Promise<void> {
  const fetched = await runProcess({
    file: npm,
    args: ['pack', NPM_MODEL.spec, '--pack-destination', scratch, '--silent'],
    timeoutMs: FETCH_TIMEOUT_MS,
    signal,
    action: FETCHING,
    onTimeout: NO_MODEL_FIX,
    notInstalled: NO_MODEL_FIX,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  if (fetched.exitCode !== 0 || !existsSync(tarball)) {
    throw new MacpilotError({
      what: 'OCR is unavailable: its English model could not be fetched',
      why: `npm pack ${NPM_MODEL.spec} failed: ${lastLine(fetched.stderr) || `exit code ${String(fetched.exitCode)}`}`,
      next: NO_MODEL_FIX,
      kind: 'ocr_model_fetch_failed',
    });
  }
}

/** The package's tarball from the registry npm would use, without npm: its address is the registry's layout. */
export function tarballUrl(env: NodeJS.ProcessEnv = process.env): string {
  const registry = (env.npm_config_registry || 'https://registry.npmjs.org/').replace(/\/*$/, '/');
  const [scope, name, version] = /^(@[^/]+)\/([^@]+)@(.+)$/.exec(NPM_MODEL.spec)?.slice(1) ?? [];
  return `${registry}${scope}/${name}/-/${name}-${version}.tgz`;
}

async function download(tarball: string, signal?: AbortSignal): Promise<void> {
  const url = tarballUrl();
  const failed = (why: string) =>
    new MacpilotError({
      what: 'OCR is unavailable: its English model could not be fetched',
      why: `${url}: ${why} (npm is not on the PATH, so it was fetched without npm's proxy settings)`,
      next: NO_MODEL_FIX,
      kind: 'ocr_model_fetch_failed',
    });
  const limit = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const response = await fetch(url, { signal: signal ? AbortSignal.any([signal, limit]) : limit }).catch(
    (error: unknown) => {
      if (signal?.aborted) throw cancelled();
      throw failed(String(error));
    },
  );
  if (!response.ok || !response.body) throw failed(`HTTP ${response.status}`);
  try {
    await writeFile(tarball, Readable.fromWeb(response.body as WebStream));
  } catch (error) {
    if (signal?.aborted) throw cancelled();
    throw failed(String(error));
  }
}

const cancelled = () =>
  new MacpilotError({
    what: `${FETCHING}: cancelled`,
    why: 'the request was cancelled, so the download was stopped',
    next: 'nothing to do; call again if it is still wanted',
    kind: 'cancelled',
  });

/** macpilot-linux-ocr: tesseract.js's API and the path of its worker script. */
export interface OcrEngine {
  createWorker: typeof Tesseract.createWorker;
  workerPath: string;
}

export async function loadEngine(): Promise<OcrEngine> {
  try {
    return ((await import(ENGINE_PACKAGE)) as { default: OcrEngine }).default;
  } catch (error) {
    throw new MacpilotError(
      {
        what: 'OCR is unavailable',
        why: `its engine, the npm package ${ENGINE_PACKAGE} (an optional dependency of macpilot on Linux), is not installed: ${String(error)}`,
        next: `install macpilot again with its optional dependencies (npm install macpilot --include=optional), or npm install ${ENGINE_PACKAGE} beside it`,
        kind: 'ocr_engine_missing',
      },
      { cause: error },
    );
  }
}

/**
 * Whether a traineddata file's table of contents holds together: a count of entries, then each entry's offset in
 * the file (-1 when absent), in increasing order, all inside the file. tesseract.js cannot fail on a damaged model
 * without taking the process down (its worker answers the failed initialisation twice and the second answer
 * throws in tesseract.js's message listener), so such a model is refused before a worker sees it. A file cut
 * inside its last entry (the last few dozen bytes) still passes.
 */
export async function wholeModel(file: string, gzip: boolean): Promise<boolean> {
  const stored = await readFile(file);
  const data = gzip ? await gunzip(stored).catch(() => undefined) : stored;
  if (!data || data.length < 4) return false;
  const entries = data.readInt32LE(0);
  const table = 4 + 8 * entries;
  if (entries < 1 || entries > MAX_MODEL_ENTRIES || data.length <= table) return false;
  let end = table;
  let present = 0;
  for (let i = 0; i < entries; i++) {
    const offset = Number(data.readBigInt64LE(4 + 8 * i));
    if (offset === -1) continue;
    if (offset < end || offset >= data.length) return false;
    end = offset + 1;
    present++;
  }
  return present > 0;
}
