// Long trials (random kills, property runs) are soaks: `npm test` runs a short chain of each
// with a fixed seed, so the suite is quick and a failure repeats; `npm run soak` (CDATA_SOAK=1)
// runs the long chains with a new seed each time, printed so a failure can be run again.
// CDATA_SEED=N fixes the seed of either run.

export const SOAK = process.env.CDATA_SOAK === '1';

/** How many trials: `suite` in npm test, `soak` under npm run soak. */
export function trials(suite: number, soak: number): number {
  return SOAK ? soak : suite;
}

/** The seed: CDATA_SEED when set, else `fixed` in npm test and a new one in a soak. */
export function seed(fixed: number): number {
  if (process.env.CDATA_SEED !== undefined) return Number(process.env.CDATA_SEED);
  return SOAK ? Date.now() % 1_000_000 : fixed;
}
