// Labours in DynamoDB (docs/data-model.md): each in its field's partition under its campaign, with
// a ref by uuid and field (LABOURREF#<uuid> / FIELD#<field>: a uuid names a labour within its
// field); written in one transaction with the personal inputs its list creates or renames and its
// campaign's `biennial`.

import { platformFieldGate } from '../authz/gate';
import { crops } from '../crops/repository';
import { BACKFILLS, backfilled } from '../db/backfills';
import { keys } from '../db/keys';
import { retryLostRace } from '../db/retry';
import {
  batchGet,
  EXISTS,
  getItem,
  itemKey,
  NOT_EXISTS,
  queryAll,
  queryItems,
  readItem,
  type TxOp,
  transact,
  tx,
} from '../db/table';
import { NotFound } from '../errors';
import { Campaign, campaignLabourChange, campaignOf, farmCountedOf, labourTallyOf, tallyIn } from '../fields/campaigns';
import { dynamoInputRepository, inputWriteOps, personalInputFromItem } from '../inputs/repository';
import type { PersonalInput } from '../inputs/service';
import { LABOUR_CODES, labourStale, labourTaken } from './codes';
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

/** The field a labour is written to was deleted meanwhile (its labours then go with it). */
const fieldGone = () => new NotFound('field not found', { code: LABOUR_CODES.INVALID_FIELD });

/**
 * Whether the campaign's labours are counted in its farm's tally: each labour write moves that
 * tally with the campaign's, on condition that it still is as read (lib/fields/campaigns.ts).
 */
const farmCounted = async (fieldId: number, yeargroup: number) =>
  farmCountedOf(await getItem(keys.campaign(fieldId, yeargroup)));

/**
 * The transaction items of a labour save (also written inside a map's own transaction,
 * lib/maps/service.ts); on condition that its field still exists: once the field is deleted no
 * labour is written to it, so the field-deleted job takes back from the farm's tally all it counted.
 */
export async function labourSaveOps(change: LabourSave): Promise<TxOp[]> {
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
    tx.check(keys.field(labour.fieldId), EXISTS, fieldGone),
    ...inputWriteOps(change.inputs),
    // its campaign's tally and its farm's (one update with its biennial: a transaction writes an item once)
    ...campaignLabourChange(
      labour.fieldId,
      labour.yeargroup,
      {
        added: { status: labour.status, typeId: labour.typeId },
        ...(change.previousVersion === undefined
          ? {}
          : { removed: { status: change.previousStatus ?? labour.status, typeId: labour.typeId } }),
        ...(biennial === undefined ? {} : { biennial }),
      },
      { farmId: labour.farmId, counted: await farmCounted(labour.fieldId, labour.yeargroup) },
    ),
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
  async *laboursOfFarm(farmId, yeargroup, { dateFrom, dateTo, chunk }) {
    for await (const item of queryItems({
      ...keys.laboursOfFarmByDate(farmId, yeargroup, dateFrom, dateTo),
      pageSize: chunk,
    }))
      yield Labour.fromItem(item);
  },
  byFarm: () => backfilled(BACKFILLS.laboursByFarm),
  async farmTallies(refs) {
    const found = await batchGet(refs.map((r) => keys.farmLabourTally(r.farmId, r.yeargroup)));
    return new Map(
      refs.map((r) => [
        refKey(r.farmId, r.yeargroup),
        tallyIn(found.get(itemKey(keys.farmLabourTally(r.farmId, r.yeargroup)))),
      ]),
    );
  },
  async tallies(refs) {
    const found = await batchGet(refs.map((r) => keys.campaign(r.fieldId, r.yeargroup)));
    return new Map(
      refs.map((r) => {
        const item = found.get(itemKey(keys.campaign(r.fieldId, r.yeargroup)));
        // no campaign: no labour (a campaign is made before its first labour)
        return [
          refKey(r.fieldId, r.yeargroup),
          item ? { tally: labourTallyOf(item), campaign: Campaign.fromItem(item) } : { tally: new Map() },
        ] as const;
      }),
    );
  },
  async rotations(refs, { listing = false } = {}) {
    const found = await batchGet(
      refs.map((r) => keys.rotation(r.fieldId, r.uuid)),
      { consistent: !listing },
    );
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
  async campaigns(refs, { listing = false } = {}) {
    const found = await batchGet(
      refs.map((r) => keys.campaign(r.fieldId, r.yeargroup)),
      { consistent: !listing },
    );
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
  async personalInputs(refs, { listing = false } = {}) {
    const found = await batchGet(
      refs.map((r) => keys.userInput(r.ownerId, r.uuid)),
      { consistent: !listing },
    );
    const inputs = new Map<string, PersonalInput>();
    for (const r of refs) {
      const item = found.get(itemKey(keys.userInput(r.ownerId, r.uuid)));
      if (item) inputs.set(refKey(r.ownerId, r.uuid), personalInputFromItem(item));
    }
    return inputs;
  },
  save: async (change) => transact(await labourSaveOps(change)),
  async remove(labour, gone) {
    await retryLostRace(async () =>
      transact([
        tx.delete(keys.labour(labour.fieldId, labour.yeargroup, labour.uuid), EXISTS, gone),
        tx.delete(keys.labourRef(labour.uuid, labour.fieldId)),
        tx.check(keys.field(labour.fieldId), EXISTS, gone),
        ...campaignLabourChange(
          labour.fieldId,
          labour.yeargroup,
          { removed: { status: labour.status, typeId: labour.typeId } },
          { farmId: labour.farmId, counted: await farmCounted(labour.fieldId, labour.yeargroup) },
        ),
      ]),
    );
  },
};

/** The labours service of the functions: DynamoDB, the platform's field access, personal inputs and crops. */
export const labours = /* @__PURE__ */ laboursService({
  repository: dynamoLabourRepository,
  inputs: dynamoInputRepository,
  fields: platformFieldGate,
  crops: (userId, cropId) => crops.cropById(userId, cropId),
});
