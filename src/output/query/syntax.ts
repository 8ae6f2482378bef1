// Where a --query expression goes wrong, for the caret under it. The library says what is wrong
// but not where (its errors carry no position), so the place is found with its own lexer and
// parser: the first token after which no completion of the expression could parse.
import { compile, tokenize } from '@jmespath-community/jmespath';

/**
 * Beyond this length the column is not looked for: each try re-reads the expression, and a
 * character the lexer refuses is looked for one length at a time. A query typed at a prompt is
 * far shorter; the message still says what is wrong.
 */
export const MAX_LOCATED_LENGTH = 2_000;

/** The 0-based offset at which the expression cannot go on; its length when it ends too soon. */
export function errorOffset(expression: string): number | undefined {
  if (expression.length > MAX_LOCATED_LENGTH) return undefined;
  let tokens: { start: number }[];
  try {
    tokens = tokenize(expression);
  } catch {
    // A character or a literal the lexer refuses: the longest start of the expression it reads.
    for (let end = expression.length - 1; end > 0; end--) if (lexes(expression.slice(0, end))) return end;
    return 0;
  }
  // The parser reads tokens left to right: the first token whose arrival makes a failure that
  // more text could not fix is where the expression goes wrong. Once the text up to a token
  // fails so, any longer text does too, so the token is found by halving.
  const failsThrough = (i: number) => failsBefore(expression.slice(0, tokens[i + 1]?.start ?? expression.length));
  let [low, high] = [0, tokens.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (failsThrough(middle)) high = middle;
    else low = middle + 1;
  }
  return low < tokens.length ? tokens[low]!.start : expression.length;
}

/**
 * The offset of a quote (`'`, `"` or a backtick) the expression opens and never closes: the
 * library's lexer reads `'abc` to the end as the string `abc`, where the grammar (and
 * python-jmespath) call it an error. A backslash escapes the character after it, in each kind.
 */
export function unclosedQuote(expression: string): number | undefined {
  for (let i = 0; i < expression.length; i++) {
    const quote = expression[i]!;
    if (quote !== "'" && quote !== '"' && quote !== '`') continue;
    const start = i;
    for (i++; i < expression.length && expression[i] !== quote; i++) if (expression[i] === '\\') i++;
    if (i >= expression.length) return start;
  }
  return undefined;
}

function lexes(text: string): boolean {
  try {
    tokenize(text);
    return true;
  } catch {
    return false;
  }
}

/** The text fails to parse at one of its own tokens, not for want of more. */
function failsBefore(text: string): boolean {
  try {
    compile(text);
    return false;
  } catch (error) {
    return !endedTooSoon(error);
  }
}

/**
 * The parser wanted more than the text holds: it names the end token (`got: EOF`, `(EOF)`), or,
 * where it looks two tokens ahead of the end, reads past its own list (a TypeError).
 */
function endedTooSoon(error: unknown): boolean {
  if (!(error instanceof Error) || error.name === 'TypeError') return true;
  return /(?:got: |type: |\()EOF\b/.test(error.message);
}

/** The library's token names as a reader sees them. */
const TOKENS: Record<string, string> = {
  Rbracket: "']'",
  Lbracket: "'['",
  Rparen: "')'",
  Lparen: "'('",
  Rbrace: "'}'",
  Lbrace: "'{'",
  Comma: "','",
  Colon: "':'",
  Dot: "'.'",
  Pipe: "'|'",
  Star: "'*'",
  Filter: "'[?'",
};

/** What is wrong, in the library's words, its token names made readable. */
export function syntaxMessage(error: unknown): string {
  if (!(error instanceof Error) || error.name === 'TypeError') return ENDS;
  const token = tokenOf(error);
  if (token) return token.type === 'EOF' ? ENDS : `unexpected ${TOKENS[token.type] ?? `'${token.value}'`}`;
  const words = wordsOf(error);
  if (/invalid format for a JSON literal|unexpected end of JSON input/.test(words)) return LITERAL;
  return words
    .replace(/, got: EOF$/, ' before the end')
    .replace(/\b(?:[RL](?:bracket|paren|brace)|Comma|Colon|Dot|Pipe|Star|Filter)\b/g, (name) => TOKENS[name]!);
}

/**
 * The number the parser met where it wanted something else (`[?score > 80]`, `a.80`), or
 * undefined: JMESPath writes a number as a JSON literal, between backticks.
 */
export function bareNumber(error: unknown): string | undefined {
  const token = error instanceof Error ? tokenOf(error) : undefined;
  return token?.type === 'Number' ? token.value : undefined;
}

const wordsOf = (error: Error) => error.message.replace(/^syntax(?: error)?[:,]?\s*/i, '');

/** The token the library's message names, with its type. */
function tokenOf(error: Error): { type: string; value: string } | undefined {
  // "invalid token (Pipe): "|"", "unexpected token type: UnquotedIdentifier, value: bar", "unexpected token: 1(Literal)"
  const token =
    /^(?:invalid token \((\w+)\): "(.*)"|unexpected token type: (\w+), value: (.*)|unexpected token: (.*)\((\w+)\))$/s.exec(
      wordsOf(error),
    );
  if (!token) return undefined;
  const [type, value] = token[1] ? [token[1], token[2]] : token[3] ? [token[3], token[4]] : [token[6], token[5]];
  return { type: type!, value: value! };
}

const ENDS = 'the expression ends too soon';
const LITERAL = 'not valid JSON between the quotes or backticks (text goes in \'single quotes\' or `"double"`)';
