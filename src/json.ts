// JSON that keeps numbers exactly as the API wrote them (`1250000.00` stays `1250000.00`, a
// 20-digit id keeps its digits). Every body cdata reads goes through parseJson, and json/ndjson
// output goes through stringifyJson, so `-o json` prints what the API returned.
import { LosslessNumber, isLosslessNumber, parse, stringify } from 'lossless-json';

export { LosslessNumber as JsonNumber, isLosslessNumber as isJsonNumber };

export type JsonValue = string | number | boolean | null | LosslessNumber | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function parseJson(text: string): JsonValue {
  return parse(text, null, (lexeme) => new LosslessNumber(lexeme)) as JsonValue;
}

export function stringifyJson(value: unknown, indent?: number): string {
  return stringify(value, null, indent) ?? 'null';
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}
