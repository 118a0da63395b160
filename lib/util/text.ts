// Lengths of texts as people count them: bounds on names and texts count Unicode code points
// (an emoji is one character), not UTF-16 units (docs/decisions.md, General).

/** How many characters (code points) a text has. */
export const characters = (text: string): number => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};

// --- well-formed Unicode: every string the platform stores is well-formed -------------

/** A UTF-16 surrogate without its other half (JSON's `"\ud800"` decodes to one). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Whether a text is well-formed Unicode (no lone surrogate): what UTF-8, DynamoDB and URIs can hold. */
export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

/** The text with each lone surrogate replaced by U+FFFD (data stored before the check existed). */
export const toWellFormed = (text: string): string => text.replace(LONE_SURROGATES, '\ufffd');

/** A text as an RFC 5987 value (`filename*=UTF-8''…`): never a URIError, whatever was stored. */
export const encodeRfc5987 = (text: string): string => encodeURIComponent(toWellFormed(text));

interface Step {
  parent: Step | undefined;
  key: string | number;
}
const pathOf = (step: Step | undefined): Array<string | number> => {
  const path: Array<string | number> = [];
  for (let at = step; at; at = at.parent) path.unshift(at.key);
  return path;
};

/**
 * The path of the first text in a parsed request (strings, object keys, the names of uploaded
 * files; not file contents) that is not well-formed Unicode, or undefined. Iterative, and each
 * item remembers only its parent, so that a body nested thousands deep costs one pass.
 */
export function illFormedText(value: unknown): Array<string | number> | undefined {
  const pending: Array<[unknown, Step | undefined]> = [[value, undefined]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, at] = next;
    if (typeof item === 'string') {
      if (!isWellFormed(item)) return pathOf(at);
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) pending.push([item[i], { parent: at, key: i }]);
    } else if (item !== null && typeof item === 'object' && !Buffer.isBuffer(item) && !ArrayBuffer.isView(item)) {
      for (const [key, child] of Object.entries(item)) {
        if (!isWellFormed(key)) return pathOf({ parent: at, key });
        pending.push([child, { parent: at, key }]);
      }
    }
  }
  return undefined;
}
