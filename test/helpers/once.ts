// Runs whose output is the same each time (every sandbox serves the same day's data), kept by
// what was asked, so that a run several tests compare with is made once (the suite's time).

/** A memo for one test file: `once(key, run)` runs `run` for the first `key` like it, then answers from it. */
export function memo(): <T>(key: unknown[], run: () => Promise<T>) => Promise<T> {
  const seen = new Map<string, Promise<unknown>>();
  return <T>(key: unknown[], run: () => Promise<T>) => {
    const text = JSON.stringify(key);
    if (!seen.has(text)) seen.set(text, run());
    return seen.get(text) as Promise<T>;
  };
}
