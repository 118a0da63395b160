// GET /nc/stream (spec 3, Events): server-sent events through a Lambda response stream
// (docs/adr/0005-notification-stream.md).
import { streamEndpoint } from '../../lib/http/stream';
import { parseLastEventId, runStream } from '../../lib/notifications/stream';
import { streamRoute } from '../../schemas/notifications';

export const handler = streamEndpoint(streamRoute, {
  contentType: 'text/event-stream; charset=utf-8',
  tokenInQuery: true,
  handler: async ({ query, headers, principal, out }) => {
    let closed = false;
    let wake: (() => void) | undefined;
    const stop = () => {
      closed = true;
      wake?.();
    };
    out.once('close', stop);
    out.once('error', stop);
    await runStream(principal.user, parseLastEventId(headers['last-event-id'] ?? query.last_event_id), {
      write: (text) => {
        if (!closed) out.write(text);
      },
      get closed() {
        return closed || out.destroyed || out.writableEnded;
      },
      pause: (ms) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        }),
    });
  },
});
