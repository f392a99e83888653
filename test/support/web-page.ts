/** The test pages of test/fixtures/web, as both browsers' tests open and drive them. */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Macpilot } from './mcp.js';
import { refOf } from './text.js';

/** A page of test/fixtures/web, as a file: URL. */
export const webPage = (name: string): string =>
  pathToFileURL(join(import.meta.dirname, '..', 'fixtures', 'web', name)).href;

/** The order form's "Place order" button clicked: click_element's answer. */
export async function placeOrder(macpilot: Macpilot, app: string): Promise<string> {
  const place = await macpilot.ok('find_elements', {
    app,
    role: 'button',
    name: 'Place order',
    match: 'exact',
  });
  return macpilot.ok('click_element', { ref: refOf(place, /button "Place order"/) });
}

/** The order form's button far down the page, found off screen and scrolled to: its ref. */
export async function scrolledToFarButton(macpilot: Macpilot, app: string): Promise<string> {
  const far = await macpilot.ok('find_elements', {
    app,
    role: 'button',
    name: 'Far away button',
    match: 'exact',
    include_hidden: true,
  });
  const ref = refOf(far, /button "Far away button"/);
  await macpilot.ok('scroll_to_element', { ref });
  return ref;
}
