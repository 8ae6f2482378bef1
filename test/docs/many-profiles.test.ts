// docs/many-profiles.md's shard hash: its table of worked values and its sh function agree with
// cdata's. Its recipes, run with sh against the sandbox: many-profiles.heavy.test.ts.
import { describe, expect, it } from 'vitest';
import { fnv1a32, shardOf } from '../../src/export/profiles/shard.js';
import { runProcess } from '../helpers/spawn.js';
import { block, docs } from './many-profiles-doc.js';

describe('docs/many-profiles.md', () => {
  it('the hash: each worked value is what cdata computes, and the sh function agrees with cdata', async () => {
    const rows = [...docs.matchAll(/^\| `([a-z0-9_-]+)` \| (\d+) \| (\d) \| (\d) \|$/gm)];
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const [, name, hash, four, three] of rows) {
      expect([fnv1a32(name!), shardOf(name!, 4), shardOf(name!, 3)]).toEqual([
        Number(hash),
        Number(four),
        Number(three),
      ]);
    }
    const fn = block('The hash', 'sh');
    const names = [
      'client-a',
      'acme',
      'default',
      'x',
      'shop_12',
      'a-very-long-profile-name-of-sixty-four-characters-0123456789abc',
    ];
    const script = `${fn.replace(/^shard client-a 4.*$/m, '')}\nfor name in ${names.join(' ')}; do shard "$name" 7; done`;
    const result = await runProcess('sh', ['-c', script]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trim().split('\n').map(Number)).toEqual(names.map((name) => shardOf(name, 7)));
    expect(fn).toContain(`shard client-a 4    # ${shardOf('client-a', 4)}`);
  });
});
