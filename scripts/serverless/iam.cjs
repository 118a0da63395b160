'use strict';
// Least-privilege IAM statements from what a route or worker declares it touches (lib/http/route.ts,
// `touches`). Each statement is scoped to one shared resource (or one prefix of the bucket) and
// named by its Sid; the plugin gives each function a role with exactly its statements.
//
// `shared(logicalId, attribute)` returns the reference to a resource of the platform service: a
// Ref/GetAtt in the platform's own stack, an Fn::ImportValue of its export in the others.

const FILE_PREFIXES = {
  'spots/': 'SpotImages',
  'storage/': 'StorageFiles',
  'sensor-bulk/': 'SensorBulk',
  'imagery/': 'ImageryRasters',
  'uploads/': 'LayerUploads',
};
const FILE_ACTIONS = {
  get: ['Read', 's3:GetObject'],
  put: ['Put', 's3:PutObject'],
  delete: ['Delete', 's3:DeleteObject'],
};
const QUEUES = {
  events: { logicalId: 'EventsQueue', name: 'Events' },
  sensorBulk: { logicalId: 'SensorBulkQueue', name: 'SensorBulk' },
  imagery: { logicalId: 'ImageryQueue', name: 'Imagery' },
  imageryUrgent: { logicalId: 'ImageryUrgentQueue', name: 'ImageryUrgent' },
  imageryBulk: { logicalId: 'ImageryBulkQueue', name: 'ImageryBulk' },
  webhooks: { logicalId: 'WebhookQueue', name: 'Webhook' },
  webhooksDeadLetter: { logicalId: 'WebhookDeadLetterQueue', name: 'WebhookDeadLetter' },
  changesDeadLetter: { logicalId: 'ChangesDeadLetterQueue', name: 'ChangesDeadLetter' },
};
const SECRETS = {
  internalKey: { logicalId: 'InternalKeySecret', sid: 'InternalKeyRead' },
  signingSeed: { logicalId: 'SigningSeedSecret', sid: 'SigningSeedRead' },
};

const join = (...parts) => ({ 'Fn::Join': ['', parts] });
const allow = (Sid, Action, Resource) => ({ Sid, Effect: 'Allow', Action, Resource });

/**
 * The statements of a function.
 * @param {{ auth?: string, touches?: object, consumes?: string, tableStream?: object }} fn a route (auth,
 *   touches) or a worker (touches, consumes: its queue, tableStream: the table's change stream)
 * @param {(logicalId: string, attribute: string) => unknown} shared
 */
function statementsFor(fn, shared) {
  const touches = fn.touches || {};
  const statements = [];
  // Verifying a bearer token reads the signing key and the user from the table.
  const table = touches.table || (fn.auth === 'bearer' ? 'read' : undefined);
  if (table) {
    statements.push(
      allow(
        'TableRead',
        ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'],
        [shared('MainTable', 'Arn'), join(shared('MainTable', 'Arn'), '/index/*')],
      ),
    );
  }
  if (table === 'write') {
    statements.push(
      allow(
        'TableWrite',
        ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
        [shared('MainTable', 'Arn')],
      ),
    );
  }
  for (const queue of touches.sends || []) {
    const q = QUEUES[queue];
    if (!q) throw new Error(`unknown queue ${queue}`);
    statements.push(allow(`${q.name}Send`, ['sqs:SendMessage'], [shared(q.logicalId, 'Arn')]));
  }
  if (fn.consumes) {
    const q = QUEUES[fn.consumes];
    if (!q) throw new Error(`unknown queue ${fn.consumes}`);
    statements.push(
      allow(
        `${q.name}Consume`,
        ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueAttributes'],
        [shared(q.logicalId, 'Arn')],
      ),
    );
  }
  if (fn.tableStream) {
    // the event source mapping reads the stream with the function's role; its failed batches are
    // recorded on the dead-letter queue with it too
    statements.push(
      allow(
        'TableStreamRead',
        ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
        [shared('MainTable', 'StreamArn')],
      ),
    );
    const q = QUEUES[fn.tableStream.deadLetter];
    if (!q) throw new Error(`unknown queue ${fn.tableStream.deadLetter}`);
    statements.push(allow(`${q.name}Send`, ['sqs:SendMessage'], [shared(q.logicalId, 'Arn')]));
  }
  for (const [prefix, actions] of Object.entries(touches.files || {})) {
    const name = FILE_PREFIXES[prefix];
    if (!name) throw new Error(`unknown bucket prefix ${prefix}`);
    for (const action of [...new Set(actions)].sort()) {
      const [suffix, iamAction] = FILE_ACTIONS[action] || [];
      if (!suffix) throw new Error(`unknown file action ${action}`);
      statements.push(allow(`${name}${suffix}`, [iamAction], [join(shared('FilesBucket', 'Arn'), `/${prefix}*`)]));
    }
  }
  const secrets = new Set(touches.secrets || []);
  if (fn.auth === 'internal') secrets.add('internalKey');
  for (const secret of [...secrets].sort()) {
    const s = SECRETS[secret];
    if (!s) throw new Error(`unknown secret ${secret}`);
    statements.push(allow(s.sid, ['secretsmanager:GetSecretValue'], [shared(s.logicalId, 'Ref')]));
  }
  return statements;
}

/** X-Ray has no resource-level permissions: the one statement on '*', added only when tracing is on. */
const X_RAY_STATEMENT = allow('XRayWrite', ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], ['*']);

module.exports = { statementsFor, X_RAY_STATEMENT, FILE_PREFIXES, QUEUES, SECRETS };
