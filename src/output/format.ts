// Which format a data command prints: one rule for every command that prints data.
import type { Settings } from '../config/resolve.js';
import type { Format } from '../config/schema.js';
import type { OutStream } from '../io/index.js';

/**
 * -o/--json, else the extension of --out (.csv, .tsv, .json, .ndjson, .jsonl), else the profile's
 * output, else table on a terminal and tsv in a pipe.
 */
export function outputFormat(output: Settings['output'], out: string | undefined, stdout: OutStream): Format {
  if (output.source === 'flag' && output.value) return output.value;
  const byExtension = formatOfFile(out);
  if (byExtension) return byExtension;
  if (output.value) return output.value;
  return out === undefined && stdout.isTTY ? 'table' : 'tsv';
}

const EXTENSIONS: Record<string, Format> = { csv: 'csv', tsv: 'tsv', json: 'json', ndjson: 'ndjson', jsonl: 'ndjson' };

function formatOfFile(path: string | undefined): Format | undefined {
  const extension = path === undefined ? undefined : /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : EXTENSIONS[extension];
}
