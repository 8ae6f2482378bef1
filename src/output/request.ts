// What render() is asked to print (src/output/render.ts), in its own module so that each format's
// module can take it without importing the renderer that loads them.
import type { Format } from '../config/schema.js';
import type { View } from '../core/endpoints.js';
import type { JsonValue } from '../core/json-value.js';
import type { ColorLevel } from './color.js';

export interface RenderRequest {
  view: View;
  data: JsonValue;
  format: Format;
  /** --fields, already validated; undefined means the format's default. */
  fields: readonly string[] | undefined;
  header: boolean;
  bom: boolean;
  color: ColorLevel;
  /** The local date past-due dates are told by (tones.ts), where colour shows them. */
  today?: string | undefined;
  /** Terminal width for tables; undefined: natural widths. */
  width: number | undefined;
  /**
   * The text goes to a terminal: CSV then shows control characters escaped, as tables do (CSV
   * has no escape of its own, so a file or a pipe gets the data exactly as sent).
   */
  terminal?: boolean;
  /** Told the fields of the table columns dropped to fit the width, if any were. */
  onDropped?: ((fields: string[]) => void) | undefined;
}
