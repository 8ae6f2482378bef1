// API keys as cdata handles them: checked before anything is stored or sent, and shown only
// masked, as the platform's Developers page lists them (api-reference.md part 5.2).

export const KEY_PREFIX = 'svc_';
const MASK_LENGTH = 12;

/**
 * Why `key` (already trimmed) cannot be an API key, or undefined when it can. The reason never
 * quotes the key: whatever was pasted may be some other secret.
 */
export function keyProblem(key: string): string | undefined {
  if (key === '') return 'the key is empty';
  if (!key.startsWith(KEY_PREFIX)) return `an API key starts with '${KEY_PREFIX}'; this one does not`;
  if (key.length === KEY_PREFIX.length) return `the key holds nothing after '${KEY_PREFIX}'`;
  if (/\s/u.test(key)) return 'the key holds whitespace (was more than one line pasted?)';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(key)) return 'the key holds control characters';
  // Keys travel in an HTTP header: anything beyond printable ASCII was not part of a real key.
  if (/[^\u0021-\u007e]/.test(key)) return 'the key holds characters other than printable ASCII';
  return undefined;
}

/** The first twelve characters and `…`, never more (PRODUCT.md section 4). */
export function maskKey(key: string): string {
  return `${key.slice(0, Math.min(MASK_LENGTH, Math.floor(key.length / 2)))}…`;
}

/** How a key is written wherever it might otherwise appear: traces, errors, echoed answers. */
export const REDACTED_KEY = 'svc_***';

/** Anything shaped like an API key or a webhook signing secret, wherever it was typed. */
// Shaped like a key or a signing secret: the prefix and then at least 16 characters up to a
// space, quote or separator (the reference promises no alphabet, so any of them count, and the
// whole word goes). Shorter words (`svc_prod`, `/srv/svc_etl/x`) are names a user chose and stay.
const SECRET_SHAPES = /\b(svc|whsec)_(?=[^\s'"`,;]{16})[^\s'"`,;]+/g;

/**
 * `text` with every occurrence of each key, and anything shaped like a key or a signing secret,
 * replaced by `svc_***` (`whsec_***`): a secret typed in the wrong place (`--api-key=svc_…`, a
 * key pasted as a command name) is never echoed back in the error about it.
 */
export function redactKeys(text: string, keys: readonly string[]): string {
  const known = keys.reduce((out, key) => (key === '' ? out : out.split(key).join(REDACTED_KEY)), text);
  return known.replace(SECRET_SHAPES, (_match, kind: string) => `${kind}_***`);
}
