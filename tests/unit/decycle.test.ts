// The service state's writer (scripts/serverless/decycle.cjs) against json-cycle, which osls writes
// it with: the same text for the same object, cycles and shared references included.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const ours = require('../../scripts/serverless/decycle.cjs') as {
  stringify: (value: unknown, r?: null, s?: number) => string;
};
// json-cycle as osls resolves it
const jsonCycle = createRequire(require.resolve('osls/package.json'))('json-cycle') as typeof ours;

const same = (value: unknown) => expect(ours.stringify(value, null, 2)).toBe(jsonCycle.stringify(value, null, 2));

describe('decycle (the service state osls writes)', () => {
  it('writes cycles and shared references as json-cycle does, as $ref paths to their first appearance', () => {
    const shared = { Ref: 'MainTable', list: [1, 'two', null, true] };
    const root: Record<string, any> = { a: shared, b: [shared, { c: shared.list }], 'quoted "key"': { shared } };
    root.self = root;
    root.b.push(root.b);
    same(root);
    expect(JSON.parse(ours.stringify(root)).b[0]).toEqual({ $ref: '$["a"]' });
  });

  it('writes what JSON leaves out or converts as json-cycle does (toJSON, dates, undefined, functions, sparse arrays)', () => {
    class Named {
      toJSON() {
        return { named: true };
      }
    }
    const date = new Date('2026-01-01T00:00:00Z');
    const fromToJSON = { kept: 1 };
    const value = {
      date,
      again: date,
      named: new Named(),
      twice: { toJSON: () => fromToJSON },
      also: { toJSON: () => fromToJSON },
      notAFunction: { toJSON: 3 },
      missing: undefined,
      fn: () => 1,
      holes: Object.assign(new Array(4), { 0: 1, 2: 3 }),
      inherited: Object.assign(Object.create({ fromProto: 1 }), { own: 2 }),
      numbers: [0, -0, Number.NaN, 1e21],
      empty: [{}, []],
    };
    same(value);
  });

  it('writes a template-sized object as json-cycle does', () => {
    const resources: Record<string, unknown> = {};
    const role = { 'Fn::GetAtt': ['Role', 'Arn'] };
    for (let i = 0; i < 800; i++) {
      resources[`Function${i}LambdaFunction`] = {
        Type: 'AWS::Lambda::Function',
        Properties: {
          Role: i % 3 ? role : { 'Fn::GetAtt': [`Role${i}`, 'Arn'] },
          Environment: { Variables: { I: i } },
        },
        DependsOn: [`Role${i}`],
      };
    }
    const service = { provider: { compiledCloudFormationTemplate: { Resources: resources } }, functions: resources };
    same(service);
  });
});
