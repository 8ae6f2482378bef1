// Two real cdata processes changing the store at the same time, over and over, while the file
// is watched: every change survives (or a writer reports a clear error), and the file is always
// whole JSON.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { trials } from '../helpers/soak.js';
import { runBin, type SpawnResult } from '../helpers/spawn.js';
import { configHome, expectNoKey } from '../auth/harness.js';

/** Rounds per writer: a short chain in npm test, a long one under npm run soak (test/helpers/soak.ts). */
const ROUNDS = trials(4, 24);

describe('two processes writing the config at once', () => {
  it('lose no update and never leave a broken file', async () => {
    const home = configHome();
    const results: SpawnResult[] = [];
    // Each writer adds a profile per round (a lost update would lose a whole profile) and
    // changes a setting of a profile both share (a lost update would lose the other's setting).
    const writer = async (name: string, shared: string[]) => {
      for (let round = 1; round <= ROUNDS; round++) {
        results.push(
          await runBin(['-p', `${name}${round}`, 'config', 'set', 'timeout', String(round)], { env: home.env }),
        );
        results.push(await runBin(['-p', 'shared', 'config', 'set', ...shared], { env: home.env }));
      }
    };

    let watching = true;
    const seen: string[] = [];
    const watch = (async () => {
      while (watching) {
        if (existsSync(home.file)) {
          const text = readFileSync(home.file, 'utf8');
          seen.push(text);
          JSON.parse(text); // throws (failing the test) on a partial or corrupt file
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await Promise.all([writer('a', ['timeout', '7']), writer('b', ['output', 'json'])]);
    watching = false;
    await watch;

    expect(seen.length).toBeGreaterThan(10);
    for (const result of results) {
      expectNoKey(result);
      if (result.code !== 0) expect(result.stderr).toMatch(/^error: the config file is locked by another cdata/);
    }
    const ok = results.filter((result) => result.code === 0).length;
    expect(ok).toBe(results.length); // the lock waits up to ~5 s; a write takes milliseconds
    const profiles = home.read().profiles as Record<string, { timeout?: number; output?: string }>;
    for (let round = 1; round <= ROUNDS; round++) {
      expect(profiles[`a${round}`]).toEqual({ timeout: round });
      expect(profiles[`b${round}`]).toEqual({ timeout: round });
    }
    expect(profiles.shared).toEqual({ timeout: 7, output: 'json' });
    expect(readdirSync(home.dir)).toEqual(['config.json']);
    // 24 start-ups, two at a time (96 in a soak): 48 took 19 s in a full run on a busy machine.
  }, 240_000);
});
