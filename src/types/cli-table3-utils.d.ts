// cli-table3 measures cells with this; table fitting uses the same measure so widths agree.
declare module 'cli-table3/src/utils.js' {
  const utils: { strlen(text: string): number };
  export default utils;
}
