// The SQS kit (lib/aws/sqs-client.ts: the client and the commands we send), loaded once per
// container on first use with `await sqsKit()`, like the geometry kit (ADR 0008). Types may be
// imported from sqs-client.ts (`import type`); tests/unit/pure-schemas.test.ts finds any other
// import of it.
import { onFirstUse } from '../util/first-use';

export type SqsKit = typeof import('./sqs-client');

/** The SQS client and commands, loaded once per container on first use. */
export const sqsKit: () => Promise<SqsKit> = /* @__PURE__ */ onFirstUse(() => import('./sqs-client'));
