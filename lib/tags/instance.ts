// The tags service of the functions: DynamoDB and the platform's gate. Apart from repository.ts
// because getfields (lib/fields/list.ts, which the gate itself reads) takes farm tags from the
// repository: keeping the gate out of repository.ts keeps the modules free of import cycles.
import { platformFieldGate } from '../authz/gate';
import { dynamoTagRepository } from './repository';
import { tagsService } from './service';

export const tags = /* @__PURE__ */ tagsService({ repository: dynamoTagRepository, gate: platformFieldGate });
