// One large answer at a time (issue 29): an export asks for every list at once, so that it takes
// about as long as its slowest list; but a list whose answer is large (past LARGE_BODY_BYTES,
// src/client/transport.ts) waits for its turn before the rest of its body is read, and keeps it
// until its file, state and changes are written. Peak memory is then bounded by the largest
// answer, not by the sum of them; real answers (~100 KB) never wait.

/**
 * A list's claim on a turn: `large` waits for it (once, however often called); `taken` says
 * whether it was asked for; `done` gives it up, and says whether it was taken.
 */
export interface Turn {
  large: () => Promise<void>;
  taken: () => boolean;
  done: () => boolean;
}

export class Turns {
  private last: Promise<void> = Promise.resolve();

  claim(): Turn {
    let taken: Promise<void> | undefined;
    let release: (() => void) | undefined;
    let done = false;
    return {
      large: () => {
        if (done) return Promise.resolve();
        taken ??= this.take().then((give) => {
          release = give;
        });
        return taken;
      },
      taken: () => taken !== undefined,
      done: () => {
        done = true;
        release?.();
        // A turn still to come is given up as soon as it comes.
        if (taken && !release) void taken.then(() => release?.());
        return taken !== undefined;
      },
    };
  }

  private take(): Promise<() => void> {
    let give!: () => void;
    const mine = new Promise<void>((resolve) => (give = resolve));
    const before = this.last;
    this.last = before.then(() => mine);
    return before.then(() => give);
  }
}
