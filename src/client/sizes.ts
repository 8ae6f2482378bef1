// How much of an answer cdata reads (transport.ts reads it). A module without the HTTP client, so
// that code which only needs a size (an export folder's reader) loads no undici.

/**
 * Bodies above this are refused (exit 7): the largest real answer (200 rows) is ~100 KB. With it,
 * peak memory stays within a few times the cap (docs/limits.md, `npm run bench`).
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/**
 * An error answer's body is read this far, and past it not at all: a problem+json body is a few
 * hundred bytes, and a 401 with 30 MiB of text is still a 401 (its status and headers speak).
 */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * A success's body past this is large (the largest real answer is ~100 KB): its reading waits for
 * the request's `large` turn, if it has one, so that a caller fetching many lists at once holds
 * one large answer at a time (src/commands/export/run.ts), not all of them.
 */
export const LARGE_BODY_BYTES = 1024 * 1024;
