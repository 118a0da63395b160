// Every EPSG code of proj4-list (pinned; about 5,400 coordinate systems with their proj4
// definitions, from the EPSG registry): loaded on first use, as a chunk of its own, by the
// rendering of an image asked in a code that is not built in (epsg.ts). ~780 KB: never at a cold
// start.
import { onFirstUse } from '../util/first-use';
import { projDefinition, registerDefinition } from './epsg';

const catalogue = /* @__PURE__ */ onFirstUse(
  async () => (await import('proj4-list')).default as unknown as Record<string, [string, string]>,
);

/** Makes a code's definition known (epsg.ts); false when the EPSG registry has no such code. */
export async function loadEpsg(epsg: number): Promise<boolean> {
  if (projDefinition(epsg)) return true;
  const entry = (await catalogue())[`EPSG:${epsg}`];
  if (!entry?.[1]) return false;
  registerDefinition(epsg, entry[1].trim());
  return true;
}
