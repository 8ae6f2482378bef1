// Where rendered output goes: stdout, or --out FILE written atomically (the old file stays whole
// if anything fails). `--out /dev/stdout` (or /dev/stderr) is the descriptor itself.
import type { CommandContext } from '../commands/spec.js';
import { UsageError } from '../errors.js';
import { descriptorOf, writeFileAtomic } from './atomic.js';

export async function writeOutput(context: CommandContext, text: string): Promise<void> {
  const path = context.options.out;
  const fd = path === undefined ? 1 : descriptorOf(path);
  if (fd === 1) return void context.io.stdout.write(text);
  if (fd === 2) return void context.io.stderr.write(text);
  if (fd !== undefined) {
    throw new UsageError(`--out ${path}: cdata writes to no descriptor but stdout and stderr`, { hint: fd === 0 ? 'Standard input is no place for output: use --out FILE or >.' : `Redirect stdout there instead: cdata … >&${fd}` });
  }
  try {
    await writeFileAtomic(path!, text, context.io);
  } catch (error) {
    throw cannotWrite(path!, error);
  }
}

/** A file that could not be written (no space, no permission, gone folder): the environment's fault, exit 2. */
export function cannotWrite(path: string, error: unknown): UsageError {
  return new UsageError(`cannot write ${path}: ${(error as Error).message}`, { cause: error });
}
