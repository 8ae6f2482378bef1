// Where rendered output goes: stdout, or --out FILE written atomically (the old file stays whole
// if anything fails).
import type { CommandContext } from '../commands/spec.js';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from './atomic.js';

export async function writeOutput(context: CommandContext, text: string): Promise<void> {
  const path = context.options.out;
  if (path === undefined) {
    context.io.stdout.write(text);
    return;
  }
  try {
    await writeFileAtomic(path, text, context.io);
  } catch (error) {
    throw cannotWrite(path, error);
  }
}

/** A file that could not be written (no space, no permission, gone folder): the environment's fault, exit 2. */
export function cannotWrite(path: string, error: unknown): UsageError {
  return new UsageError(`cannot write ${path}: ${(error as Error).message}`, { cause: error });
}
