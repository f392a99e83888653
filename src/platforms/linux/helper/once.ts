/** Starts something once per session: later calls share the first start, and a start that failed is tried again. */
export async function oncePer<K extends object>(
  started: WeakMap<K, Promise<void>>,
  key: K,
  start: () => Promise<void>,
): Promise<void> {
  let starting = started.get(key);
  if (!starting) {
    starting = start();
    started.set(key, starting);
    starting.catch(() => started.delete(key));
  }
  await starting;
}
