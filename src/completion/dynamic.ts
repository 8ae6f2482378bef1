// `cdata __complete profiles`: values that only the config file knows, for completion scripts
// at every TAB. No network, no commander, no conf: a plain read of the config file. A missing
// or broken file completes nothing and says nothing (the next real command will report it).
import { readConfig } from '../config/read.js';
import type { Io } from '../io/index.js';

export function completeDynamic(argv: readonly string[], io: Io): number {
  if (argv[0] !== 'profiles') return 2;
  try {
    const names = Object.keys(readConfig(io.env).data.profiles).sort();
    if (names.length > 0) io.stdout.write(`${names.join('\n')}\n`);
  } catch {
    // Unreadable config: offer nothing rather than an error in the middle of the command line.
  }
  return 0;
}
