// Work orders in DynamoDB: one item in the creator's partition (a uuid names a work order within
// its creator's), and a pointer in the partition of each other owner of its labours' fields (they
// read it), written and deleted with it.
import { keys } from '../db/keys';
import { EXISTS, getItem, NOT_EXISTS, queryAll, type TxOp, transact, tx } from '../db/table';
import { labours } from '../labours/repository';
import { WorkOrder } from './model';
import { type LabourReader, type WorkOrderRepository, workOrdersService } from './service';

const item = (order: WorkOrder) => ({ ...keys.workOrder(order.ownerId, order.uuid), ...WorkOrder.toItem(order) });
const pointer = (order: WorkOrder, fieldOwnerId: number) => ({
  ...keys.workOrderPointer(fieldOwnerId, order.ownerId, order.uuid),
  kind: 'work_order_pointer',
  owner_id: order.ownerId,
  work_order_uuid: order.uuid,
});
const pointerOps = (order: WorkOrder, previous: number[] = []): TxOp[] => [
  ...previous
    .filter((id) => !order.fieldOwnerIds.includes(id))
    .map((id) => tx.delete(keys.workOrderPointer(id, order.ownerId, order.uuid))),
  ...order.fieldOwnerIds.filter((id) => !previous.includes(id)).map((id) => tx.put(pointer(order, id))),
];

export const dynamoWorkOrderRepository: WorkOrderRepository = {
  async get(ownerId, uuid) {
    const found = await getItem(keys.workOrder(ownerId, uuid));
    return found ? WorkOrder.fromItem(found) : undefined;
  },
  async listOf(ownerId) {
    return (await queryAll(keys.workOrdersPrefix(ownerId))).map(WorkOrder.fromItem);
  },
  async pointedAt(fieldOwnerId) {
    return (await queryAll(keys.workOrderPointers(fieldOwnerId))).map((p) => ({
      ownerId: Number(p.owner_id),
      uuid: String(p.work_order_uuid),
    }));
  },
  async create(order, taken) {
    await transact([tx.put(item(order), NOT_EXISTS, taken), ...pointerOps(order)]);
  },
  async replace(order, previous, gone) {
    await transact([tx.put(item(order), EXISTS, gone), ...pointerOps(order, previous.fieldOwnerIds)]);
  },
  async remove(order, gone) {
    await transact([
      tx.delete(keys.workOrder(order.ownerId, order.uuid), EXISTS, gone),
      ...order.fieldOwnerIds.map((id) => tx.delete(keys.workOrderPointer(id, order.ownerId, order.uuid))),
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
});
