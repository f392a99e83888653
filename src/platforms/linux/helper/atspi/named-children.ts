/**
 * A search through a long container (a list of thousands of rows): each child's name alone is read, in
 * batches so that the app answers other callers between them, and only the children whose name holds the text
 * (or is empty: a web list item's text is in its own children) are read in full. Ten thousand GTK3 rows cost
 * about 0.6 s this way, against 3 s read in full.
 */
import type { Bus } from '../../dbus/bus.js';
import { getChildren } from './atspi.js';
import type { Ref } from './handles.js';

/** Names asked for at once: the app answers a batch, then whoever else is waiting. */
const BATCH = 500;

const folded = (text: string): string => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The children of `container` whose name holds `text`, or is empty. */
export async function childrenNamed(
  bus: Bus,
  container: Ref,
  text: string,
  signal?: AbortSignal,
): Promise<Ref[]> {
  const wanted = folded(text);
  const children = await getChildren(bus, container);
  const kept: Ref[] = [];
  for (let start = 0; start < children.length; start += BATCH) {
    signal?.throwIfAborted();
    const batch = children.slice(start, start + BATCH);
    const names = await Promise.all(
      batch.map((child) =>
        bus
          .call(child.bus, child.path, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [
            'org.a11y.atspi.Accessible',
            'Name',
          ])
          .then(([name]) => (typeof name === 'string' ? name : ''))
          .catch(() => undefined),
      ),
    );
    batch.forEach((child, i) => {
      const name = names[i];
      if (name !== undefined && (name.trim() === '' || folded(name).includes(wanted))) kept.push(child);
    });
  }
  return kept;
}
