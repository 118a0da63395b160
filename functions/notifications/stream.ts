// GET /nc/stream (spec 3, Events): server-sent events through a Lambda response stream
// (docs/adr/0005-notification-stream.md).
import { endpoint } from '../../lib/http/endpoint';
import { StreamReply } from '../../lib/http/reply';
import { notifications } from '../../lib/notifications/repository';
import { parseLastEventId } from '../../lib/notifications/stream';
import { sinkOf } from '../../lib/util/sink';
import { streamRoute } from '../../schemas/notifications';

export const handler = endpoint(streamRoute, {
  handler: async ({ query, headers, principal }) => {
    const lastEventId = parseLastEventId(headers['last-event-id'] ?? query.last_event_id);
    return new StreamReply('text/event-stream; charset=utf-8', (out) =>
      notifications.runStream(principal.user, lastEventId, sinkOf(out)),
    );
  },
});
