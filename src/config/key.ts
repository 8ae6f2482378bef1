// API keys as cdata handles them: checked before anything is stored or sent, and shown only
// masked, as the platform's Developers page lists them (docs/api-reference.md section 5.2), and redacted
// wherever else they could show: in what a server sends back, in messages, in JSON lines.
import { isJsonObject, setOwn } from '../core/json.js';
import type { JsonValue } from '../core/json-value.js';

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

/**
 * Why `command` cannot be a key command (docs/keys-and-profiles.md), or undefined when it can. A
 * command is not a secret, but a key pasted in its place is, so the reason never quotes it.
 */
export function keyCommandProblem(command: string): string | undefined {
  if (command.trim() === '') return 'the command is empty';
  // No process can be given an argument holding NUL: spawn would throw.
  if (command.includes('\u0000')) return 'the command holds a NUL character';
  if (looksLikeKey(command)) return 'that is an API key, not a command that prints one';
  return undefined;
}

/**
 * A key where a command was expected: `svc_…` alone, as pasted, or quoted as sh would read it
 * (`'svc_…'`, `"svc_…"`, `\svc_…`, even quoted twice): sh would run it as a command's name, and
 * echo it back in its `not found`.
 */
export function looksLikeKey(text: string): boolean {
  return pastedKey(text) !== undefined;
}

/** The key `text` is, once trimmed and unquoted; undefined when it is anything else. */
function pastedKey(text: string): string | undefined {
  let word: string | undefined = text.trim();
  // Each round takes a layer of quotes off, so each is shorter than the last.
  for (let previous = ''; word !== undefined && word !== previous; ) {
    if (word.startsWith(KEY_PREFIX) && keyProblem(word) === undefined) return word;
    previous = word;
    word = shellWord(word);
  }
  return undefined;
}

/**
 * The one word sh reads in `text` with its quoting taken off (single quotes, double quotes, a
 * backslash), or undefined when `text` is not a single plain word: a space, an operator, an
 * expansion or a quote left open outside quotes makes it a command, which is not taken apart.
 */
function shellWord(text: string): string | undefined {
  let word = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word += text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '$' || text[i] === '`') return undefined;
        // In double quotes a backslash quotes only these; elsewhere it stays.
        if (text[i] === '\\' && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1]!)) i++;
        word += text[i];
      }
      if (i >= text.length) return undefined;
    } else if (c === '\\') {
      if (i + 1 >= text.length) return undefined;
      word += text[++i];
    } else if (/[\s|&;<>()$`*?[#~]/.test(c)) {
      return undefined;
    } else {
      word += c;
    }
  }
  return word;
}

/** The first twelve characters and `…`, never more (docs/errors.md). */
export function maskKey(key: string): string {
  return `${key.slice(0, Math.min(MASK_LENGTH, Math.floor(key.length / 2)))}…`;
}

/**
 * A stored key command as cdata shows it: as it is, but a key was pasted in its place (a
 * hand-edited file; `config set` refuses one), masked like any key, and a key written into it
 * (`echo svc_…`, which works, and which the command then holds) redacted, as in traces.
 */
export function shownKeyCommand(command: string): string {
  const key = pastedKey(command);
  return key === undefined ? redactKeys(command, []) : maskKey(key);
}

/** How a key is written wherever it might otherwise appear: traces, errors, echoed answers. */
export const REDACTED_KEY = 'svc_***';

/** Anything shaped like an API key or a webhook signing secret, wherever it was typed. */
// Shaped like a key or a signing secret: the prefix and then at least 16 characters up to a
// space, quote or separator (the reference promises no alphabet, so any of them count, and the
// whole word goes). Shorter words (`svc_prod`, `/srv/svc_etl/x`) are names a user chose and stay.
// At the start of a word, or after a backslash escape: in `printf '\nsvc_…'` it follows `\n`
// (inside a longer word, `etl_svc_exports_nightly`, it is a name the user chose).
const SECRET_SHAPES = /(?:\b|(?<=\\[a-z]))(svc|whsec)_(?=[^\s'"`,;]{16})[^\s'"`,;]+/g;

/**
 * `text` with every occurrence of each key, and anything shaped like a key or a signing secret,
 * replaced by `svc_***` (`whsec_***`): a secret typed in the wrong place (`--api-key=svc_…`, a
 * key pasted as a command name) is never echoed back in the error about it.
 */
export function redactKeys(text: string, keys: readonly string[]): string {
  return redactSecrets(text, keys).replace(SECRET_SHAPES, (_match, kind: string) => `${kind}_***`);
}

/**
 * `text` with each secret replaced whole, whatever characters it holds, wherever it appears: as
 * written, and as a JSON string or a URL would carry it (a server may echo a key in a body or a
 * header either way). The longest first, so a secret that holds another goes whole.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return replaceForms(text, secretForms(secrets));
}

/**
 * The shortest secret redacted from data. A real key or signing secret is far longer (`svc_` and
 * 32 characters); a short one (a development webhook secret `dev`, a test key `x`) would turn
 * every `development` in the data into `svc_***elopment`. Messages redact secrets of any length:
 * their words matter less than data's.
 */
export const MIN_SECRET_IN_DATA = 16;

/**
 * Every string in `value` (keys too) with the secrets of at least MIN_SECRET_IN_DATA characters
 * redacted, in place; `value` is returned.
 */
export function redactSecretsIn<T extends JsonValue>(value: T, secrets: readonly string[]): T {
  const forms = secretForms(secrets.filter((secret) => secret.length >= MIN_SECRET_IN_DATA));
  return forms.length === 0 ? value : (redactValue(value, forms) as T);
}

/**
 * Recursive: values come from parseJson, which refuses nesting past MAX_DEPTH (json.ts). Plain
 * loops: it runs once per answer, mostly before the JIT has looked at it.
 */
function redactValue(value: JsonValue, forms: readonly string[]): JsonValue {
  if (typeof value === 'string') return holdsAny(value, forms) ? replaceForms(value, forms) : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i]!;
      if (typeof item === 'object' ? item !== null : typeof item === 'string' && holdsAny(item, forms))
        value[i] = redactValue(item, forms);
    }
    return value;
  }
  if (!isJsonObject(value)) return value;
  for (const key in value) {
    const item = value[key]!;
    const clean = holdsAny(key, forms) ? replaceForms(key, forms) : key;
    if (clean !== key) delete value[key];
    if (clean !== key || (typeof item === 'object' ? item !== null : typeof item === 'string' && holdsAny(item, forms)))
      setOwn(value, clean, redactValue(item, forms));
  }
  return value;
}

function holdsAny(text: string, forms: readonly string[]): boolean {
  for (let i = 0; i < forms.length; i++) if (text.includes(forms[i]!)) return true;
  return false;
}

function replaceForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(placeholder(form));
  return out;
}

function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    // Blank: refused as a key wherever it is given, and redacting it would turn each space of
    // the message into svc_***. Nor is the prefix every key shares, or a start of it (`svc`), a
    // secret: redacted, each `svc_` in a message would read `svc_***_`. (No such key is sent: each
    // is refused first. A webhook secret that short is left too: it guards nothing.)
    if (secret.trim() === '' || KEY_PREFIX.startsWith(secret)) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    try {
      forms.add(encodeURIComponent(secret));
    } catch {
      // A lone surrogate has no URL form, so no URL carries it that way.
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

const placeholder = (secret: string) => (secret.startsWith('whsec_') ? 'whsec_***' : REDACTED_KEY);
