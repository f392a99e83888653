import { defineConfig } from 'vitest/config';

/** Every test file removes the temporary folders it made (test/support/temp.ts). */
const TEMP_FOLDERS = 'test/setup/temp-folders.ts';

export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], setupFiles: [TEMP_FOLDERS] },
      },
      {
        // Contract and end-to-end tests share one headless desktop and run one file at a time.
        test: {
          name: 'desktop',
          include: ['test/contract/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/setup/desktop.ts'],
          setupFiles: [TEMP_FOLDERS],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The Wayland suite: a headless sway of its own, one file at a time.
        test: {
          name: 'wayland',
          include: ['test/wayland/**/*.test.ts'],
          globalSetup: ['test/setup/sway.ts'],
          setupFiles: [TEMP_FOLDERS],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The GNOME suite: a headless GNOME Shell of its own, one file at a time.
        test: {
          name: 'gnome',
          include: ['test/gnome/**/*.test.ts'],
          globalSetup: ['test/setup/gnome.ts'],
          setupFiles: [TEMP_FOLDERS],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The KDE suite: a headless KWin of its own, one file at a time.
        test: {
          name: 'kde',
          include: ['test/kde/**/*.test.ts'],
          globalSetup: ['test/setup/kde.ts'],
          setupFiles: [TEMP_FOLDERS],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      // HelperCore's dispatcher built by a real Swift compiler, inside `npm run test:swift` only.
      ...(process.env.MACPILOT_SWIFT_PROBE
        ? [{ test: { name: 'swift', include: ['test/swift/**/*.test.ts'], testTimeout: 30_000 } }]
        : []),
      // The real Swift helper and the end-to-end scenarios on a Mac only (`npm run test:macos` sets
      // MACPILOT_HELPER_PATH): one file at a time, as they share the Mac's screen.
      ...(process.platform === 'darwin'
        ? [
            {
              test: {
                name: 'macos',
                include: ['test/macos/**/*.test.ts'],
                setupFiles: [TEMP_FOLDERS],
                fileParallelism: false,
                testTimeout: 60_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
