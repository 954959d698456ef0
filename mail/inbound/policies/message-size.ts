// SIZE (RFC 1870): the limit is advertised in EHLO, a MAIL FROM declaring more is refused, and
// a message that turns out larger is answered 552 after DATA and never stored.
export const MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/** Collects DATA up to the limit; past it, the chunks are dropped (the reply will be 552). */
export function boundedCollector(limit: number = MAX_MESSAGE_BYTES) {
  const chunks: Buffer[] = [];
  let bytes = 0;
  return {
    push(chunk: Buffer): void {
      bytes += chunk.length;
      if (bytes <= limit) chunks.push(chunk);
    },
    oversized: () => bytes > limit,
    bytes: () => bytes,
    take: (): Buffer => Buffer.concat(chunks, bytes),
  };
}
