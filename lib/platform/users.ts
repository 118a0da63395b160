// Users, workspaces (spaces) and supervisions: the platform core behind the internal API.
import { keys } from '../db/keys';
import { batchGet, EXISTS, itemKey, NOT_EXISTS, nextId, putItem, queryAll, readItem, transact, tx } from '../db/table';
import { Invalid, NotFound } from '../errors';
import { newUuid } from '../util/uuid';
import { INTERNAL_CODES } from './codes';
import { type Locale, Space, Supervision, User } from './model';

export async function getUser(userId: number): Promise<User | undefined> {
  return readItem(keys.user(userId), User.fromItem);
}

export async function getUsers(userIds: number[]): Promise<Map<number, User>> {
  const found = await batchGet(userIds.map((id) => keys.user(id)));
  const users = new Map<number, User>();
  for (const id of userIds) {
    const item = found.get(itemKey(keys.user(id)));
    if (item) users.set(id, User.fromItem(item));
  }
  return users;
}

export async function requireUser(userId: number, role = 'user'): Promise<User> {
  const user = await getUser(userId);
  if (!user) throw new NotFound(`${role} ${userId} does not exist`, { code: INTERNAL_CODES.NOT_FOUND });
  return user;
}

export async function getUserByUid(uid: string): Promise<User | undefined> {
  const userId = await readItem(keys.userByUid(uid), (ref) => Number(ref.user_id));
  return userId === undefined ? undefined : getUser(userId);
}

export async function getSpace(spaceId: number): Promise<Space | undefined> {
  return readItem(keys.space(spaceId), Space.fromItem);
}

export interface CreateUserInput {
  userName: string;
  locale: Locale;
  features: string[];
  hectareQuota: number | null;
  spaceId?: number;
}

/** Creates a user; without a space, a new workspace with the user as its administrator. */
export async function createUser(input: CreateUserInput): Promise<User> {
  if (input.spaceId !== undefined && !(await getSpace(input.spaceId))) {
    throw new NotFound(`space ${input.spaceId} does not exist`, { code: INTERNAL_CODES.NOT_FOUND });
  }
  const id = await nextId('user');
  const spaceId = input.spaceId ?? (await nextId('space'));
  const now = new Date().toISOString();
  const user: User = {
    id,
    uid: newUuid(),
    userName: input.userName,
    locale: input.locale,
    features: input.features,
    hectareQuota: input.hectareQuota,
    hectaresUsed: 0,
    spaceId,
    createdAt: now,
  };
  const space = {
    ...keys.space(spaceId),
    kind: 'space',
    id: spaceId,
    admin_user_id: id,
    hectare_quota: input.hectareQuota,
    hectares_used: 0,
    created_at: now,
  };
  await transact([
    input.spaceId === undefined ? tx.put(space, NOT_EXISTS) : tx.check(keys.space(spaceId), EXISTS),
    tx.put({ ...keys.user(id), ...User.toItem(user) }, NOT_EXISTS),
    tx.put({ ...keys.userByUid(user.uid), kind: 'user_uid', user_id: id }, NOT_EXISTS),
    tx.put({ ...keys.spaceMember(spaceId, id), kind: 'space_member', space_id: spaceId, user_id: id }),
  ]);
  return user;
}

export async function addSupervision(input: Supervision): Promise<Supervision> {
  if (input.supervisorId === input.userId) {
    throw new Invalid('a user cannot supervise itself', { code: INTERNAL_CODES.INVALID_RELATION });
  }
  await requireUser(input.supervisorId, 'supervisor');
  await requireUser(input.userId, 'user');
  await putItem({
    ...keys.supervision(input.supervisorId, input.userId),
    ...keys.supervisedByIndex(input.userId, input.supervisorId),
    ...Supervision.toItem(input),
    created_at: new Date().toISOString(),
  });
  return input;
}

/** The users a supervisor supervises. */
export async function supervisionsOf(supervisorId: number): Promise<Supervision[]> {
  const { pk, skPrefix } = keys.supervisionsPrefix(supervisorId);
  return (await queryAll({ pk, skPrefix })).map(Supervision.fromItem);
}

/** Which of these users the supervisor supervises. */
export async function supervisedAmong(supervisorId: number, userIds: number[]): Promise<Set<number>> {
  const found = await batchGet(userIds.map((id) => keys.supervision(supervisorId, id)));
  return new Set(userIds.filter((id) => found.has(itemKey(keys.supervision(supervisorId, id)))));
}
