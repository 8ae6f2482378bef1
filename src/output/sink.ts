// Where rendered output goes: stdout, or --out FILE written atomically (the old file stays whole
// if anything fails).
import type { CommandContext } from '../commands/spec.js';
import { UsageError } from '../errors.js';
import { writeFileAtomic } from './atomic.js';

export function writeOutput(context: CommandContext, text: string): void {
  const path = context.options.out;
  if (path === undefined) {
    context.io.stdout.write(text);
    return;
  }
  try {
    writeFileAtomic(path, text, context.io);
  } catch (error) {
    throw new UsageError(`cannot write ${path}: ${(error as Error).message}`, { cause: error });
  }
}
