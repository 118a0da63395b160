// Which polygon applies to a field in a campaign (spec 2, Season shapes): the season shape of the
// latest campaign at or before it, or the shape drawn when the field was created. The current
// shape is the one of the current campaign (the calendar year).
import { keys } from '../db/keys';
import { batchGet, getItem, itemKey } from '../db/table';
import { type Field, type FieldShape, shapeFromItem } from '../platform/model';

export const currentCampaign = (now = new Date()): number => now.getUTCFullYear();

/** The campaign whose season shape applies to `campaign`, if any. */
export function shapeCampaignFor(field: Field, campaign: number): number | undefined {
  let found: number | undefined;
  for (const c of field.shapeCampaigns) if (c <= campaign && (found === undefined || c > found)) found = c;
  return found;
}

export interface AppliedShape {
  shape: FieldShape;
  /** The campaign of the season shape, or undefined for the shape the field was created with. */
  campaign?: number;
}

export async function shapeFor(field: Field, campaign = currentCampaign()): Promise<AppliedShape> {
  const from = shapeCampaignFor(field, campaign);
  if (from === undefined) return { shape: field.shape };
  const item = await getItem(keys.fieldShape(field.id, from));
  return item ? { shape: shapeFromItem(item), campaign: from } : { shape: field.shape };
}

/** Current shapes of many fields, with one batch read for those that have season shapes. */
export async function currentShapes(fields: Field[], campaign = currentCampaign()): Promise<Map<number, FieldShape>> {
  const result = new Map<number, FieldShape>();
  const wanted = new Map<number, ReturnType<typeof keys.fieldShape>>();
  for (const field of fields) {
    const from = shapeCampaignFor(field, campaign);
    if (from === undefined) result.set(field.id, field.shape);
    else wanted.set(field.id, keys.fieldShape(field.id, from));
  }
  if (wanted.size) {
    const found = await batchGet([...wanted.values()]);
    for (const field of fields) {
      const key = wanted.get(field.id);
      if (!key) continue;
      const item = found.get(itemKey(key));
      result.set(field.id, item ? shapeFromItem(item) : field.shape);
    }
  }
  return result;
}
