// Inboxes in DynamoDB (docs/data-model.md): one partition per user (INBOX#<user>) with its state
// (stream number and pending count), items, pins, stacks, stream entries and delivery markers.
// Every write is one transaction.
import { keys } from '../db/keys';
import { LostRace } from '../db/retry';
import { batchGet, EXISTS, itemKey, NOT_EXISTS, queryAll, readItem, type TxOp, transact, tx } from '../db/table';
import { publishEvent } from '../events/publish';
import { getUser, getUsers, supervisedAmong } from '../platform/users';
import { DELIVERY_MARKER_SECONDS } from './deliver';
import { InboxItem, StreamEntry } from './model';
import { sendRules } from './send';
import { type InboxRepository, notificationsService } from './service';

const race = () => new LostRace('the inbox changed meanwhile');

/** The writes that remove one item, its pin and the stack pointing to it. */
function removal(userId: number, item: InboxItem, stacks: Map<string, string>): TxOp[] {
  const ops = [
    tx.delete(keys.inboxItem(userId, item.itemId), EXISTS, () => new LostRace('the item changed meanwhile')),
  ];
  if (item.pinned) ops.push(tx.delete(keys.inboxPin(userId, item.itemId)));
  if (stacks.get(item.eventName) === item.itemId) {
    ops.push(
      tx.delete(
        keys.inboxStack(userId, item.eventName),
        'item_id = :id',
        () => new LostRace('the stack changed meanwhile'),
        { ':id': item.itemId },
      ),
    );
  }
  return ops;
}

export const dynamoInboxRepository: InboxRepository = {
  async state(userId) {
    return readItem(keys.inboxState(userId), (item) => ({
      seq: Number(item.seq ?? 0),
      pending: Number(item.pending ?? 0),
    }));
  },
  async item(userId, itemId) {
    return readItem(keys.inboxItem(userId, itemId), InboxItem.fromItem);
  },
  async items(userId, itemIds) {
    const found = await batchGet(
      itemIds.map((id) => keys.inboxItem(userId, id)),
      { consistent: false },
    );
    return [...found.values()].map(InboxItem.fromItem);
  },
  async newest(userId, limit, { listing = false } = {}) {
    return (
      await queryAll({
        ...keys.inboxItemsPrefix(userId),
        descending: true,
        ...(limit !== undefined ? { limit } : {}),
        consistent: !listing,
      })
    ).map(InboxItem.fromItem);
  },
  async pins(userId) {
    return (await queryAll({ ...keys.inboxPinsPrefix(userId), consistent: false })).map((pin) => ({
      itemId: String(pin.item_id),
      pinnedUntil: pin.pinned_until ? String(pin.pinned_until) : null,
    }));
  },
  async stacks(userId, eventNames) {
    const found = await batchGet(eventNames.map((name) => keys.inboxStack(userId, name)));
    return new Map(
      eventNames.flatMap((name) => {
        const stack = found.get(itemKey(keys.inboxStack(userId, name)));
        return stack ? [[name, String(stack.item_id)] as const] : [];
      }),
    );
  },
  async entriesAfter(userId, seq, limit) {
    return (await queryAll({ ...keys.inboxLogAfter(userId, seq), limit })).map(StreamEntry.fromItem);
  },
  async dismiss(userId, items, stacks) {
    await transact([
      ...items.flatMap((item) => removal(userId, item, stacks)),
      tx.update(keys.inboxState(userId), { expression: 'ADD pending :minus', values: { ':minus': -items.length } }),
    ]);
  },
  async deliver(delivery, duplicate) {
    const { userId, item, entry } = delivery;
    const stateKey = keys.inboxState(userId);
    const ops: TxOp[] = [
      // first, so that a redelivery is recognised before anything else is compared
      tx.put(
        {
          ...keys.inboxDelivery(userId, delivery.eventId),
          kind: 'inbox_delivery',
          item_id: item.itemId,
          ttl: Math.floor(Date.parse(item.createdAt) / 1000) + DELIVERY_MARKER_SECONDS,
        },
        NOT_EXISTS,
        duplicate,
      ),
      delivery.seqRead !== null
        ? tx.update(
            stateKey,
            {
              expression: 'SET seq = :next ADD pending :delta',
              condition: 'seq = :seq',
              values: { ':next': entry.seq, ':seq': delivery.seqRead, ':delta': delivery.pendingDelta },
            },
            race,
          )
        : tx.put({ ...stateKey, kind: 'inbox_state', user_id: userId, seq: entry.seq, pending: 1 }, NOT_EXISTS, race),
      tx.put({ ...keys.inboxLog(userId, entry.seq), ...StreamEntry.toItem(entry) }, NOT_EXISTS, race),
      tx.put({ ...keys.inboxItem(userId, item.itemId), ...InboxItem.toItem(item) }, NOT_EXISTS, race),
    ];
    if (item.pinned)
      ops.push(
        tx.put({
          ...keys.inboxPin(userId, item.itemId),
          kind: 'inbox_pin',
          item_id: item.itemId,
          pinned_until: item.pinnedUntil,
        }),
      );
    if (delivery.stack) {
      const pointer = { ...keys.inboxStack(userId, item.eventName), kind: 'inbox_stack', item_id: item.itemId };
      if (delivery.stack.from) ops.push(tx.put(pointer, 'item_id = :old', race, { ':old': delivery.stack.from }));
      else ops.push(tx.put(pointer, NOT_EXISTS, race));
    }
    if (delivery.replaced) {
      ops.push(tx.delete(keys.inboxItem(userId, delivery.replaced.itemId), EXISTS, race));
      if (delivery.replaced.pinned) ops.push(tx.delete(keys.inboxPin(userId, delivery.replaced.itemId)));
    }
    await transact(ops);
  },
};

/** The notifications service of the functions and the worker: DynamoDB and the platform's users. */
export const notifications = /* @__PURE__ */ notificationsService({
  repository: dynamoInboxRepository,
  users: getUser,
});

/** Events handed to the worker (POST /nc-internal/events, POST /nc/events/test). */
export const notificationEvents = /* @__PURE__ */ sendRules({
  publish: publishEvent,
  users: getUsers,
  supervised: supervisedAmong,
});
