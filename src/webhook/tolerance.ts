// How far a delivery's timestamp may be from the receiver's clock (docs/api-reference.md section 6: five
// minutes). Apart from signature.ts so that help, which loads on every command, need not load
// node:crypto to show the default.
export const DEFAULT_TOLERANCE_SECONDS = 300;
