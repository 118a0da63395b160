// /sensors/v2/providers/variablegroups: GET, POST, PATCH, DELETE (spec 1, Sensors)
import { endpoint } from '../../lib/http/endpoint';
import { callerOf } from '../../lib/sensors/groups';
import { sensors } from '../../lib/sensors/repository';
import {
  createGroupRoute,
  deleteGroupRoute,
  listGroupsRoute,
  updateGroupRoute,
  wireGroup,
} from '../../schemas/sensors';

export const list = endpoint(listGroupsRoute, {
  handler: async ({ query, principal }) => ({
    res: 'ok',
    data: (await sensors.listGroups(callerOf(principal), query.group_uuid)).map(wireGroup),
  }),
});

export const post = endpoint(createGroupRoute, {
  handler: async ({ body, principal }) => ({
    res: 'ok',
    data: wireGroup(await sensors.createGroup(callerOf(principal), body)),
    info: 'variable group created successfully',
  }),
});

export const patch = endpoint(updateGroupRoute, {
  handler: async ({ body, principal }) => ({
    res: 'ok',
    data: wireGroup(await sensors.updateGroup(callerOf(principal), body.group_uuid, body)),
    info: 'variable group updated successfully',
  }),
});

export const del = endpoint(deleteGroupRoute, {
  handler: async ({ query, principal }) => {
    await sensors.deleteGroup(callerOf(principal), query.group_uuid);
    return { res: 'ok', info: 'variable group deleted successfully' };
  },
});
