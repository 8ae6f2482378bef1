// A full garbage collection, asked for where a command has just let go of a large answer
// (src/commands/export/run.ts, after each large list): V8 would otherwise let the garbage of several
// large lists pile up before it collects, and peak memory would follow their sum rather than the
// largest one. `--expose-gc` is known to every supported Node line (20, 22, 24); it is set only
// here, on first use, so commands that never hold a large answer run exactly as before.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
