// The fields service of the functions: DynamoDB, the platform's gate and users, the events queue.
// Apart from repository.ts, which the guard reads in every function, so that only the functions
// that create or delete fields carry the country coder (creation) and the queue client (deletion).
import { platformFieldGate } from '../authz/gate';
import { config } from '../config';
import { publishEvent } from '../events/publish';
import { requestFirstLook } from '../imagery/lanes-repository';
import { getSpace, getUser } from '../platform/users';
import { dynamoFieldRepository } from './repository';
import { fieldCreationService, fieldDeletionService } from './service';

// Each part is built only when a function uses it (pure calls: a function bundles what it calls).
export const fieldCreation = /* @__PURE__ */ fieldCreationService({
  repository: dynamoFieldRepository,
  gate: platformFieldGate,
  users: getUser,
  spaces: getSpace,
  maxFieldHectares: () => config().maxFieldHectares,
  requestImagery: requestFirstLook,
});
export const fieldDeletion = /* @__PURE__ */ fieldDeletionService({
  repository: dynamoFieldRepository,
  gate: platformFieldGate,
  users: getUser,
  publish: publishEvent,
});
