// Labours in DynamoDB (docs/data-model.md): each in its field's partition under its campaign, with
// a ref by uuid and field (LABOURREF#<uuid> / FIELD#<field>: a uuid names a labour within its
// field); written in one transaction with the personal inputs its list creates or renames and its
// campaign's `biennial`.

import { platformFieldGate } from '../authz/gate';
import { crops } from '../crops/repository';
import { keys } from '../db/keys';
import {
  batchGet,
  EXISTS,
  itemKey,
  NOT_EXISTS,
  queryAll,
  queryItems,
  readItem,
  type TxOp,
  transact,
  tx,
} from '../db/table';
import { Campaign, campaignLabourChange, campaignOf, labourTallyOf } from '../fields/campaigns';
import { dynamoInputRepository, inputWriteOps, personalInputFromItem } from '../inputs/repository';
import type { PersonalInput } from '../inputs/service';
import { emitWebhookEvent } from '../webhooks/emit';
import { labourStale, labourTaken } from './codes';
import { Labour } from './model';
import { type LabourRepository, type LabourSave, laboursService, refKey } from './service';

const labourItem = (labour: Labour) => ({
  ...keys.labour(labour.fieldId, labour.yeargroup, labour.uuid),
  ...Labour.toItem(labour),
});
const refItem = (labour: Labour) => ({
  ...keys.labourRef(labour.uuid, labour.fieldId),
  kind: 'labour_ref',
  field_id: labour.fieldId,
  yeargroup: labour.yeargroup,
});

/** The transaction items of a labour save (also written inside a map's own transaction, lib/maps/service.ts). */
export function labourSaveOps(change: LabourSave): TxOp[] {
  const { labour } = change;
  const taken = () => labourTaken(labour.uuid);
  const writes =
    change.previousVersion === undefined
      ? [tx.put(labourItem(labour), NOT_EXISTS, taken), tx.put(refItem(labour), NOT_EXISTS, taken)]
      : [tx.put(labourItem(labour), 'version = :v', labourStale, { ':v': change.previousVersion })];
  const biennial =
    change.biennial &&
    change.biennial.value !== undefined &&
    change.biennial.value !== change.biennial.campaign.biennial
      ? change.biennial.value
      : undefined;
  return [
    ...writes,
    ...inputWriteOps(change.inputs),
    // its campaign's tally (one update with its biennial: a transaction writes an item once)
    campaignLabourChange(labour.fieldId, labour.yeargroup, {
      added: { status: labour.status, typeId: labour.typeId },
      ...(change.previousVersion === undefined
        ? {}
        : { removed: { status: change.previousStatus ?? labour.status, typeId: labour.typeId } }),
      ...(biennial === undefined ? {} : { biennial }),
    }),
  ];
}

export const dynamoLabourRepository: LabourRepository = {
  async homes(uuid) {
    return (await queryAll(keys.labourRefs(uuid))).map((ref) => ({
      fieldId: Number(ref.field_id),
      yeargroup: Number(ref.yeargroup),
    }));
  },
  async labour(fieldId, yeargroup, uuid) {
    return readItem(keys.labour(fieldId, yeargroup, uuid), Labour.fromItem);
  },
  async laboursOf(fieldId, yeargroup) {
    return (await queryAll(keys.laboursOfCampaign(fieldId, yeargroup))).map(Labour.fromItem);
  },
  async *laboursByDate(fieldId, yeargroup, { dateFrom, dateTo, chunk }) {
    for await (const item of queryItems({
      ...keys.laboursByDate(fieldId, yeargroup, dateFrom, dateTo),
      pageSize: chunk,
    }))
      yield Labour.fromItem(item);
  },
  async tallies(refs) {
    const found = await batchGet(refs.map((r) => keys.campaign(r.fieldId, r.yeargroup)));
    return new Map(
      refs.map((r) => {
        const item = found.get(itemKey(keys.campaign(r.fieldId, r.yeargroup)));
        // no campaign: no labour (a campaign is made before its first labour)
        return [refKey(r.fieldId, r.yeargroup), item ? labourTallyOf(item) : new Map()] as const;
      }),
    );
  },
  async rotations(refs) {
    const found = await batchGet(refs.map((r) => keys.rotation(r.fieldId, r.uuid)));
    return new Map(
      refs.flatMap((r) => {
        const item = found.get(itemKey(keys.rotation(r.fieldId, r.uuid)));
        return item
          ? [
              [
                refKey(r.fieldId, r.uuid.toLowerCase()),
                { cropId: Number(item.crop_id), yeargroup: Number(item.yeargroup) },
              ] as const,
            ]
          : [];
      }),
    );
  },
  async campaigns(refs) {
    const found = await batchGet(refs.map((r) => keys.campaign(r.fieldId, r.yeargroup)));
    return new Map(
      refs.flatMap((r) => {
        const item = found.get(itemKey(keys.campaign(r.fieldId, r.yeargroup)));
        return item ? [[refKey(r.fieldId, r.yeargroup), Campaign.fromItem(item)] as const] : [];
      }),
    );
  },
  campaignOf,
  async mapField(mapId) {
    return readItem(keys.mapRef(mapId), (ref) => Number(ref.field_id));
  },
  async personalInputs(refs) {
    const found = await batchGet(refs.map((r) => keys.userInput(r.ownerId, r.uuid)));
    const inputs = new Map<string, PersonalInput>();
    for (const r of refs) {
      const item = found.get(itemKey(keys.userInput(r.ownerId, r.uuid)));
      if (item) inputs.set(refKey(r.ownerId, r.uuid), personalInputFromItem(item));
    }
    return inputs;
  },
  save: (change) => transact(labourSaveOps(change)),
  async remove(labour, gone) {
    await transact([
      tx.delete(keys.labour(labour.fieldId, labour.yeargroup, labour.uuid), EXISTS, gone),
      tx.delete(keys.labourRef(labour.uuid, labour.fieldId)),
      campaignLabourChange(labour.fieldId, labour.yeargroup, {
        removed: { status: labour.status, typeId: labour.typeId },
      }),
    ]);
  },
};

/** The labours service of the functions: DynamoDB, the platform's field access, personal inputs and crops. */
export const labours = /* @__PURE__ */ laboursService({
  repository: dynamoLabourRepository,
  inputs: dynamoInputRepository,
  fields: platformFieldGate,
  crops: (userId, cropId) => crops.cropById(userId, cropId),
  emit: emitWebhookEvent,
});
