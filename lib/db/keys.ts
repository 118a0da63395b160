// The one place that builds DynamoDB keys. Layout and access patterns: docs/data-model.md.
// Numeric ids are zero-padded in sort keys so that items sort by id.

export interface Key {
  pk: string;
  sk: string;
}

export const pad = (id: number): string => String(id).padStart(10, '0');

/** Case- and space-insensitive form of a name, for uniqueness items. */
export const normalizeName = (name: string): string =>
  name.trim().replace(/\s+/g, ' ').toLocaleLowerCase('es');

export const keys = {
  counter: (name: string): Key => ({ pk: 'COUNTER', sk: name }),
  signingKey: (kid: string): Key => ({ pk: 'SYSTEM', sk: `JWK#${kid}` }),
  processedMessage: (id: string): Key => ({ pk: `PROCESSED#${id}`, sk: 'MESSAGE' }),

  user: (userId: number): Key => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  userAccessPrefix: (userId: number) => ({ pk: `USER#${userId}`, skPrefix: 'ACCESS#' }),
  userFarmAccess: (userId: number, farmId: number): Key => ({
    pk: `USER#${userId}`,
    sk: `ACCESS#FARM#${pad(farmId)}`,
  }),
  userFieldAccess: (userId: number, fieldId: number): Key => ({
    pk: `USER#${userId}`,
    sk: `ACCESS#FIELD#${pad(fieldId)}`,
  }),
  userFarmName: (userId: number, farmName: string): Key => ({
    pk: `USER#${userId}`,
    sk: `FARMNAME#${normalizeName(farmName)}`,
  }),
  supervision: (supervisorId: number, userId: number): Key => ({
    pk: `USER#${supervisorId}`,
    sk: `SUPERVISES#${pad(userId)}`,
  }),
  supervisionsPrefix: (supervisorId: number) => ({ pk: `USER#${supervisorId}`, skPrefix: 'SUPERVISES#' }),
  /** gsi1 of a supervision: the supervisors of a user. */
  supervisedByIndex: (userId: number, supervisorId: number) => ({
    gsi1pk: `USER#${userId}`,
    gsi1sk: `SUPERVISED_BY#${pad(supervisorId)}`,
  }),

  space: (spaceId: number): Key => ({ pk: `SPACE#${spaceId}`, sk: 'PROFILE' }),
  spaceMember: (spaceId: number, userId: number): Key => ({
    pk: `SPACE#${spaceId}`,
    sk: `MEMBER#${pad(userId)}`,
  }),

  farm: (farmId: number): Key => ({ pk: `FARM#${farmId}`, sk: 'PROFILE' }),
  farmFieldsPrefix: (farmId: number) => ({ pk: `FARM#${farmId}`, skPrefix: 'FIELD#' }),
  farmField: (farmId: number, fieldId: number): Key => ({
    pk: `FARM#${farmId}`,
    sk: `FIELD#${pad(fieldId)}`,
  }),
  farmFieldName: (farmId: number, fieldName: string): Key => ({
    pk: `FARM#${farmId}`,
    sk: `FIELDNAME#${normalizeName(fieldName)}`,
  }),
  farmShare: (farmId: number, userId: number): Key => ({
    pk: `FARM#${farmId}`,
    sk: `SHARE#${pad(userId)}`,
  }),

  /** Everything that hangs from a field lives in its partition (deleted with it). */
  field: (fieldId: number): Key => ({ pk: `FIELD#${fieldId}`, sk: 'PROFILE' }),
  fieldPartition: (fieldId: number) => ({ pk: `FIELD#${fieldId}` }),
  fieldShare: (fieldId: number, userId: number): Key => ({
    pk: `FIELD#${fieldId}`,
    sk: `SHARE#${pad(userId)}`,
  }),
};

export const parseIdFromSk = (sk: string): number => Number(sk.slice(sk.lastIndexOf('#') + 1));
