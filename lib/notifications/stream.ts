// GET /nc/stream (spec 3, "Events"): server-sent events of one user. The stream reads the user's
// numbered stream entries (written by the worker with the inbox items) after a cursor: the
// Last-Event-ID the client sends, or the newest entry when it sends none. Every event carries
// `id: <n>`, so a client that reconnects gets exactly what it missed; PING.V1 keeps the
// connection alive. The transport (a Lambda response stream) is the endpoint factory (lib/http/endpoint.ts, StreamReply).
import { config } from '../config';
import { keys } from '../db/keys';
import { getItem, queryAll, type Item } from '../db/table';
import type { SseSink } from '../util/sink';
import type { User } from '../platform/model';
import { PING_EVENT } from './catalogue';
import { messageOf } from './inbox';

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

function entryMessage(entry: Item, user: User): string {
  const payload = (entry.payload as Record<string, unknown> | undefined) ?? {};
  const eventName = String(entry.event_name);
  return sseMessage({
    id: Number(entry.seq),
    type: CHANNELS.notifications,
    data: {
      event_name: eventName,
      event_payload: payload,
      event_msg: messageOf(eventName, payload, Number(entry.count ?? 1), user.locale),
      item_id: entry.item_id,
    },
  });
}

/** The Last-Event-ID a client sent (header, or `last_event_id` for clients that cannot set it). */
export function parseLastEventId(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d{1,12}\s*$/.test(value)) return undefined;
  return Number(value);
}

/** Streams the user's events to `sink` until the client leaves or the stream's time is up. */
export async function runStream(user: User, lastEventId: number | undefined, sink: SseSink): Promise<void> {
  const { streamPollMs, streamPingSeconds, streamMaxSeconds } = config();
  const latest = Number((await getItem(keys.inboxState(user.id)))?.seq ?? 0);
  let cursor = lastEventId === undefined ? latest : Math.min(lastEventId, latest);
  sink.write(`retry: ${RECONNECT_MS}\n: connected\n\n`);
  const started = Date.now();
  let nextPing = started + streamPingSeconds * 1000;
  while (!sink.closed && Date.now() - started < streamMaxSeconds * 1000) {
    const now = Date.now();
    const entries = await queryAll({ ...keys.inboxLogAfter(user.id, cursor), limit: 100 });
    for (const entry of entries) {
      cursor = Number(entry.seq);
      if (Number(entry.ttl ?? Infinity) * 1000 < now) continue; // expired, not yet removed by TTL
      sink.write(entryMessage(entry, user));
    }
    if (now >= nextPing) {
      sink.write(pingMessage());
      nextPing = now + streamPingSeconds * 1000;
    }
    if (entries.length < 100) await sink.pause(streamPollMs);
  }
}
