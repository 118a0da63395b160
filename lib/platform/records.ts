// Farms and fields read from the main table (docs/data-model.md, "Farms and fields"): the readers
// every area and the authorisation gate use. The fields area writes them (lib/fields/repository.ts).
import { keys, parseIdFromSk } from '../db/keys';
import { batchGet, itemKey, queryAll, readItem } from '../db/table';
import { Farm, Field } from './model';

export async function getField(fieldId: number): Promise<Field | undefined> {
  return readItem(keys.field(fieldId), Field.fromItem);
}

export async function getFieldByUuid(uuid: string): Promise<Field | undefined> {
  const fieldId = await readItem(keys.fieldByUuid(uuid), (ref) => Number(ref.field_id));
  return fieldId === undefined ? undefined : getField(fieldId);
}

/** Fields by id (a deleted one left out); `consistent: false` reads them eventually consistent (batchGet). */
export async function getFields(
  fieldIds: number[],
  options: { consistent?: boolean } = {},
): Promise<Map<number, Field>> {
  const found = await batchGet(
    fieldIds.map((id) => keys.field(id)),
    options,
  );
  const fields = new Map<number, Field>();
  for (const id of fieldIds) {
    const item = found.get(itemKey(keys.field(id)));
    if (item) fields.set(id, Field.fromItem(item));
  }
  return fields;
}

export async function getFarm(farmId: number): Promise<Farm | undefined> {
  return readItem(keys.farm(farmId), Farm.fromItem);
}

export async function getFarmByUuid(uuid: string): Promise<Farm | undefined> {
  const farmId = await readItem(keys.farmByUuid(uuid), (ref) => Number(ref.farm_id));
  return farmId === undefined ? undefined : getFarm(farmId);
}

export async function getFarms(farmIds: number[]): Promise<Map<number, Farm>> {
  const found = await batchGet(farmIds.map((id) => keys.farm(id)));
  const farms = new Map<number, Farm>();
  for (const id of farmIds) {
    const item = found.get(itemKey(keys.farm(id)));
    if (item) farms.set(id, Farm.fromItem(item));
  }
  return farms;
}

export async function fieldIdsOfFarm(farmId: number): Promise<number[]> {
  const { pk, skPrefix } = keys.farmFieldsPrefix(farmId);
  return (await queryAll({ pk, skPrefix })).map((item) => parseIdFromSk(String(item.sk)));
}
