// /activities/labour (and /api/activities/labour): list, one, create, change, delete (spec 3, Labours).
import { endpoint } from '../../lib/http/endpoint';
import type { LabourTypeId, Status } from '../../lib/labours/model';
import { labours } from '../../lib/labours/repository';
import {
  createLabourRoute,
  deleteLabourRoute,
  getLabourRoute,
  labourWrite,
  listLaboursRoute,
  patchLabourRoute,
  wireLabour,
} from '../../schemas/labours';

export const list = endpoint(listLaboursRoute, {
  handler: async ({ query, principal }) => {
    const crops = [...(query.crop_id !== undefined ? [query.crop_id] : []), ...(query.crops_ids ?? [])];
    const page = await labours.listLabours(
      principal,
      {
        yeargroup: query.yeargroup,
        farmIds: query.farm_id !== undefined ? [query.farm_id] : undefined,
        fieldIds: query.fields_id,
        fieldUuids: query.field_uuid,
        farmUuids: query.farm_uuid,
        status: query.status,
        dateFrom: query.date_from,
        dateTo: query.date_to,
        cropIds: crops.length ? crops : undefined,
        typeId: query.labour_type_id,
      },
      query.page,
      query.page_size,
    );
    return { data: page.views.map(wireLabour), pagination: { total_page: page.totalPages, page: page.page } };
  },
});

export const get = endpoint(getLabourRoute, {
  handler: async ({ path, principal }) => ({ data: wireLabour(await labours.getLabour(principal, path.labour_uuid)) }),
});

export const post = endpoint(createLabourRoute, {
  handler: async ({ body, principal }) => {
    const labour = await labours.createLabour(principal, {
      ...labourWrite(body),
      typeId: body.labour_type_id as LabourTypeId,
      status: body.status as Status,
      yeargroup: body.yeargroup,
      date: body.date,
    });
    return { data: { uuid: labour.uuid } };
  },
});

export const patch = endpoint(patchLabourRoute, {
  handler: async ({ path, body, principal }) => ({
    data: { uuid: (await labours.patchLabour(principal, path.labour_uuid, labourWrite(body))).uuid },
  }),
});

export const del = endpoint(deleteLabourRoute, {
  handler: async ({ path, principal }) => {
    await labours.deleteLabour(principal, path.labour_uuid);
    return { data: { uuid: path.labour_uuid.toLowerCase() } };
  },
});
