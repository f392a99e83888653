/** sharp (libvips) loaded on first use: loading it takes about 100 ms, which startup should not pay. */
import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}

/**
 * PNG for screenshots: screens are flat colour and text, so fast deflate without per-row filter search stays
 * small (about 50 KB for a 1280x800 desktop) at a fraction of the default's time.
 */
export const SCREEN_PNG = { compressionLevel: 2, adaptiveFiltering: false } as const;
