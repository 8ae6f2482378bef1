// Preloaded into the built cdata by test/export/crash.heavy.test.ts (node -r): the process kills itself
// with SIGKILL, as a power cut would stop it, just before the CDATA_CRASH_AT-th change it makes
// under CDATA_CRASH_DIR (a folder or file made, written, linked, renamed or removed). With
// CDATA_CRASH_AT=0 it never does, and at exit writes the changes it made, one `syscall path` a
// line, to CDATA_CRASH_LOG, so the test knows the points to walk.
'use strict';
const fs = require('node:fs');
const { syncBuiltinESMExports } = require('node:module');

const dir = process.env.CDATA_CRASH_DIR;
const at = Number(process.env.CDATA_CRASH_AT);
const logFile = process.env.CDATA_CRASH_LOG;
const original = { ...fs };
const opened = new Map();
const changes = [];

function change(syscall, path) {
  if (typeof path !== 'string' || !path.startsWith(`${dir}/`)) return;
  changes.push(`${syscall} ${path}`);
  if (changes.length === at) process.kill(process.pid, 'SIGKILL');
}

const creates = (flags) =>
  typeof flags === 'string' ? /[wax]/.test(flags) : typeof flags === 'number' && (flags & fs.constants.O_CREAT) !== 0;
const at1 =
  (name) =>
  (...args) => (change(name, String(args[1])), original[name](...args));
const at0 =
  (name) =>
  (...args) => (
    change(name, typeof args[0] === 'number' ? opened.get(args[0]) : String(args[0])), original[name](...args)
  );

/** A removal of nothing (rmSync with force, to be sure) changes nothing: no crash point. */
const removal =
  (name) =>
  (path, ...rest) => {
    if (original.lstatSync(path, { throwIfNoEntry: false })) change(name, String(path));
    return original[name](path, ...rest);
  };

Object.assign(fs, {
  mkdirSync: at0('mkdirSync'),
  rmSync: removal('rmSync'),
  unlinkSync: removal('unlinkSync'),
  writeFileSync: at0('writeFileSync'),
  writeSync: at0('writeSync'),
  symlinkSync: at1('symlinkSync'),
  linkSync: at1('linkSync'),
  copyFileSync: at1('copyFileSync'),
  renameSync: at1('renameSync'),
  openSync(path, flags, mode) {
    if (creates(flags)) change('openSync', String(path));
    const fd = original.openSync(path, flags, mode);
    opened.set(fd, String(path));
    return fd;
  },
});
const open = fs.promises.open;
fs.promises.open = async (path, ...rest) => {
  const handle = await open(path, ...rest);
  const writeFile = handle.writeFile.bind(handle);
  handle.writeFile = (...args) => (change('writeFile', String(path)), writeFile(...args));
  return handle;
};
syncBuiltinESMExports();

if (logFile) process.on('exit', () => original.writeFileSync(logFile, changes.map((line) => `${line}\n`).join('')));
