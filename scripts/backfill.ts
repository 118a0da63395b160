// The backfills of lib/db/backfills.ts, run against a table: by the local stack when it has made
// its tables (an empty table is marked at once) and by `npm run deploy` once every service is
// deployed (the functions then keep the index attributes and tallies; the backfill adds them to
// what was written before). Safe to run again, and while the API serves:
// - rotations: the farm index's attributes (and `farm_id`) set on each rotation that lacks them,
//   only while it still lacks them (a write that set them meanwhile wins); then the marker the
//   list reads before it trusts the index;
// - campaigns: the labour index's attributes set on each of its labours that lacks them, then its
//   labours counted by status and type and the tally set with `labours_tallied`, on condition that
//   no labour write (`labour_writes`) came in between (else counted again);
// - by farm: the farm index's attributes set on each labour (gsi2) and spot (gsi3) that lacks them,
//   as above; each campaign's tally added to its farm's tally in one transaction with its
//   `farm_counted` (and `farm_id`), on condition that it is not counted yet and that no labour write
//   came in between (else read again). A labour write since moves the farm's tally of a counted
//   campaign only (lib/fields/campaigns.ts), so each labour is counted once whichever comes first;
// - samplings: the farm index's attributes (and `farm_id`) on each sampling that lacks them, as rotations.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { BACKFILLS } from '../lib/db/backfills';
import { keys } from '../lib/db/keys';
import { tallyIn } from '../lib/fields/campaigns';
import { tallyKey } from '../lib/fields/labour-tally';
import { Labour } from '../lib/labours/model';
import { MapRecord, mapHeadItem } from '../lib/maps/model';
import { Spot } from '../lib/spots/model';

type Item = Record<string, unknown>;

const conditionFailed = (error: unknown) => (error as Error).name === 'ConditionalCheckFailedException';

/** Runs every backfill whose marker is missing; answers how many items each one changed. */
export async function runBackfills(client: DynamoDBClient, table: string): Promise<Record<string, number>> {
  const doc = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const pending: string[] = [];
  for (const name of Object.values(BACKFILLS)) {
    const marker = await doc.send(new GetCommand({ TableName: table, Key: keys.backfill(name), ConsistentRead: true }));
    if (!marker.Item) pending.push(name);
  }
  const changed: Record<string, number> = Object.fromEntries(pending.map((name) => [name, 0]));
  if (!pending.length) return changed;

  /** Sets these attributes while the item exists and still lacks `guard` (gsi1pk unless said): 1 when it did. */
  const index = async (item: Item, attributes: Item, guard = 'gsi1pk') => {
    const names = Object.keys(attributes);
    try {
      await doc.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(${guard})`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, attributes[name]])),
        }),
      );
      return 1;
    } catch (error) {
      if (conditionFailed(error)) return 0; // written (or deleted) meanwhile
      throw error;
    }
  };

  const farmOf = new Map<number, number | undefined>();
  const fieldFarm = async (fieldId: number) => {
    if (!farmOf.has(fieldId)) {
      const field = await doc.send(new GetCommand({ TableName: table, Key: keys.field(fieldId) }));
      farmOf.set(fieldId, field.Item ? Number(field.Item.farm_id) : undefined);
    }
    return farmOf.get(fieldId);
  };

  /** A campaign's labours indexed and counted; the tally set unless a labour was written meanwhile. */
  const tally = async (campaign: Item): Promise<number> => {
    const fieldId = Number(campaign.field_id);
    const yeargroup = Number(campaign.yeargroup);
    for (let attempt = 0; attempt < 20; attempt++) {
      const current = (
        await doc.send(
          new GetCommand({ TableName: table, Key: { pk: campaign.pk, sk: campaign.sk }, ConsistentRead: true }),
        )
      ).Item;
      if (!current || current.labours_tallied === true) return 0; // gone, or done by another run
      const writes = current.labour_writes as number | undefined;
      const counts = new Map<string, number>();
      let indexed = 0;
      const range = keys.laboursOfCampaign(fieldId, yeargroup);
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await doc.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': range.pk, ':prefix': range.skPrefix },
            ConsistentRead: true,
            ExclusiveStartKey: startKey,
          }),
        );
        for (const labour of (page.Items ?? []) as Item[]) {
          const key = tallyKey(Number(labour.status), Number(labour.labour_type_id));
          counts.set(key, (counts.get(key) ?? 0) + 1);
          if (labour.gsi1pk === undefined)
            indexed += await index(
              labour,
              keys.labourByDateIndex(
                fieldId,
                yeargroup,
                String(labour.date),
                String(labour.created_at),
                String(labour.labour_uuid),
              ),
            );
        }
        startKey = page.LastEvaluatedKey;
      } while (startKey);
      // every count, zeros too: a labour written by the new code meanwhile has added to some
      const set: Item = { ':true': true };
      const names: Record<string, string> = {};
      const assignments = ['labours_tallied = :true'];
      for (const status of [1, 2, 3])
        for (const typeId of [1, 2, 3, 4]) {
          const key = tallyKey(status, typeId);
          names[`#c${status}${typeId}`] = `labours_${key}`;
          set[`:c${status}${typeId}`] = counts.get(key) ?? 0;
          assignments.push(`#c${status}${typeId} = :c${status}${typeId}`);
        }
      if (writes !== undefined) set[':writes'] = writes;
      try {
        await doc.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: campaign.pk, sk: campaign.sk },
            UpdateExpression: `SET ${assignments.join(', ')}`,
            ConditionExpression: `attribute_exists(pk) AND ${writes === undefined ? 'attribute_not_exists(labour_writes)' : 'labour_writes = :writes'}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: set,
          }),
        );
        return 1 + indexed;
      } catch (error) {
        if (!conditionFailed(error)) throw error; // a labour written meanwhile: count again
      }
    }
    throw new Error(`campaign ${String(campaign.pk)} ${String(campaign.sk)}: labours kept changing while counted`);
  };

  /**
   * A campaign's tally added to its farm's, with its `farm_counted`, at once; unless it is counted
   * already, its field is gone (the clean-up job removes it) or a labour was written meanwhile (read again).
   */
  const countInFarm = async (campaign: Item): Promise<number> => {
    const farmId = await fieldFarm(Number(campaign.field_id));
    if (farmId === undefined) return 0;
    const key = { pk: campaign.pk, sk: campaign.sk };
    for (let attempt = 0; attempt < 20; attempt++) {
      const current = (await doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
      if (!current || current.farm_counted === true) return 0; // gone, or counted by another run
      if (current.labours_tallied !== true)
        throw new Error(`campaign ${String(campaign.pk)} ${String(campaign.sk)} is not tallied`);
      const writes = current.labour_writes as number | undefined;
      const counts = [...tallyIn(current)];
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: table,
                  Key: key,
                  UpdateExpression: 'SET farm_counted = :true, farm_id = :farm',
                  ConditionExpression: `labours_tallied = :true AND attribute_not_exists(farm_counted) AND ${writes === undefined ? 'attribute_not_exists(labour_writes)' : 'labour_writes = :writes'}`,
                  ExpressionAttributeValues: {
                    ':true': true,
                    ':farm': farmId,
                    ...(writes === undefined ? {} : { ':writes': writes }),
                  },
                },
              },
              ...(counts.length
                ? [
                    {
                      Update: {
                        TableName: table,
                        Key: keys.farmLabourTally(farmId, Number(current.yeargroup)),
                        UpdateExpression: `ADD ${counts.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
                        ExpressionAttributeNames: Object.fromEntries(
                          counts.map(([name], i) => [`#c${i}`, `labours_${name}`]),
                        ),
                        ExpressionAttributeValues: Object.fromEntries(counts.map(([, count], i) => [`:c${i}`, count])),
                      },
                    },
                  ]
                : []),
            ],
          }),
        );
        return 1;
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error; // else written meanwhile: again
      }
    }
    throw new Error(
      `campaign ${String(campaign.pk)} ${String(campaign.sk)}: labours kept changing while counted in its farm`,
    );
  };

  /**
   * A map's head (keys.mapHead), unless it has one, on condition that the map is as read: a map
   * written or deleted meanwhile wrote or deleted its head itself. 1 when written.
   */
  const headMap = async (item: Item) => {
    try {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              ConditionCheck: {
                TableName: table,
                Key: { pk: item.pk, sk: item.sk },
                // a map written before maps kept a version has none
                ...(item.version === undefined
                  ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#version)' }
                  : {
                      ConditionExpression: 'attribute_exists(pk) AND #version = :version',
                      ExpressionAttributeValues: { ':version': item.version },
                    }),
                ExpressionAttributeNames: { '#version': 'version' },
              },
            },
            {
              Put: {
                TableName: table,
                Item: mapHeadItem(MapRecord.fromItem(item)),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return 1;
    } catch (error) {
      if (error instanceof TransactionCanceledException) return 0; // headed, changed or deleted meanwhile
      throw error;
    }
  };

  const rotations = pending.includes(BACKFILLS.rotationsByFarm);
  const labours = pending.includes(BACKFILLS.labourTallies);
  const laboursByFarm = pending.includes(BACKFILLS.laboursByFarm);
  const spotsByFarm = pending.includes(BACKFILLS.spotsByFarm);
  const samplingsByFarm = pending.includes(BACKFILLS.samplingsByFarm);
  const storageByFarm = pending.includes(BACKFILLS.storageByFarm);
  const mapHeads = pending.includes(BACKFILLS.mapHeads);
  // only what a pending backfill still lacks
  const wanted = [
    ...(rotations ? ['(begins_with(sk, :rotation) AND attribute_not_exists(gsi1pk))'] : []),
    ...(labours ? ['(begins_with(sk, :campaign) AND attribute_not_exists(labours_tallied))'] : []),
    ...(laboursByFarm
      ? [
          '(begins_with(sk, :campaign) AND attribute_not_exists(farm_counted))',
          '(begins_with(sk, :labour) AND attribute_not_exists(gsi2pk))',
        ]
      : []),
    ...(spotsByFarm ? ['(begins_with(sk, :spot) AND attribute_not_exists(gsi3pk))'] : []),
    ...(samplingsByFarm ? ['(begins_with(sk, :sampling) AND attribute_not_exists(gsi1pk))'] : []),
    ...(storageByFarm
      ? [
          '(begins_with(sk, :kv) AND attribute_not_exists(gsi1pk))',
          '(begins_with(sk, :file) AND attribute_not_exists(gsi1pk))',
        ]
      : []),
    // every map (whether its head is there is for the write to find out)
    ...(mapHeads ? ['begins_with(sk, :map)'] : []),
  ];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: table,
        FilterExpression: `begins_with(pk, :field) AND (${wanted.join(' OR ')})`,
        ExpressionAttributeValues: {
          ':field': 'FIELD#',
          ...(rotations ? { ':rotation': 'ROTATION#' } : {}),
          ...(labours || laboursByFarm ? { ':campaign': 'CAMPAIGN#' } : {}),
          ...(laboursByFarm ? { ':labour': 'LABOUR#' } : {}),
          ...(spotsByFarm ? { ':spot': 'SPOT#' } : {}),
          ...(samplingsByFarm ? { ':sampling': 'SAMPLING#' } : {}),
          ...(storageByFarm ? { ':kv': 'KV#', ':file': 'FILE#' } : {}),
          ...(mapHeads ? { ':map': 'MAP#' } : {}),
        },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of (page.Items ?? []) as Item[]) {
      const fieldId = Number(item.field_id);
      const sk = String(item.sk);
      if (rotations && sk.startsWith('ROTATION#') && item.gsi1pk === undefined) {
        const farmId = await fieldFarm(fieldId);
        if (farmId === undefined) continue; // its field is deleted: the clean-up job removes it
        changed[BACKFILLS.rotationsByFarm]! += await index(item, {
          farm_id: farmId,
          ...keys.rotationByFarmIndex(farmId, Number(item.yeargroup), fieldId, String(item.rotation_uuid)),
        });
      } else if (sk.startsWith('CAMPAIGN#')) {
        // counted in its campaign first, then in its farm
        if (labours && item.labours_tallied !== true) changed[BACKFILLS.labourTallies]! += await tally(item);
        if (laboursByFarm && item.farm_counted !== true) changed[BACKFILLS.laboursByFarm]! += await countInFarm(item);
      } else if (laboursByFarm && sk.startsWith('LABOUR#') && item.gsi2pk === undefined) {
        const farmId = await fieldFarm(fieldId);
        if (farmId === undefined) continue; // its field is deleted: the clean-up job removes it
        const labour = Labour.fromItem(item);
        changed[BACKFILLS.laboursByFarm]! += await index(
          item,
          keys.labourByFarmIndex(farmId, labour.yeargroup, labour.date, labour.createdAt, labour.uuid, fieldId),
          'gsi2pk',
        );
      } else if (spotsByFarm && sk.startsWith('SPOT#') && item.gsi3pk === undefined) {
        const farmId = await fieldFarm(fieldId);
        if (farmId === undefined) continue;
        const spot = Spot.fromItem(item);
        changed[BACKFILLS.spotsByFarm]! += await index(
          item,
          keys.spotByFarmIndex(farmId, spot.createdAt, spot.uuid, fieldId),
          'gsi3pk',
        );
      } else if (samplingsByFarm && sk.startsWith('SAMPLING#') && item.gsi1pk === undefined) {
        const farmId = await fieldFarm(fieldId);
        if (farmId === undefined) continue; // its field is deleted: the clean-up job removes it
        changed[BACKFILLS.samplingsByFarm]! += await index(item, {
          farm_id: farmId,
          ...keys.samplingByFarmIndex(farmId, fieldId, String(item.sampling_uuid)),
        });
      } else if (mapHeads && sk.startsWith('MAP#') && item.kind === 'map') {
        changed[BACKFILLS.mapHeads]! += await headMap(item);
      } else if (storageByFarm && /^(KV|FILE)#/.test(sk) && item.gsi1pk === undefined) {
        // a field's key-value or file entry (they name their field as `resource_id`)
        const resourceId = Number(item.resource_id);
        const farmId = await fieldFarm(resourceId);
        if (farmId === undefined) continue; // its field is deleted: the clean-up job removes it
        changed[BACKFILLS.storageByFarm]! += await index(item, {
          farm_id: farmId,
          ...keys.storageByFarmIndex(
            farmId,
            sk.startsWith('KV#') ? 'KV' : 'FILE',
            String(item.extension_id),
            String(item.key),
            resourceId,
          ),
        });
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  for (const name of pending) {
    await doc.send(
      new PutCommand({ TableName: table, Item: { ...keys.backfill(name), done_at: new Date().toISOString() } }),
    );
  }
  return changed;
}
