// Work orders (spec 3): list by yeargroup, create (client uuid, idempotent), replace, delete, and
// the document an operator takes to the field. A work order is its owner's: others never see it.
import type { Principal } from '../auth/principal';
import { keys } from '../db/keys';
import { getItem, NOT_EXISTS, queryAll, transact, tx, EXISTS } from '../db/table';
import { Conflict, Invalid, NotFound } from '../errors';
import { labourViews, readableLabours, type LabourView } from '../labours/service';
import { WorkOrder, recommendationProblems, type Recommendation } from './model';
import { WORK_ORDER_CODES } from './codes';

export interface WorkOrderInput {
  name: string | null;
  notes: string | null;
  date: string;
  yeargroup: number;
  labourUuids: string[];
  recommendations: Recommendation[] | null;
}

export interface WorkOrderView {
  order: WorkOrder;
  /** The labours it still reaches (a deleted labour, or one no longer shared, is left out). */
  labours: LabourView[];
}

const notFound = (uuid: string) => new NotFound(`work order ${uuid} not found`, { code: WORK_ORDER_CODES.NOT_FOUND });

/** The labours a work order names, each readable by the caller and of its campaign, and its recommendations' rule. */
async function checkInput(principal: Principal, input: WorkOrderInput): Promise<void> {
  const uuids = [...new Set(input.labourUuids.map((u) => u.toLowerCase()))];
  const found = await readableLabours(principal, uuids);
  const missing = uuids.filter((uuid) => !found.some((f) => f.labour.uuid === uuid));
  if (missing.length) throw new Invalid(`labours not found: ${missing.join(', ')}`, { code: WORK_ORDER_CODES.INVALID_LABOURS });
  const otherCampaign = found.filter((f) => f.labour.yeargroup !== input.yeargroup);
  if (otherCampaign.length) {
    throw new Invalid(`labours of another campaign than ${input.yeargroup}: ${otherCampaign.map((f) => f.labour.uuid).join(', ')}`, {
      code: WORK_ORDER_CODES.INVALID_LABOURS,
    });
  }
  const problems = recommendationProblems(input.recommendations ?? [], found.map((f) => f.labour.typeId));
  if (problems.length) throw new Invalid(problems.join('; '), { code: WORK_ORDER_CODES.RECOMMENDATION_NOT_ACCEPTED });
}

const orderItem = (order: WorkOrder) => ({ ...keys.workOrder(order.ownerId, order.uuid), ...WorkOrder.toItem(order) });

async function own(principal: Principal, uuid: string): Promise<WorkOrder> {
  const item = await getItem(keys.workOrder(principal.user.id, uuid));
  if (!item) throw notFound(uuid);
  return WorkOrder.fromItem(item);
}

async function view(principal: Principal, order: WorkOrder): Promise<WorkOrderView> {
  const found = await readableLabours(principal, order.labourUuids);
  return { order, labours: await labourViews(principal.user.id, found) };
}

export async function listWorkOrders(principal: Principal, yeargroup: number): Promise<WorkOrderView[]> {
  const orders = (await queryAll(keys.workOrdersPrefix(principal.user.id))).map(WorkOrder.fromItem).filter((o) => o.yeargroup === yeargroup);
  orders.sort((a, b) => a.date.localeCompare(b.date) || a.createdAt.localeCompare(b.createdAt));
  return Promise.all(orders.map((order) => view(principal, order)));
}

export async function getWorkOrder(principal: Principal, uuid: string): Promise<WorkOrderView> {
  return view(principal, await own(principal, uuid));
}

/** POST: a repeated uuid of the caller's answers the work order it made; another user's uuid conflicts. */
export async function createWorkOrder(principal: Principal, uuid: string, input: WorkOrderInput): Promise<WorkOrder> {
  const userId = principal.user.id;
  const existing = await getItem(keys.workOrder(userId, uuid));
  if (existing) return WorkOrder.fromItem(existing);
  await checkInput(principal, input);
  const now = new Date().toISOString();
  const order: WorkOrder = { uuid: uuid.toLowerCase(), ownerId: userId, ...normalized(input), createdAt: now, updatedAt: now };
  const taken = () => new Conflict(`work order ${order.uuid} already exists`, { code: WORK_ORDER_CODES.UUID_IN_USE });
  try {
    await transact([
      tx.put({ ...keys.workOrderRef(order.uuid), kind: 'work_order_ref', owner_id: userId }, NOT_EXISTS, taken),
      tx.put(orderItem(order), NOT_EXISTS, taken),
    ]);
  } catch (error) {
    const made = await getItem(keys.workOrder(userId, uuid));
    if (error instanceof Conflict && made) return WorkOrder.fromItem(made);
    throw error;
  }
  return order;
}

/** PUT: every member as POST sends it; optional members not sent become null. */
export async function replaceWorkOrder(principal: Principal, uuid: string, input: WorkOrderInput): Promise<WorkOrder> {
  const current = await own(principal, uuid);
  await checkInput(principal, input);
  const order: WorkOrder = { ...current, ...normalized(input), updatedAt: new Date().toISOString() };
  await transact([tx.put(orderItem(order), EXISTS, () => notFound(uuid))]);
  return order;
}

export async function deleteWorkOrder(principal: Principal, uuid: string): Promise<void> {
  const order = await own(principal, uuid);
  await transact([tx.delete(keys.workOrder(order.ownerId, order.uuid), EXISTS, () => notFound(uuid)), tx.delete(keys.workOrderRef(order.uuid))]);
}

const normalized = (input: WorkOrderInput) => ({
  name: input.name,
  notes: input.notes,
  date: input.date,
  yeargroup: input.yeargroup,
  labourUuids: [...new Set(input.labourUuids.map((u) => u.toLowerCase()))],
  recommendations: input.recommendations,
});
