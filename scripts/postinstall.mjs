// npm postinstall: on macOS, puts the helper app at its stable per-user path now rather than at first start
// (`macpilot install-helper`). It never fails or stalls an install: elsewhere, and in a source checkout (no dist/
// before `npm run build`), it does nothing; any failure is reported and left to the first start to retry.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'macpilot.js');
if (process.platform === 'darwin' && existsSync(cli)) {
  const run = spawnSync(process.execPath, [cli, 'install-helper'], { stdio: 'inherit', timeout: 150_000 });
  if (run.status !== 0) {
    process.stderr.write(
      'macpilot: the macOS helper app was not installed now; macpilot retries at first start ' +
        '(`macpilot doctor` shows the state; docs/macos.md has the manual steps).\n',
    );
  }
}
