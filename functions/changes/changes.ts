// GET /api/changes (docs/integrations.md "Change feed").
import { changes } from '../../lib/changes/repository';
import type { FeedEntry } from '../../lib/changes/service';
import { endpoint } from '../../lib/http/endpoint';
import { listChangesRoute } from '../../schemas/changes';

const wire = (entry: FeedEntry) => ({
  kind: entry.kind,
  change: entry.change,
  id: entry.id,
  uuid: entry.uuid,
  rev: entry.rev,
  ...(entry.fieldId !== undefined ? { field_id: entry.fieldId } : {}),
  ...(entry.farmId !== undefined ? { farm_id: entry.farmId } : {}),
  ...(entry.key !== undefined ? { key: entry.key } : {}),
  at: entry.at,
  record: entry.record ?? null,
  ...(entry.recordOmitted ? { record_omitted: true as const } : {}),
});

export const list = endpoint(listChangesRoute, {
  handler: async ({ query, principal }) => {
    const page = await changes.page(principal, query.since, query.limit);
    return { code: 0 as const, data: { changes: page.changes.map(wire), cursor: page.cursor, has_more: page.hasMore } };
  },
});
