// /sensors/v2/providers/variables: POST, PATCH, DELETE (spec 1, Sensors)
import { endpoint } from '../../lib/http/endpoint';
import { callerOf } from '../../lib/sensors/groups';
import { sensors } from '../../lib/sensors/repository';
import {
  createVariableRoute,
  deleteVariableRoute,
  updateVariableRoute,
  wireCreatedVariable,
} from '../../schemas/sensors';

export const post = endpoint(createVariableRoute, {
  handler: async ({ body, principal }) => ({
    res: 'ok',
    data: wireCreatedVariable(await sensors.createVariable(callerOf(principal), body.group_uuid, body.variable)),
    info: 'variable created successfully',
  }),
});

/** The spec lists this operation under "Variable groups - update (U)". */
export const patch = endpoint(updateVariableRoute, {
  handler: async ({ body, principal }) => ({
    res: 'ok',
    data: wireCreatedVariable(await sensors.updateVariable(callerOf(principal), body.variable_uuid, body)),
    info: 'variable updated successfully',
  }),
});

export const del = endpoint(deleteVariableRoute, {
  handler: async ({ query, principal }) => {
    await sensors.deleteVariable(callerOf(principal), query.variable_uuid);
    return { res: 'ok', info: 'variable deleted successfully' };
  },
});
