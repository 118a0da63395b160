// Codes of input errors (spec 3: "HTTP statuses and error bodies of inputs: not shown"), answered in
// the general dialect `{res:'error', code, info}`; items a batch cannot process are listed under
// `denied` instead. docs/decisions.md, "Inputs".
export const INPUT_CODES = {
  /** POST: a uuid of one of the caller's inputs sent with other members than it was created with (409). */
  UUID_IN_USE: 1,
} as const;
