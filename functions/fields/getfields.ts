// GET /api/getfields (spec 2, Fields): streamed as it is read, whatever the account's size
// (docs/deploy.md, "Large answers").
import { pagedFields } from '../../lib/fields/list';
import { endpoint } from '../../lib/http/endpoint';
import { StreamReply, writeInTurn } from '../../lib/http/reply';
import { getFieldsRoute, writeGetFields } from '../../schemas/fields';

export const get = endpoint(getFieldsRoute, {
  handler: async ({ principal }) => {
    // what can fail (the caller's access, the farms' reads) fails before the answer starts
    const listing = await pagedFields(principal);
    return new StreamReply(
      'application/json; charset=utf-8',
      (out) => writeGetFields(listing, (text) => writeInTurn(out, text)),
      { headers: { 'cache-control': 'no-store' }, compress: true },
    );
  },
});
