// API text is untrusted (tender titles come from public notices). Before it reaches a terminal
// (table, tsv, any stderr message) every character that could move the cursor, recolour, set a
// hyperlink or the clipboard, or reorder the line is shown escaped instead: C0 controls, DEL,
// C1 controls (which include the 8-bit CSI and OSC), bidirectional overrides and isolates, line
// and paragraph separators, and lone surrogates. ESC is escaped, so no sequence survives.

const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const UNSAFE_OR_BACKSLASH = new RegExp(`\\\\|${UNSAFE.source}`, 'g');

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r', '\\': '\\\\' };

function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text safe to show on a terminal: unsafe characters become `\t`, `\n`, `\x1b`, `\u202e`… */
export function sanitize(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** A text's own lines (CRLF, CR or LF), each made safe: its line breaks kept, nothing else raw. */
export function sanitizedLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).map(sanitize);
}

/**
 * JSON text for a terminal (the error line on stderr): JSON.stringify escapes C0 but leaves DEL,
 * C1 and the bidi controls raw, so those become `\u0085`-style escapes: the same JSON, made safe.
 */
export function sanitizeJson(json: string): string {
  return json.replace(JSON_RAW_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * What JSON.stringify leaves raw that a terminal may act on: DEL, C1 controls, bidirectional
 * overrides and isolates, line and paragraph separators. (It escapes C0 and lone surrogates
 * itself, and a pretty-printed document's own newlines must stay.)
 */
const JSON_RAW_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A TSV field: as `sanitize`, and backslash doubled first, so the escaping is reversible:
 * `\\` `\t` `\n` `\r` `\xHH` `\uHHHH` (see unescapeTsv).
 */
export function escapeTsv(text: string): string {
  return text.replace(UNSAFE_OR_BACKSLASH, escapeChar);
}

/** The inverse of escapeTsv, for scripts and tests that read cdata's TSV. */
export function unescapeTsv(field: string): string {
  return field.replace(
    /\\(?:x([0-9a-f]{2})|u([0-9a-f]{4})|(.))/g,
    (_match, hex2?: string, hex4?: string, char?: string) => {
      if (hex2 ?? hex4) return String.fromCharCode(parseInt((hex2 ?? hex4)!, 16));
      return ({ t: '\t', n: '\n', r: '\r', '\\': '\\' } as Record<string, string>)[char!] ?? `\\${char}`;
    },
  );
}
