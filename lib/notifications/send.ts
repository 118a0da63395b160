// Events handed to the worker: by internal services (POST /nc-internal/events) and by users
// testing their notifications (POST /nc/events/test). Both are validated here, enqueued, and
// answered at once; the worker delivers them (lib/notifications/deliver.ts).
import type { Principal } from '../auth/principal';
import { keys } from '../db/keys';
import { batchGet, itemKey } from '../db/table';
import { Forbidden, Invalid } from '../errors';
import { publishEvent, type EventEnvelope } from '../events/publish';
import { describeIssues } from '../http/issues';
import { getUsers } from '../platform/users';
import { resolveEvent, STACKABLE_TEST_EVENT, TEST_EVENT } from './catalogue';
import { NotificationData } from './deliver';

export async function sendEvent(eventName: string, data: Record<string, unknown>, eventId?: string): Promise<EventEnvelope> {
  const resolved = resolveEvent(eventName);
  if (!resolved.ok) throw new Invalid(resolved.reason);
  if (!resolved.definition.inbox) throw new Invalid(`${eventName} is the stream's keep-alive; it is not sent to users`);
  const parsed = NotificationData.safeParse(data);
  if (!parsed.success) throw new Invalid(`data: ${describeIssues(parsed.error.issues)}`);
  const payload = resolved.definition.payload.safeParse(parsed.data.payload);
  if (!payload.success) throw new Invalid(`data.payload of ${eventName}: ${describeIssues(payload.error.issues)}`);
  return publishEvent(resolved.definition.name, { ...parsed.data, payload: payload.data }, { id: eventId });
}

/**
 * TEST.V1 (STACKABLE_TEST.V1 when stackable) to users the caller may notify: itself, the members
 * of its workspace and the users it supervises.
 */
export async function sendTestEvent(principal: Principal, userIds: number[], stackable: boolean): Promise<EventEnvelope> {
  const ids = [...new Set(userIds)];
  const users = await getUsers(ids);
  const unknown = ids.filter((id) => !users.has(id));
  if (unknown.length) throw new Invalid(`unknown user_ids: ${unknown.join(', ')}`);
  const caller = principal.user;
  const supervisions = await batchGet(ids.map((id) => keys.supervision(caller.id, id)));
  const refused = ids.filter(
    (id) => id !== caller.id && users.get(id)!.spaceId !== caller.spaceId && !supervisions.has(itemKey(keys.supervision(caller.id, id))),
  );
  if (refused.length) throw new Forbidden(`the user cannot notify users ${refused.join(', ')} (not in its workspace nor supervised)`);
  return sendEvent(stackable ? STACKABLE_TEST_EVENT : TEST_EVENT, { user_ids: ids, payload: {} });
}
