// How a stored attachment is served. The sender picks its content type and filename, so both are
// hostile input: an HTML or SVG attachment served as `text/html` or `image/svg+xml` runs script on
// this service's origin when a browser opens the download link, and a filename with quotes, CR/LF
// or path separators breaks out of the header or names a file outside the download folder.

// Types a browser shows without running anything. Everything else goes out as bytes.
const PASSIVE_TYPES = new Set([
  'text/plain',
  'text/csv',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'audio/mpeg',
  'video/mp4',
  'application/zip',
]);

/** The type to serve: the declared one (essence only, no parameters) when passive, else octet-stream. */
export function servedContentType(declared: string | null): string {
  const essence = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return PASSIVE_TYPES.has(essence) ? essence : 'application/octet-stream';
}

const MAX_FILENAME = 200;

/**
 * The last path segment of the filename, without control characters, quotes or separators, or
 * null when nothing is left (the header then names no file).
 */
export function safeFilename(name: string | null): string | null {
  if (!name) return null;
  const base = name.split(/[/\\]/).pop()!;
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f-\u009f"]/g, '')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, MAX_FILENAME);
  return cleaned === '' ? null : cleaned;
}

/** The same name in printable ASCII (accents dropped, other letters `_`), for clients that do not read `filename*`. */
export const asciiFallback = (name: string): string =>
  name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_');
