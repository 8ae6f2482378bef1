// Start-up on every supported Node line: nothing from the runtime on stderr (no V8 flag this Node
// does not know, no warning). How it starts (bin/start-up.cjs: the compile cache, each V8 flag,
// an older Node refused) is start-up.heavy.test.ts. CI runs both on Node 20, 22, 24 and 26.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runBin } from '../helpers/spawn.js';
import { scratch } from '../faults/scratch.js';

const folder = scratch('cdata-start-up');

it('says nothing of its own on stderr: a list, an export under -q, a query', async () => {
  const env = { CDATA_CONFIG_DIR: folder() };
  const list = await runBin(['--sandbox', 'tenders', '-o', 'json'], { env });
  expect([list.code, list.stderr]).toEqual([0, '']);
  expect(JSON.parse(list.stdout)).toHaveLength(64);
  const exported = await runBin(['--sandbox', 'export', '--dir', join(folder(), 'out'), '-q'], { env });
  expect([exported.code, exported.stderr, exported.stdout]).toEqual([0, '', '']);
  const query = await runBin(['--sandbox', 'tenders', '--query', 'length(@)'], { env });
  expect([query.code, query.stderr, query.stdout]).toEqual([0, '', '64\n']);
});
