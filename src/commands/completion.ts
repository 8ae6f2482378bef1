// `cdata completion bash|zsh|fish`: print the completion script (the same text as the files in
// completions/, which a test keeps identical).
import { completionScript } from '../completion/index.js';
import type { Handler } from './spec.js';

export const completion: Handler = async (context) => {
  context.io.stdout.write(completionScript(String(context.args[0])));
};
