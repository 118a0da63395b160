// zod issues as one line of text, for error messages.
//
// Schemas are built with zod/mini (ADR 0008: zod's classic build cost every function ~20 ms at its
// cold start), which carries no messages of its own: this module installs zod's English ones (the
// classic build's default) before any parse, since every path that shows a zod message to a caller
// goes through describeIssues. tests/unit/zod-messages.test.ts holds the messages callers see.
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

/** The first issues of a failed parse, as one line (`path: message; ...`). */
export const describeIssues = (issues: readonly z.core.$ZodIssue[]): string =>
  issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
