// Work orders (spec 3): list by yeargroup, create (client uuid, idempotent), replace, delete, and
// the document an operator takes to the field. A work order is its creator's: only the creator
// changes it. The owner of a field its labours are in reads it too (list and download), so that
// what a contractor plans on a field reaches the field's owner; anyone else never sees it.
// A client uuid names a work order within its creator's (docs/decisions.md, "Work orders").
//
// The service is built from its repository and a reader of labours (services take them as
// parameters): tests/unit/agronomy.test.ts runs its rules in memory; lib/work-orders/repository.ts
// keeps work orders in DynamoDB.
import type { Principal } from '../auth/principal';
import { Conflict, Forbidden, Invalid, NotFound } from '../errors';
import type { LabourView } from '../labours/service';
import { fingerprint } from '../util/fingerprint';
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
  /** The labours the caller still reaches (a deleted labour, or one no longer shared, is left out). */
  labours: LabourView[];
}

/** A work order of another user that points at a field owner (written with it). */
export interface WorkOrderPointer {
  ownerId: number;
  uuid: string;
}

/** Where work orders are kept. */
export interface WorkOrderRepository {
  get(ownerId: number, uuid: string): Promise<WorkOrder | undefined>;
  listOf(ownerId: number): Promise<WorkOrder[]>;
  /** Work orders of others written for labours on fields `fieldOwnerId` owns (as pointed at when written). */
  pointedAt(fieldOwnerId: number): Promise<WorkOrderPointer[]>;
  /** Stores a new work order (and its pointers to `order.fieldOwnerIds`); throws `taken()` when its owner already has its uuid. */
  create(order: WorkOrder, taken: () => Conflict): Promise<void>;
  /** Replaces an existing one read as `previous` (pointers follow); throws `gone()` when it no longer exists. */
  replace(order: WorkOrder, previous: WorkOrder, gone: () => NotFound): Promise<void>;
  remove(order: WorkOrder, gone: () => NotFound): Promise<void>;
}

/** The labours of these uuids the caller reads (others are left out), as listed. */
export type LabourReader = (principal: Principal, uuids: string[]) => Promise<LabourView[]>;

const notFound = (uuid: string) => () =>
  new NotFound(`work order ${uuid} not found`, { code: WORK_ORDER_CODES.NOT_FOUND });
const readOnly = (uuid: string) =>
  new Forbidden(`work order ${uuid} is another user's: its field's owner reads it, only its creator changes it`, {
    code: WORK_ORDER_CODES.NOT_ALLOWED,
  });
const taken = (uuid: string, why: string) => () =>
  new Conflict(`work order ${uuid} already exists: ${why}`, { code: WORK_ORDER_CODES.UUID_IN_USE });

/** The members a work order keeps from an input: its labours once each, in lower case. */
const normalized = (input: WorkOrderInput): WorkOrderInput => ({
  name: input.name,
  notes: input.notes,
  date: input.date,
  yeargroup: input.yeargroup,
  labourUuids: [...new Set(input.labourUuids.map((u) => u.toLowerCase()))],
  recommendations: input.recommendations,
});

/** The owners of the labours' fields, other than the work order's creator: they read it. */
const fieldOwnersOf = (labours: LabourView[], creatorId: number): number[] =>
  [...new Set(labours.map((l) => l.field.ownerId))].filter((id) => id !== creatorId).sort((a, b) => a - b);

export function workOrdersService({
  repository,
  labours,
  now = () => new Date(),
}: {
  repository: WorkOrderRepository;
  labours: LabourReader;
  now?: () => Date;
}) {
  /** The labours a (normalized) work order names, each readable by the caller and of its campaign, and its recommendations' rule. */
  async function check(principal: Principal, input: WorkOrderInput): Promise<LabourView[]> {
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
    return found;
  }

  /**
   * Another user's work orders the caller reads, with their labours as the caller reads them: those
   * written for labours on fields the caller owns (checked again now: a pointer outlives a labour
   * moved out of the order or a field deleted). `uuid` keeps only that one.
   */
  async function ofOwnedFields(principal: Principal, uuid?: string): Promise<WorkOrderView[]> {
    const pointers = (await repository.pointedAt(principal.user.id)).filter(
      (p) => p.ownerId !== principal.user.id && (uuid === undefined || p.uuid === uuid.toLowerCase()),
    );
    const views = await Promise.all(
      pointers.map(async (p) => {
        const order = await repository.get(p.ownerId, p.uuid);
        if (!order) return undefined;
        const reached = await labours(principal, order.labourUuids);
        return reached.some((l) => l.field.ownerId === principal.user.id) ? { order, labours: reached } : undefined;
      }),
    );
    return views.filter((v): v is WorkOrderView => v !== undefined).sort((a, b) => a.order.ownerId - b.order.ownerId);
  }

  const view = async (principal: Principal, order: WorkOrder): Promise<WorkOrderView> => ({
    order,
    labours: await labours(principal, order.labourUuids),
  });

  /** The caller's own work order of a uuid; 403 for one it only reads; 404 otherwise (as a uuid nobody used). */
  async function own(principal: Principal, uuid: string): Promise<WorkOrder> {
    const order = await repository.get(principal.user.id, uuid);
    if (order) return order;
    if ((await ofOwnedFields(principal, uuid)).length) throw readOnly(uuid);
    throw notFound(uuid)();
  }

  return {
    /** The caller's work orders of a campaign and those written for labours on its fields, by date. */
    async list(principal: Principal, yeargroup: number): Promise<WorkOrderView[]> {
      const mine = (await repository.listOf(principal.user.id)).filter((o) => o.yeargroup === yeargroup);
      const views = [
        ...(await Promise.all(mine.map((order) => view(principal, order)))),
        ...(await ofOwnedFields(principal)).filter((v) => v.order.yeargroup === yeargroup),
      ];
      return views.sort(
        (a, b) =>
          a.order.date.localeCompare(b.order.date) ||
          a.order.createdAt.localeCompare(b.order.createdAt) ||
          a.order.uuid.localeCompare(b.order.uuid),
      );
    },

    /** One work order the caller reads: its own first, else one written for labours on its fields. */
    async get(principal: Principal, uuid: string): Promise<WorkOrderView> {
      const order = await repository.get(principal.user.id, uuid);
      if (order) return view(principal, order);
      const [shared] = await ofOwnedFields(principal, uuid);
      if (shared) return shared;
      throw notFound(uuid)();
    },

    /**
     * POST: a uuid names a work order within its creator's. The caller's uuid sent again with the
     * same body answers the work order it made; with another body, or the uuid of a work order the
     * caller reads through its fields, it conflicts (409 code 4). Another user's work order of that
     * uuid that the caller cannot see does not exist for it: it makes its own.
     */
    async create(principal: Principal, uuid: string, input: WorkOrderInput): Promise<WorkOrder> {
      const userId = principal.user.id;
      const members = normalized(input);
      const sent = fingerprint(members);
      const replay = (existing: WorkOrder): WorkOrder => {
        if (existing.createdWith && existing.createdWith !== sent)
          throw taken(uuid, 'it was created with another body; send that body, or a new uuid')();
        return existing;
      };
      const existing = await repository.get(userId, uuid);
      if (existing) return replay(existing);
      if ((await ofOwnedFields(principal, uuid)).length)
        throw taken(uuid, "the caller reads another user's work order of this uuid")();
      const found = await check(principal, members);
      const at = now().toISOString();
      const order: WorkOrder = {
        uuid: uuid.toLowerCase(),
        ownerId: userId,
        ...members,
        fieldOwnerIds: fieldOwnersOf(found, userId),
        createdWith: sent,
        createdAt: at,
        updatedAt: at,
      };
      try {
        await repository.create(order, taken(uuid, 'made meanwhile'));
      } catch (error) {
        // the same uuid sent twice at once by its owner: the other request made it
        const made = error instanceof Conflict ? await repository.get(userId, uuid) : undefined;
        if (made) return replay(made);
        throw error;
      }
      return order;
    },

    /** PUT: every member as POST sends it; optional members not sent become null. Only its creator. */
    async replace(principal: Principal, uuid: string, input: WorkOrderInput): Promise<WorkOrder> {
      const current = await own(principal, uuid);
      const members = normalized(input);
      const found = await check(principal, members);
      const order: WorkOrder = {
        ...current,
        ...members,
        fieldOwnerIds: fieldOwnersOf(found, current.ownerId),
        updatedAt: now().toISOString(),
      };
      await repository.replace(order, current, notFound(uuid));
      return order;
    },

    /** DELETE: only its creator. */
    async remove(principal: Principal, uuid: string): Promise<void> {
      const order = await own(principal, uuid);
      await repository.remove(order, notFound(uuid));
    },
  };
}
