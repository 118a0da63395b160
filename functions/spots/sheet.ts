// /api/spots/sheet: GET (export), POST (import) (spec 1, Spots)
import { Invalid } from '../../lib/errors';
import { fileField } from '../../lib/http/body';
import { endpoint } from '../../lib/http/endpoint';
import { streamedFile } from '../../lib/http/reply';
import { SPOT_CODES } from '../../lib/spots/codes';
import { exportSheet } from '../../lib/spots/sheet-export';
import { importSheet } from '../../lib/spots/sheets';
import { exportSheetRoute, importSheetRoute } from '../../schemas/spots';

const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

export const get = endpoint(exportSheetRoute, {
  handler: async ({ query, principal }) => {
    const content = await exportSheet(
      principal,
      {
        farmId: query.farm_id,
        fieldId: query.field_id,
        dateFrom: query.date_from,
        dateTo: query.date_to,
        tagUuid: query.tag_uuid,
      },
      query.format,
    );
    // streamed: a sheet grows with the spots (docs/deploy.md, "Large answers")
    return streamedFile(content, CONTENT_TYPES[query.format], `spots.${query.format}`, {
      compress: query.format === 'csv',
    });
  },
});

export const post = endpoint(importSheetRoute, {
  handler: async ({ body, principal }) => {
    const file = fileField(body, 'sheet');
    if (!file?.filename) {
      throw new Invalid('file format not supported. It must be one of .csv, .xls, .xlsx', {
        code: SPOT_CODES.FORMAT_NOT_SUPPORTED,
        extra: { detail: 'send the file as multipart/form-data under the key sheet' },
      });
    }
    return { variables: await importSheet(principal, { filename: file.filename, content: file.content }) };
  },
});
