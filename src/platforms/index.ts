/** What this platform offers beyond the accessibility tree, what doctor checks of it, and the macOS helper's install. */
import { PACKAGE_ROOT } from '../package-root.js';
import type { ServiceCheck, Services } from '../services/types.js';
import { VERSION } from '../version.js';
import { ensureHelper } from './macos/install.js';
import { macosServices } from './macos/services.js';
import { linuxServiceChecks } from './linux/services/checks.js';
import { linuxServices } from './linux/services/index.js';
import { TesseractRecognizer } from './linux/ocr/tesseract.js';
import { macosServiceChecks } from './macos/checks.js';

/** `macpilot install-helper`: on macOS, the helper app at its stable path now; what was done, in words. */
export async function installHelper(platform: NodeJS.Platform = process.platform): Promise<string> {
  if (platform !== 'darwin') return `nothing to install on ${platform}: the helper comes with the package`;
  const { binary, source } = await ensureHelper({ version: VERSION, packageRoot: PACKAGE_ROOT });
  const how = {
    installed: 'already in place',
    package: 'copied from macpilot-darwin',
    download: 'downloaded and verified',
  };
  return `macOS helper ${VERSION}: ${binary} (${how[source]})`;
}

/** What this platform offers beyond the accessibility tree; a tool whose service is missing is not listed. */
export function platformServices(platform: NodeJS.Platform = process.platform): Services {
  if (platform === 'linux') return linuxServices();
  if (platform === 'darwin') return macosServices();
  return {};
}

/** What `macpilot doctor` checks of the platform services (optional: they serve the non-default toolsets). */
export function platformServiceChecks(platform: NodeJS.Platform = process.platform): ServiceCheck[] {
  if (platform === 'linux') return linuxServiceChecks();
  if (platform === 'darwin') return macosServiceChecks();
  return [];
}

/**
 * What reads text on screen in the server, where the helper does not: tesseract.js on Linux. Undefined elsewhere:
 * the engine asks the helper (Vision on macOS).
 */
export function platformTextRecognizer(
  platform: NodeJS.Platform = process.platform,
): TesseractRecognizer | undefined {
  return platform === 'linux' ? new TesseractRecognizer() : undefined;
}
