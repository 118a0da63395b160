// A campaign's labours counted by status and type (pure: the labours' service reads it, the
// campaign's writes keep it, lib/fields/campaigns.ts). A page of labours answers its total pages
// from these without reading the labours (docs/data-model.md, "labours page").

/** `<status>_<type>` -> how many labours of the campaign have that status and type. */
export type LabourTally = Map<string, number>;
export const tallyKey = (status: number, typeId: number) => `${status}_${typeId}`;

/** How many labours of a tally pass the status and type filters. */
export function tallied(tally: LabourTally, filters: { status?: number; typeId?: number }): number {
  let count = 0;
  for (const [key, n] of tally) {
    const [status, typeId] = key.split('_').map(Number);
    if (
      (filters.status === undefined || status === filters.status) &&
      (filters.typeId === undefined || typeId === filters.typeId)
    )
      count += n;
  }
  return count;
}
