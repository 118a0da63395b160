// The country of a field: the one its centroid lies in (ISO 3166-1 alpha-2), from country-coder's
// borders (a large table: only the functions that create fields bundle it).
import { iso1A2Code } from '@rapideditor/country-coder';

export function countryOf(centroidWkt: string): string | null {
  const match = /POINT\(([-\d.eE]+) ([-\d.eE]+)\)/.exec(centroidWkt);
  return match ? iso1A2Code([Number(match[1]), Number(match[2])]) : null;
}
