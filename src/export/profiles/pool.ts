// A fixed number of workers over a list: what is in progress at any moment (and so what is in
// memory) is bounded by the workers, not by the length of the list.

/** Runs `work` for each item, at most `size` at once, started in the items' order. `work` must not reject. */
export async function eachAtMost<T>(
  items: readonly T[],
  size: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}
