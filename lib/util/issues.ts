// zod issues as one line of text, for error messages.
import type * as z from 'zod';

/** The first issues of a failed parse, as one line (`path: message; ...`). */
export const describeIssues = (issues: readonly z.core.$ZodIssue[]): string =>
  issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
