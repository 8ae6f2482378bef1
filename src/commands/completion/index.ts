// `cdata completion bash|zsh|fish`: print the completion script (the same text as the files in
// completions/, which a test keeps identical).
import { completionScript } from '../../completion/index.js';
import type { Handler } from '../../command-kit/command.js';
import type { COMPLETION_ARGS } from './command.js';

export const completion: Handler<{}, typeof COMPLETION_ARGS> = async (context) => {
  context.io.stdout.write(completionScript(context.args[0], context.registry));
};
