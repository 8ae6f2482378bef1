// Where `auth login` gets the key: all of stdin when it is a pipe or file, else a prompt on the
// terminal with echo off (raw mode), so the key never shows on screen, in scrollback or in a
// screen recording. Never argv: shell history and process lists would keep it.
import { StringDecoder } from 'node:string_decoder';
import { UsageError } from '../../core/errors.js';
import { readStdin, type InStream, type Io } from '../../io/index.js';

/** More than any key; a larger stdin is some file piped by mistake. */
const MAX_STDIN_BYTES = 64 * 1024;

const ENTER = new Set(['\r', '\n']);
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const BACKSPACE = new Set(['\u007f', '\b']);

/** The text entered, untrimmed; undefined when the user pressed Ctrl-C at the prompt. */
export async function readKey(
  io: Pick<Io, 'stdin' | 'stderr' | 'onInterrupt'>,
  prompt: string,
): Promise<string | undefined> {
  return io.stdin.isTTY ? promptHidden(io, prompt) : readAll(io.stdin);
}

async function readAll(stdin: InStream): Promise<string> {
  const bytes = await readStdin(stdin, MAX_STDIN_BYTES);
  if (!bytes)
    throw new UsageError(`more than ${MAX_STDIN_BYTES / 1024} KiB on stdin: that is not an API key; nothing stored`);
  return bytes.toString('utf8');
}

function promptHidden(io: Pick<Io, 'stdin' | 'stderr' | 'onInterrupt'>, prompt: string): Promise<string | undefined> {
  const { stdin, stderr } = io;
  const { setRawMode, on, removeListener } = stdin;
  if (!setRawMode || !on || !removeListener) {
    throw new UsageError('cannot turn off echo on this terminal to read the key', {
      hint: 'Pipe the key instead: echo "$KEY" | cdata auth login',
    });
  }
  return new Promise((resolve) => {
    const decoder = new StringDecoder('utf8');
    let typed = '';
    const restore = () => {
      removeListener.call(stdin, 'data', onData);
      setRawMode.call(stdin, false);
      stdin.pause?.();
    };
    const unregister = io.onInterrupt(restore);
    const finish = (value: string | undefined) => {
      unregister();
      restore();
      stderr.write('\n');
      resolve(value);
    };
    // In raw mode the terminal sends keys as typed (Enter is CR, Ctrl-C a byte, not SIGINT), so the
    // line editing a user expects is done here: backspace, Ctrl-U to clear, Ctrl-D to end.
    const onData = (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      for (const char of text) {
        if (ENTER.has(char) || char === CTRL_D) return finish(typed);
        if (char === CTRL_C) return finish(undefined);
        if (char === CTRL_U) typed = '';
        else if (BACKSPACE.has(char)) typed = Array.from(typed).slice(0, -1).join('');
        else typed += char; // anything else is checked with the whole key afterwards
      }
    };
    // Echo goes off before the prompt shows: whatever is typed once it is visible stays hidden.
    setRawMode.call(stdin, true);
    on.call(stdin, 'data', onData);
    stdin.resume?.();
    stderr.write(prompt);
  });
}
