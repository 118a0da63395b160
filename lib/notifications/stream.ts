// GET /nc/stream (spec 3, "Events"): server-sent events of one user. The stream reads the user's
// numbered stream entries (written by the worker with the inbox items) after a cursor: the
// Last-Event-ID the client sends, or the newest entry when it sends none. Every event carries
// `id: <n>`, so a client that reconnects gets exactly what it missed; PING.V1 keeps the
// connection alive. The transport (a Lambda response stream) is the endpoint factory (lib/http/endpoint.ts, StreamReply).
import { config } from '../config';
import type { User } from '../platform/model';
import type { SseSink } from '../util/sink';
import { PING_EVENT } from './catalogue';
import { messageOf } from './inbox';
import type { StreamEntry } from './model';
import type { NotificationDeps } from './service';

/** The channels events come from (the SSE `event:` field, i.e. the EventSource event type). */
export const CHANNELS = { notifications: 'notifications', ping: 'ping' } as const;
/** What EventSource clients wait before reconnecting. */
export const RECONNECT_MS = 1000;

export interface SseMessage {
  id?: number;
  type: string;
  data: unknown;
}

export const sseMessage = (message: SseMessage): string =>
  `${message.id !== undefined ? `id: ${message.id}\n` : ''}event: ${message.type}\ndata: ${JSON.stringify(message.data)}\n\n`;

const pingMessage = (): string =>
  sseMessage({ type: CHANNELS.ping, data: { event_name: PING_EVENT, event_payload: {}, event_msg: 'ping' } });

function entryMessage(entry: StreamEntry, user: User): string {
  return sseMessage({
    id: entry.seq,
    type: CHANNELS.notifications,
    data: {
      event_name: entry.eventName,
      event_payload: entry.payload,
      event_msg: messageOf(entry.eventName, entry.payload, entry.count, user.locale),
      item_id: entry.itemId,
    },
  });
}

/** Entries read from the stream per poll. */
const STREAM_BATCH = 100;

/** The Last-Event-ID a client sent (header, or `last_event_id` for clients that cannot set it). */
export function parseLastEventId(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d{1,12}\s*$/.test(value)) return undefined;
  return Number(value);
}

export function streamRules({ repository, streamTiming = config }: NotificationDeps) {
  return {
    /** Streams the user's events to `sink` until the client leaves or the stream's time is up. */
    async runStream(user: User, lastEventId: number | undefined, sink: SseSink): Promise<void> {
      const { streamPollMs, streamPingSeconds, streamMaxSeconds } = streamTiming();
      const latest = (await repository.state(user.id))?.seq ?? 0;
      let cursor = lastEventId === undefined ? latest : Math.min(lastEventId, latest);
      sink.write(`retry: ${RECONNECT_MS}\n: connected\n\n`);
      const started = Date.now();
      let nextPing = started + streamPingSeconds * 1000;
      while (!sink.closed && Date.now() - started < streamMaxSeconds * 1000) {
        const now = Date.now();
        const entries = await repository.entriesAfter(user.id, cursor, STREAM_BATCH);
        for (const entry of entries) {
          cursor = entry.seq;
          if (entry.ttl * 1000 < now) continue; // expired, not yet removed by TTL
          sink.write(entryMessage(entry, user));
        }
        if (now >= nextPing) {
          sink.write(pingMessage());
          nextPing = now + streamPingSeconds * 1000;
        }
        if (entries.length < STREAM_BATCH) await sink.pause(streamPollMs);
      }
    },
  };
}
