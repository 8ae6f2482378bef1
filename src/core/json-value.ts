// JSON values as cdata holds them: numbers a double would change (`1250000.00`, a 20-digit id)
// are kept as their text (json.ts makes them). Types only, apart from json.ts, so that the
// sandbox library's declarations name no package of ours (its answers are JsonValues).

/** A number kept exactly as written: its text in `value` (a lossless-json LosslessNumber). */
export interface ExactNumber {
  readonly value: string;
  toString(): string;
}

export type JsonValue = string | number | boolean | null | ExactNumber | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };
