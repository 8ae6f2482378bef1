// No folder for the config: HOME unset (or relative) and no home for the uid in the user
// database, as in a container run under a uid of its own (`docker run --user 12345`). Commands
// that need no config run; writing one is exit 2, saying why (src/config/paths.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoKey } from '../../src/sandbox/keys.js';
import { run } from '../helpers/run.js';

const os = process.getBuiltinModule('node:os');
const uid = process.getuid?.();

describe('no folder for the config: HOME unset and no home in the user database', () => {
  beforeEach(() => {
    vi.spyOn(os, 'userInfo').mockImplementation(() => {
      throw new Error('A system error occurred: uv_os_get_passwd returned ENOENT (no such file or directory)');
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const noHome = { CDATA_CONFIG_DIR: undefined, HOME: undefined, XDG_CONFIG_HOME: undefined };

  it('commands that need no config run (--sandbox); auth status says there is no config file', async () => {
    const sandbox = await run(['--sandbox', 'workspaces', '-o', 'json'], { env: noHome });
    expect(sandbox).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(sandbox.stdout)).toHaveLength(3);
    const status = await run(['--sandbox', 'auth', 'status', '-o', 'json'], { env: noHome });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ configFile: null, configFileExists: false });
  });

  it('writing a config is exit 2, saying why and what to set, not an internal error', async () => {
    const login = await run(['auth', 'login', '--base-url', 'http://127.0.0.1:1'], {
      env: noHome,
      stdin: demoKey('all'),
    });
    expect(login.code).toBe(2);
    expect(login.stderr).toBe(
      `error: no folder for the config file: HOME is unset, and user ${uid} has no home folder in the user database\n` +
        'hint: Set CDATA_CONFIG_DIR to the folder that holds (or is to hold) the config, or set HOME.\n',
    );
  });

  it('a relative HOME is not taken instead: the keys would follow the current folder', async () => {
    const path = await run(['config', 'path'], { env: { ...noHome, HOME: 'relative' } });
    expect(path.code).toBe(2);
    expect(path.stdout).toBe('');
    expect(path.stderr).toContain(
      `error: no folder for the config file: HOME is not an absolute path, and user ${uid} has no home folder in the user database\n`,
    );
  });
});
