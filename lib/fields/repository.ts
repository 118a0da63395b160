// Farms and fields in the main table (docs/data-model.md, "Farms and fields").
import { keys, parseIdFromSk } from '../db/keys';
import { batchGet, getItem, itemKey, queryAll } from '../db/table';
import { Farm, Field } from '../platform/model';

export async function getField(fieldId: number): Promise<Field | undefined> {
  const item = await getItem(keys.field(fieldId));
  return item ? Field.fromItem(item) : undefined;
}

export async function getFieldByUuid(uuid: string): Promise<Field | undefined> {
  const ref = await getItem(keys.fieldByUuid(uuid));
  return ref ? getField(Number(ref.field_id)) : undefined;
}

export async function getFields(fieldIds: number[]): Promise<Map<number, Field>> {
  const found = await batchGet(fieldIds.map((id) => keys.field(id)));
  const fields = new Map<number, Field>();
  for (const id of fieldIds) {
    const item = found.get(itemKey(keys.field(id)));
    if (item) fields.set(id, Field.fromItem(item));
  }
  return fields;
}

export async function getFarm(farmId: number): Promise<Farm | undefined> {
  const item = await getItem(keys.farm(farmId));
  return item ? Farm.fromItem(item) : undefined;
}

export async function getFarmByUuid(uuid: string): Promise<Farm | undefined> {
  const ref = await getItem(keys.farmByUuid(uuid));
  return ref ? getFarm(Number(ref.farm_id)) : undefined;
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

/** The id of the caller's own farm with this name (case-insensitive), if any. */
export async function farmIdByName(ownerId: number, farmName: string): Promise<number | undefined> {
  const item = await getItem(keys.userFarmName(ownerId, farmName));
  return item ? Number(item.farm_id) : undefined;
}
