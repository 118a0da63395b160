// Work orders in DynamoDB: one item in the owner's partition, and a ref that keeps a uuid to one
// owner (written and deleted with it).
import { keys } from '../db/keys';
import { EXISTS, getItem, NOT_EXISTS, queryAll, transact, tx } from '../db/table';
import { labours } from '../labours/repository';
import { emitWebhookEvent } from '../webhooks/emit';
import { WorkOrder } from './model';
import { type LabourReader, type WorkOrderRepository, workOrdersService } from './service';

const item = (order: WorkOrder) => ({ ...keys.workOrder(order.ownerId, order.uuid), ...WorkOrder.toItem(order) });

export const dynamoWorkOrderRepository: WorkOrderRepository = {
  async get(ownerId, uuid) {
    const found = await getItem(keys.workOrder(ownerId, uuid));
    return found ? WorkOrder.fromItem(found) : undefined;
  },
  async listOf(ownerId) {
    return (await queryAll(keys.workOrdersPrefix(ownerId))).map(WorkOrder.fromItem);
  },
  async create(order, taken) {
    await transact([
      tx.put({ ...keys.workOrderRef(order.uuid), kind: 'work_order_ref', owner_id: order.ownerId }, NOT_EXISTS, taken),
      tx.put(item(order), NOT_EXISTS, taken),
    ]);
  },
  async replace(order, gone) {
    await transact([tx.put(item(order), EXISTS, gone)]);
  },
  async remove(order, gone) {
    await transact([
      tx.delete(keys.workOrder(order.ownerId, order.uuid), EXISTS, gone),
      tx.delete(keys.workOrderRef(order.uuid)),
    ]);
  },
};

/** The labours a work order lists, read with the caller's access. */
export const labourReader: LabourReader = async (principal, uuids) =>
  labours.labourViews(principal.user.id, await labours.readableLabours(principal, uuids));

/** The work-orders service of the functions: DynamoDB and the caller's labours. */
export const workOrders = /* @__PURE__ */ workOrdersService({
  repository: dynamoWorkOrderRepository,
  labours: labourReader,
  emit: emitWebhookEvent,
});
