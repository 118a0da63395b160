// GET /nc/stream (spec 3, Events): server-sent events through a Lambda response stream
// (docs/adr/0005-notification-stream.md).
import { streamEndpoint } from '../../lib/http/stream';
import { sinkOf } from '../../lib/util/sink';
import { parseLastEventId, runStream } from '../../lib/notifications/stream';
import { streamRoute } from '../../schemas/notifications';

export const handler = streamEndpoint(streamRoute, {
  contentType: 'text/event-stream; charset=utf-8',
  tokenInQuery: true,
  handler: async ({ query, headers, principal, out }) =>
    runStream(principal.user, parseLastEventId(headers['last-event-id'] ?? query.last_event_id), sinkOf(out)),
});
