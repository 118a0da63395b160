// Imagery lanes (docs/imagery.md, "Lanes"), against the local stack: a tenant's bulk of fields with
// a year of backfill queued does not hold another tenant's new field back; its newest date is there
// first, within a minute, while the backfill is still queued.
import { randomUUID } from 'node:crypto';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import proj4 from 'proj4';
import { afterAll, expect, it } from 'vitest';
import { acquisitions, acquisitionTime } from '../scripts/local/scenes';
import { LOCAL_CREDENTIALS } from '../scripts/local/stack';
import {
  call,
  createField,
  eventually,
  IMAGERY_AREA,
  imagerySquare,
  newUser,
  stack,
  type TestUser,
} from './helpers/api';

const UTM20S = '+proj=utm +zone=20 +south +datum=WGS84 +units=m +no_defs';
const BULK_FIELDS = 40;
const YEAR_DAYS = 365;

/** A square of `side` metres with its south-west corner at UTM 20S (x, y), as WKT in WGS84. */
function utmSquare(x: number, y: number, side: number): string {
  const corners = [
    [x, y],
    [x + side, y],
    [x + side, y + side],
    [x, y + side],
    [x, y],
  ].map((p) =>
    proj4(UTM20S, 'EPSG:4326', p)
      .map((v) => v.toFixed(7))
      .join(' '),
  );
  return `POLYGON((${corners.join(',')}))`;
}

let bulkOwner: TestUser | undefined;
const bulkFields: number[] = [];
const sqs = () =>
  new SQSClient({ region: stack().region, endpoint: stack().endpoints.sqs, credentials: LOCAL_CREDENTIALS });

afterAll(async () => {
  // the bulk tenant's fields go (a job still running only closes its days), and so does what is left
  // of their backfill: received and deleted here, ten at a time, instead of about 2,800 worker
  // invocations that would find no field (about 35 core-seconds of the test run). This file runs alone
  // (the stack-heavy project, vitest.config.ts), so the backfill lane holds no other file's jobs.
  for (const id of bulkFields) await call('GET', '/api/borrarlotes', { token: bulkOwner!.token, query: { lote: id } });
  const client = sqs();
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: stack().queues.ImageryQueue!,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
      }),
    );
    if (!Messages.length) break;
    await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: stack().queues.ImageryQueue!,
        Entries: Messages.map((message, n) => ({ Id: String(n), ReceiptHandle: message.ReceiptHandle! })),
      }),
    );
  }
  client.destroy();
}, 120_000);

it("a tenant's 40 fields with a year of backfill queued do not hold back another tenant's new field: its newest date comes first, within 60 s", async () => {
  bulkOwner = await newUser();
  // 40 small fields inside one 640 m cell of the local catalogue's grid (scripts/local/catalogue.ts),
  // so that their scenes are generated once
  const [cellX, cellY] = proj4('EPSG:4326', UTM20S, [IMAGERY_AREA[0] + 0.3, IMAGERY_AREA[1] + 0.9]).map(
    (v) => Math.floor(v / 640) * 640,
  );
  const shapeOf = (i: number) => utmSquare(cellX! + 100 + (i % 8) * 55, cellY! + 160 + Math.floor(i / 8) * 55, 40);
  const { fieldId: firstId, farmId } = await createField(bulkOwner, { shape: shapeOf(0) });
  bulkFields.push(firstId);
  for (let i = 1; i < BULK_FIELDS; i++)
    bulkFields.push((await createField(bulkOwner, { shape: shapeOf(i), farmId })).fieldId);
  // their year of backfill (about 73 scenes each) queued on the backfill lane, as an operator's
  // deeper backfill job would
  const client = sqs();
  for (let i = 0; i < bulkFields.length; i += 10) {
    await client.send(
      new SendMessageBatchCommand({
        QueueUrl: stack().queues.ImageryQueue!,
        Entries: bulkFields.slice(i, i + 10).map((fieldId, n) => ({
          Id: String(n),
          MessageBody: JSON.stringify({
            id: randomUUID(),
            event_name: 'IMAGERY_FIELD.V1',
            data: { field_id: fieldId, period_days: YEAR_DAYS },
            created_at: new Date().toISOString(),
          }),
        })),
      }),
    );
  }
  const backlog = async () => {
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({
        QueueUrl: stack().queues.ImageryQueue!,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return (
      Number(Attributes?.ApproximateNumberOfMessages ?? 0) +
      Number(Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
    );
  };
  // the backfill has begun: the year's scene jobs are queued
  const queued = await eventually(async () => ((await backlog()) > 500 ? backlog() : undefined), 90_000, 250);
  expect(queued).toBeGreaterThan(500);

  // another tenant's new field
  const other = await newUser();
  const started = performance.now();
  const { fieldId } = await createField(other, { shape: imagerySquare(0.35, 0.95) });
  const first = await eventually(
    async () => {
      const response = await call('GET', '/api/layers/dates/v3', { token: other.token, query: { field_id: fieldId } });
      const dates = response.body?.layers?.sentinel2?.dates as Array<{ date: string }> | undefined;
      return dates?.length ? dates : undefined;
    },
    60_000,
    250,
  );
  const waited = Math.round(performance.now() - started);
  expect(waited).toBeLessThan(60_000);
  // the newest acquisition first
  const newest = acquisitions(Date.now() - 20 * 86_400_000, Date.now()).at(-1)!;
  expect(first[0]!.date).toBe(new Date(acquisitionTime(newest)).toISOString().replace('.000Z', 'Z'));
  // and the bulk tenant's backfill was still queued when it came
  expect(await backlog()).toBeGreaterThan(100);
  client.destroy();
}, 240_000);
