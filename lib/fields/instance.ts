// The fields service of the functions: DynamoDB, the platform's gate and users, the events queue.
// Apart from repository.ts, which the guard reads in every function, so that only the functions
// that create or delete fields carry the queue client and the country coder.
import { platformFieldGate } from '../authz/gate';
import { config } from '../config';
import { publishEvent } from '../events/publish';
import { getSpace, getUser } from '../platform/users';
import { dynamoFieldRepository } from './repository';
import { fieldsService } from './service';

export const fields = fieldsService({
  repository: dynamoFieldRepository,
  gate: platformFieldGate,
  users: getUser,
  spaces: getSpace,
  publish: publishEvent,
  maxFieldHectares: () => config().maxFieldHectares,
});
