/** Reading tool output the way an agent does. */

/** The ref on the first line that matches, e.g. refOf(out, /button "OK"/) → "e12". */
export function refOf(output: string, line: RegExp): string {
  const found = output.split('\n').find((l) => line.test(l) && /\[ref=e\d+\]/.test(l));
  const ref = found && /\[ref=(e\d+)\]/.exec(found)?.[1];
  if (!ref) throw new Error(`no line matching ${line} with a ref in:\n${output}`);
  return ref;
}

/** What read() gives once it is `expected`, or as it is when eventually() gives up (for the assertion to show). */
export async function settled<T>(read: () => Promise<T>, expected: T): Promise<T> {
  return eventually(`the value ${String(expected)}`, async () =>
    (await read()) === expected ? expected : undefined,
  ).catch(read);
}

/** Polls until check() returns a value (not undefined), or fails after timeoutMs. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 15000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
