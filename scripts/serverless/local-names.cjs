'use strict';
// How the local stack names the resources declared in serverless.yml, so that the serverless
// plugin (function environment) and the local provisioner (tables, bucket, queues) agree.
// Used for stage `local` only; in AWS CloudFormation resolves the same references.

const LOCAL_ACCOUNT = '000000000000';

function pseudo(region) {
  return {
    'AWS::AccountId': LOCAL_ACCOUNT,
    'AWS::Region': region,
    'AWS::Partition': 'aws',
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': 'surco-local',
  };
}

/**
 * Returns a resolver of CloudFormation intrinsics (Ref, Fn::GetAtt, Fn::Sub, Fn::Join) against
 * the given resources, as the local stack names them.
 * @param {Record<string, {Type: string, Properties?: any}>} resources
 * @param {{region: string, sqsEndpoint?: string}} options
 */
function localResolver(resources, { region, sqsEndpoint }) {
  const pseudoParams = pseudo(region);

  function sub(template, vars = {}) {
    return template.replace(/\$\{([^}]+)\}/g, (match, name) => {
      if (name in vars) return String(resolve(vars[name]));
      if (name in pseudoParams) return pseudoParams[name];
      const [logicalId, attribute] = name.split('.');
      if (resources[logicalId]) return attribute ? getAtt(logicalId, attribute) : ref(logicalId);
      return match;
    });
  }

  function nameOf(logicalId) {
    const resource = resources[logicalId];
    if (!resource) throw new Error(`unknown resource ${logicalId}`);
    const props = resource.Properties || {};
    switch (resource.Type) {
      case 'AWS::DynamoDB::Table':
        return resolve(props.TableName);
      case 'AWS::SQS::Queue':
        return resolve(props.QueueName);
      case 'AWS::S3::Bucket':
        return resolve(props.BucketName);
      case 'AWS::SecretsManager::Secret':
        return resolve(props.Name);
      case 'AWS::Logs::LogGroup':
        return resolve(props.LogGroupName);
      default:
        return logicalId;
    }
  }

  function ref(logicalId) {
    if (logicalId in pseudoParams) return pseudoParams[logicalId];
    const resource = resources[logicalId];
    if (!resource) return logicalId;
    if (resource.Type === 'AWS::SQS::Queue') {
      if (!sqsEndpoint) throw new Error('sqsEndpoint is needed to resolve a queue URL');
      return `${sqsEndpoint.replace(/\/$/, '')}/${LOCAL_ACCOUNT}/${nameOf(logicalId)}`;
    }
    return nameOf(logicalId);
  }

  function getAtt(logicalId, attribute) {
    const resource = resources[logicalId];
    if (!resource) throw new Error(`unknown resource ${logicalId}`);
    const name = nameOf(logicalId);
    if (attribute === 'Arn') {
      switch (resource.Type) {
        case 'AWS::DynamoDB::Table':
          return `arn:aws:dynamodb:${region}:${LOCAL_ACCOUNT}:table/${name}`;
        case 'AWS::SQS::Queue':
          return `arn:aws:sqs:${region}:${LOCAL_ACCOUNT}:${name}`;
        case 'AWS::S3::Bucket':
          return `arn:aws:s3:::${name}`;
        default:
          return `arn:aws:local:${region}:${LOCAL_ACCOUNT}:${name}`;
      }
    }
    if (attribute === 'QueueName') return name;
    if (attribute === 'QueueUrl') return ref(logicalId);
    return name;
  }

  function resolve(value) {
    if (value === null || value === undefined) return value;
    if (typeof value === 'string') return sub(value);
    if (Array.isArray(value)) return value.map(resolve);
    if (typeof value === 'object') {
      if ('Ref' in value) return ref(value.Ref);
      if ('Fn::GetAtt' in value) {
        const target = value['Fn::GetAtt'];
        const [logicalId, attribute] = Array.isArray(target) ? target : String(target).split('.');
        return getAtt(logicalId, attribute);
      }
      if ('Fn::Sub' in value) {
        const arg = value['Fn::Sub'];
        return Array.isArray(arg) ? sub(arg[0], arg[1]) : sub(arg);
      }
      if ('Fn::Join' in value) {
        const [delimiter, list] = value['Fn::Join'];
        return list.map(resolve).join(delimiter);
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    }
    return value;
  }

  return { resolve, nameOf, ref, getAtt };
}

module.exports = { localResolver, LOCAL_ACCOUNT };
