// docs/many-profiles.md as written: the recipes run with sh against the sandbox, their paths
// moved into a scratch folder: several cron hosts, xargs -P, and the Kubernetes CronJob, whose
// pods are played by running its container's command once per JOB_COMPLETION_INDEX with the
// ConfigMap and the Secret laid out as the kubelet mounts them. Heavy (npm run test:heavy): each
// recipe starts a dozen processes or more. Its shard hash: many-profiles.test.ts.
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoKey } from '../../src/sandbox/keys.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { scratch } from '../faults/scratch.js';
import { clientName, fleet, readRecord, writeProfiles } from '../export/fleet.js';
import { BIN, runProcess } from '../helpers/spawn.js';
import { block, docs } from './many-profiles-doc.js';

const folder = scratch('cdata-many-profiles');
/** A spawned cdata's limit: these recipes start several, and a loaded machine is slow to. */
const SLOW = 50_000;
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function sandbox(): Promise<Sandbox> {
  const started = await startSandbox();
  open.push(started);
  return started;
}

/** A PATH with cdata (and node, which it starts with) and the system's tools. */
function pathWithCdata(): string {
  const bin = join(folder(), 'bin');
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'cdata'));
  return [bin, dirname(process.execPath), process.env.PATH].join(':');
}

/** Every profile's folder under `dir`, and the profiles the run records there name, each once. */
function exportedOnce(dir: string, records: string[]): string[] {
  const named = records.flatMap((name) => readRecord(dir, name).profiles.map((p) => p.profile));
  expect(new Set(named).size).toBe(named.length);
  const folders = readdirSync(dir).filter((name) => !name.endsWith('.json'));
  expect(folders.sort()).toEqual([...named].sort());
  return folders.sort();
}

describe('docs/many-profiles.md', () => {
  it("several cron hosts: each host's line, run once each, exports every profile once", async () => {
    const api = await sandbox();
    const config = folder();
    writeProfiles(config, fleet(api.url, 12));
    const dir = join(folder(), 'exports');
    const crontab = block('Several cron hosts', '');
    const line = /^\*\/20 \* \* \* \* (.*)$/m.exec(crontab)![1]!;
    expect(line).toContain('--shard 1/3');
    const path = pathWithCdata();
    for (const i of [1, 2, 3]) {
      const command = line.replaceAll('1/3', `${i}/3`).replaceAll('/srv/exports', dir);
      const result = await runProcess('sh', ['-c', command], {
        env: { PATH: path, CDATA_CONFIG_DIR: config },
        timeoutMs: SLOW,
      });
      expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    expect(exportedOnce(dir, ['run-1-of-3.json', 'run-2-of-3.json', 'run-3-of-3.json'])).toEqual(
      Array.from({ length: 12 }, (_, i) => clientName(i + 1)),
    );
  }, 120_000);

  it('xargs -P: four shards at once export every profile once', async () => {
    const api = await sandbox();
    const config = folder();
    writeProfiles(config, fleet(api.url, 16));
    const dir = join(folder(), 'exports');
    const script = block('xargs -P on one machine', 'sh').replaceAll('/srv/exports', dir);
    const result = await runProcess('sh', ['-c', script], {
      env: { PATH: pathWithCdata(), CDATA_CONFIG_DIR: config },
      timeoutMs: SLOW,
    });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(
      exportedOnce(
        dir,
        [1, 2, 3, 4].map((i) => `run-${i}-of-4.json`),
      ),
    ).toHaveLength(16);
    // The exit code a failing shard gives xargs, as the docs say.
    expect(docs).toContain('`xargs` exits 123 when any shard did not exit 0');
  }, 120_000);

  it('the Kubernetes CronJob: the config made as shown, one pod per index, every profile once with its key from the Secret', async () => {
    const api = await sandbox();
    const work = folder();
    const keys = join(work, 'secret-keys');
    const path = pathWithCdata();
    const moved = (text: string) =>
      text.replaceAll('https://api.example.com', api.url).replaceAll('/var/run/secrets/cdata', keys);

    // The config, made with cdata as the docs show (kubectl, which needs a cluster, left out).
    const setup = block('A Kubernetes CronJob', 'sh');
    const made = await runProcess('sh', ['-c', moved(setup.replace(/^kubectl .*$/gm, ''))], {
      env: { PATH: path },
      cwd: work,
      timeoutMs: SLOW,
    });
    expect(made).toMatchObject({ code: 0, stdout: '' });
    const names = /for name in ([a-z0-9 -]+); do/.exec(setup)![1]!.split(' ');
    expect(setup).toContain(
      `kubectl create secret generic cdata-keys ${names.map((n) => `--from-file=${n}=./keys/${n}`).join(' ')}`,
    );

    const manifest = block('A Kubernetes CronJob', 'yaml');
    const field = (name: string) => new RegExp(`^\\s+${name}: (.+)$`, 'm').exec(manifest)?.[1];
    expect(field('completionMode')).toBe('Indexed');
    const shards = Number(field('completions'));
    expect(field('parallelism')).toBe(String(shards));
    const command = /args:\n\s+- (exec cdata .*)$/m.exec(manifest)![1]!;
    expect(command).toContain(`--shard "$((JOB_COMPLETION_INDEX + 1))/${shards}"`);
    const configDir = /- name: CDATA_CONFIG_DIR\n\s+value: (\S+)/.exec(manifest)![1]!;
    const mount = (volume: string) => new RegExp(`- name: ${volume}\\n\\s+mountPath: (\\S+)`).exec(manifest)![1]!;
    expect(mount('config')).toBe(configDir);
    expect(mount('keys')).toBe('/var/run/secrets/cdata');
    expect(command).toContain(`--dir ${mount('exports')} `);
    expect(manifest).toMatch(/configMap:\n\s+name: cdata-config\n/);
    expect(manifest).toMatch(/secret:\n\s+secretName: cdata-keys\n/);

    // The volumes as the kubelet lays them out: each file a link through ..data, read-only to the group.
    const projected = (dir: string, files: Record<string, string>) => {
      const generation = join(dir, '..2026_11_22_06_00_00.1');
      mkdirSync(generation, { recursive: true });
      for (const [name, content] of Object.entries(files)) {
        writeFileSync(join(generation, name), content);
        chmodSync(join(generation, name), 0o440);
        symlinkSync(join('..data', name), join(dir, name));
      }
      symlinkSync('..2026_11_22_06_00_00.1', join(dir, '..data'));
    };
    const etc = join(work, 'etc-cdata');
    projected(etc, { 'config.json': readFileSync(join(work, 'k8s', 'config.json'), 'utf8') });
    projected(keys, Object.fromEntries(names.map((n) => [n, `${demoKey('all')}\n`])));
    const exports = join(work, 'exports');
    mkdirSync(exports);

    for (let index = 0; index < shards; index++) {
      const pod = await runProcess(
        '/bin/sh',
        ['-c', command.replace(`--dir ${mount('exports')} `, `--dir ${exports} `)],
        {
          env: { PATH: path, CDATA_CONFIG_DIR: etc, JOB_COMPLETION_INDEX: String(index) },
          timeoutMs: SLOW,
        },
      );
      expect(pod).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    const records = Array.from({ length: shards }, (_, i) => `run-${i + 1}-of-${shards}.json`);
    expect(exportedOnce(exports, records)).toEqual(names);
    for (const name of names)
      expect(readFileSync(join(exports, name, 'manifest.json'), 'utf8')).toContain('"ok": true');
    expect(api.requests.filter((r) => r.status !== 200)).toEqual([]);
  }, 120_000);
});
