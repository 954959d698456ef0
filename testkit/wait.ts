/** Polls until `check` returns a truthy value, or fails with `message` after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T> | T, message: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${message}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
