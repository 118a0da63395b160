// Lengths of texts as people count them: bounds on names and texts count Unicode code points
// (an emoji is one character), not UTF-16 units (docs/decisions.md, General).

/** How many characters (code points) a text has. */
export const characters = (text: string): number => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};
