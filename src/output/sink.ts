// Where rendered output goes: stdout, or --out FILE written atomically (the old file stays whole
// if anything fails). `--out /dev/stdout` (or /dev/stderr, /dev/fd/N) is the descriptor itself.
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { descriptorOf, writeFileAtomic, writeInherited } from './atomic.js';

/** Writes `text` to stdout, or to `path` (--out) when given. */
export async function writeOutput(io: Io, path: string | undefined, text: string): Promise<void> {
  const fd = path === undefined ? 1 : descriptorOf(path);
  if (fd === 1) return void io.stdout.write(text);
  if (fd === 2) return void io.stderr.write(text);
  if (fd === 0) throw new UsageError(`--out ${path}: standard input is no place for output`);
  try {
    await (fd === undefined ? writeFileAtomic(path!, text, io) : writeInherited(fd, text));
  } catch (error) {
    throw cannotWrite(path!, error);
  }
}

/** A file that could not be written (no space, no permission, gone folder): the environment's fault, exit 2. */
export function cannotWrite(path: string, error: unknown): UsageError {
  return new UsageError(`cannot write ${path}: ${(error as Error).message}`, { cause: error });
}
