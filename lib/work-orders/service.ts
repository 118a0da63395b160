// Work orders (spec 3): list by yeargroup, create (client uuid, idempotent), replace, delete, and
// the document an operator takes to the field. A work order is its owner's: others never see it.
//
// The service is built from its repository and a reader of labours (services take them as
// parameters): tests/unit/agronomy.test.ts runs its rules in memory; lib/work-orders/repository.ts
// keeps work orders in DynamoDB.
import type { Principal } from '../auth/principal';
import { Conflict, Invalid, NotFound } from '../errors';
import type { LabourView } from '../labours/service';
import type { WebhookEmitter } from '../webhooks/emit';
import { WORK_ORDER_CODES } from './codes';
import { type Recommendation, recommendationProblems, type WorkOrder } from './model';
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

/** Where work orders are kept. */
export interface WorkOrderRepository {
  get(ownerId: number, uuid: string): Promise<WorkOrder | undefined>;
  listOf(ownerId: number): Promise<WorkOrder[]>;
  /** Stores a new work order; throws `taken()` when its uuid is already used (by anyone). */
  create(order: WorkOrder, taken: () => Conflict): Promise<void>;
  /** Replaces an existing one; throws `gone()` when it no longer exists. */
  replace(order: WorkOrder, gone: () => NotFound): Promise<void>;
  remove(order: WorkOrder, gone: () => NotFound): Promise<void>;
}

/** The labours of these uuids the caller reads (others are left out), as listed. */
export type LabourReader = (principal: Principal, uuids: string[]) => Promise<LabourView[]>;

const notFound = (uuid: string) => () =>
  new NotFound(`work order ${uuid} not found`, { code: WORK_ORDER_CODES.NOT_FOUND });

/** The members a work order keeps from an input: its labours once each, in lower case. */
const normalized = (input: WorkOrderInput): WorkOrderInput => ({
  name: input.name,
  notes: input.notes,
  date: input.date,
  yeargroup: input.yeargroup,
  labourUuids: [...new Set(input.labourUuids.map((u) => u.toLowerCase()))],
  recommendations: input.recommendations,
});

export function workOrdersService({
  repository,
  labours,
  emit,
  now = () => new Date(),
}: {
  repository: WorkOrderRepository;
  labours: LabourReader;
  emit?: WebhookEmitter;
  now?: () => Date;
}) {
  /** WORK_ORDER_CHANGED.V1 to its owner (a work order is the user's own; its labours' fields are not checked again). */
  const changed = async (order: WorkOrder, change: 'created' | 'changed' | 'deleted'): Promise<WorkOrder> => {
    await emit?.('WORK_ORDER_CHANGED.V1', {
      userIds: [order.ownerId],
      data: { work_order_uuid: order.uuid, yeargroup: order.yeargroup, change },
    });
    return order;
  };
  /** The labours a (normalized) work order names, each readable by the caller and of its campaign, and its recommendations' rule. */
  async function check(principal: Principal, input: WorkOrderInput): Promise<void> {
    const found = await labours(principal, input.labourUuids);
    const missing = input.labourUuids.filter((uuid) => !found.some((f) => f.labour.uuid === uuid));
    if (missing.length)
      throw new Invalid(`labours not found: ${missing.join(', ')}`, { code: WORK_ORDER_CODES.INVALID_LABOURS });
    const otherCampaign = found.filter((f) => f.labour.yeargroup !== input.yeargroup);
    if (otherCampaign.length) {
      throw new Invalid(
        `labours of another campaign than ${input.yeargroup}: ${otherCampaign.map((f) => f.labour.uuid).join(', ')}`,
        {
          code: WORK_ORDER_CODES.INVALID_LABOURS,
        },
      );
    }
    const problems = recommendationProblems(
      input.recommendations ?? [],
      found.map((f) => f.labour.typeId),
    );
    if (problems.length) throw new Invalid(problems.join('; '), { code: WORK_ORDER_CODES.RECOMMENDATION_NOT_ACCEPTED });
  }

  async function own(principal: Principal, uuid: string): Promise<WorkOrder> {
    const order = await repository.get(principal.user.id, uuid);
    if (!order) throw notFound(uuid)();
    return order;
  }

  const view = async (principal: Principal, order: WorkOrder): Promise<WorkOrderView> => ({
    order,
    labours: await labours(principal, order.labourUuids),
  });

  return {
    async list(principal: Principal, yeargroup: number): Promise<WorkOrderView[]> {
      const orders = (await repository.listOf(principal.user.id)).filter((o) => o.yeargroup === yeargroup);
      orders.sort((a, b) => a.date.localeCompare(b.date) || a.createdAt.localeCompare(b.createdAt));
      return Promise.all(orders.map((order) => view(principal, order)));
    },

    async get(principal: Principal, uuid: string): Promise<WorkOrderView> {
      return view(principal, await own(principal, uuid));
    },

    /** POST: a repeated uuid of the caller's answers the work order it made; another user's uuid conflicts. */
    async create(principal: Principal, uuid: string, input: WorkOrderInput): Promise<WorkOrder> {
      const userId = principal.user.id;
      const existing = await repository.get(userId, uuid);
      if (existing) return existing;
      const members = normalized(input);
      await check(principal, members);
      const at = now().toISOString();
      const order: WorkOrder = { uuid: uuid.toLowerCase(), ownerId: userId, ...members, createdAt: at, updatedAt: at };
      try {
        await repository.create(
          order,
          () => new Conflict(`work order ${order.uuid} already exists`, { code: WORK_ORDER_CODES.UUID_IN_USE }),
        );
      } catch (error) {
        // the same uuid sent twice at once by its owner: the other request made it
        const made = error instanceof Conflict ? await repository.get(userId, uuid) : undefined;
        if (made) return made;
        throw error;
      }
      return changed(order, 'created');
    },

    /** PUT: every member as POST sends it; optional members not sent become null. */
    async replace(principal: Principal, uuid: string, input: WorkOrderInput): Promise<WorkOrder> {
      const current = await own(principal, uuid);
      const members = normalized(input);
      await check(principal, members);
      const order: WorkOrder = { ...current, ...members, updatedAt: now().toISOString() };
      await repository.replace(order, notFound(uuid));
      return changed(order, 'changed');
    },

    async remove(principal: Principal, uuid: string): Promise<void> {
      const order = await own(principal, uuid);
      await repository.remove(order, notFound(uuid));
      await changed(order, 'deleted');
    },
  };
}
