// /sensors/v2/providers/values/variables: POST (insert), GET (read); the bulk path (spec 1, Sensors)
import { s3Kit } from '../../lib/aws/s3';
import { endpoint } from '../../lib/http/endpoint';
import { Reply } from '../../lib/http/reply';
import { bulkJob, createBulkJob } from '../../lib/sensors/bulk';
import { callerOf } from '../../lib/sensors/groups';
import { sensors } from '../../lib/sensors/repository';
import { NO_VALUES_MESSAGE, parseValues } from '../../lib/sensors/values';
import { bulkStatusRoute, createBulkRoute, insertValuesRoute, readValuesRoute } from '../../schemas/sensors';

export const insert = endpoint(insertValuesRoute, {
  // The service validates the body itself (limit, lengths, formats) with the spec's messages.
  handler: async ({ body, principal }) => {
    const parsed = parseValues(body);
    if (parsed.total === 0) return Reply.empty(204, { 'x-info': NO_VALUES_MESSAGE });
    await sensors.insertValues(callerOf(principal), parsed);
    return { res: 'ok', info: 'values inserted' };
  },
});

export const read = endpoint(readValuesRoute, {
  handler: async ({ query, principal }) => ({
    res: 'ok',
    data: await sensors.readValues(callerOf(principal), {
      variableUuid: query.variable_uuid,
      from: query.from,
      to: query.to,
      limit: query.limit,
      cursor: query.cursor,
      interval: query.interval,
    }),
  }),
});

export const bulk = endpoint(createBulkRoute, {
  // the job's upload is a presigned S3 POST, signed after the job is stored
  preload: [s3Kit],
  handler: async ({ body, principal }) => {
    const job = await createBulkJob(callerOf(principal), { sizeBytes: body.size_bytes, md5: body.md5 });
    return {
      res: 'ok',
      data: {
        job_uuid: job.jobUuid,
        status: 'awaiting_upload',
        upload: job.upload,
        expires_in: job.expiresIn,
        max_bytes: job.maxBytes,
      },
    };
  },
});

export const bulkStatus = endpoint(bulkStatusRoute, {
  handler: async ({ path, principal }) => ({ res: 'ok', data: await bulkJob(callerOf(principal), path.job_uuid) }),
});
