// The local S3's policy check (scripts/local/s3-policy.ts): forms signed by the AWS SDK's own
// presigner pass; every tampering S3 refuses is refused here with S3's code.
import { createHash } from 'node:crypto';
import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { describe, expect, it } from 'vitest';
import { checkForm, PolicyError } from '../../scripts/local/s3-policy';

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const s3 = new S3Client({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1', forcePathStyle: true, credentials });
const content = Buffer.from('a small file');
const md5 = createHash('md5').update(content).digest('base64');

async function signed(expires = 60) {
  const post = await createPresignedPost(s3, {
    Bucket: 'bucket',
    Key: 'storage/users/u1/ext/key/1',
    Conditions: [
      ['content-length-range', 5, 20],
      ['eq', '$Content-MD5', md5],
      ['starts-with', '$Content-Type', 'image/'],
    ],
    Fields: { 'Content-Type': 'image/png' },
    Expires: expires,
  });
  return post.fields;
}

function form(fields: Record<string, string>, extra: Record<string, string> = {}, file = content) {
  const all = new Map<string, string>();
  for (const [name, value] of Object.entries({ ...fields, 'Content-MD5': md5, ...extra }))
    all.set(name.toLowerCase(), value);
  return { fields: all, file: { content: file, name: 'f.png' } };
}

function refusal(run: () => void): [number, string] | 'accepted' {
  try {
    run();
    return 'accepted';
  } catch (error) {
    if (error instanceof PolicyError) return [error.status, error.code];
    throw error;
  }
}

describe('local S3 policy check', () => {
  it('accepts a form exactly as the SDK presigned it', async () => {
    const fields = await signed();
    expect(refusal(() => checkForm(form(fields), 'bucket', credentials))).toBe('accepted');
  });

  it('refuses a changed key, a changed policy, another bucket and a wrong secret', async () => {
    const fields = await signed();
    expect(
      refusal(() => checkForm(form(fields, { key: 'storage/users/u2/ext/key/1' }), 'bucket', credentials)),
    ).toEqual([403, 'AccessDenied']);
    expect(refusal(() => checkForm(form(fields), 'other-bucket', credentials))).toEqual([403, 'AccessDenied']);
    const policy = JSON.parse(Buffer.from(fields.Policy!, 'base64').toString());
    policy.conditions = policy.conditions.filter(
      (c: unknown) => !(Array.isArray(c) && c[0] === 'content-length-range'),
    );
    const widened = Buffer.from(JSON.stringify(policy)).toString('base64');
    expect(refusal(() => checkForm(form({ ...fields, Policy: widened }), 'bucket', credentials))).toEqual([
      403,
      'SignatureDoesNotMatch',
    ]);
    expect(refusal(() => checkForm(form(fields), 'bucket', { ...credentials, secretAccessKey: 'other' }))).toEqual([
      403,
      'SignatureDoesNotMatch',
    ]);
    expect(refusal(() => checkForm(form(fields), 'bucket', { ...credentials, accessKeyId: 'other' }))).toEqual([
      403,
      'InvalidAccessKeyId',
    ]);
  });

  it('refuses files outside the size range, a wrong MD5, a content type outside the prefix and extra fields', async () => {
    const fields = await signed();
    expect(refusal(() => checkForm(form(fields, {}, Buffer.alloc(4)), 'bucket', credentials))).toEqual([
      400,
      'EntityTooSmall',
    ]);
    expect(refusal(() => checkForm(form(fields, {}, Buffer.alloc(21)), 'bucket', credentials))).toEqual([
      400,
      'EntityTooLarge',
    ]);
    // the same size as declared but other bytes: the MD5 condition matches the field, the file does not
    expect(refusal(() => checkForm(form(fields, {}, Buffer.from('a SMALL file')), 'bucket', credentials))).toEqual([
      400,
      'BadDigest',
    ]);
    expect(
      refusal(() =>
        checkForm(
          form(fields, { 'Content-MD5': createHash('md5').update('x').digest('base64') }),
          'bucket',
          credentials,
        ),
      ),
    ).toEqual([403, 'AccessDenied']);
    expect(refusal(() => checkForm(form(fields, { 'Content-Type': 'text/html' }), 'bucket', credentials))).toEqual([
      403,
      'AccessDenied',
    ]);
    expect(refusal(() => checkForm(form(fields, { 'x-amz-meta-owner': 'me' }), 'bucket', credentials))).toEqual([
      403,
      'AccessDenied',
    ]);
    // x-ignore- fields are exempt, as on S3
    expect(refusal(() => checkForm(form(fields, { 'x-ignore-note': 'anything' }), 'bucket', credentials))).toBe(
      'accepted',
    );
  });

  it('refuses an expired policy and a form without policy or file', async () => {
    const fields = await signed(10);
    expect(refusal(() => checkForm(form(fields), 'bucket', credentials, Date.now() + 11_000))).toEqual([
      403,
      'AccessDenied',
    ]);
    expect(refusal(() => checkForm(form({ ...fields, Policy: '' }), 'bucket', credentials))).toEqual([
      403,
      'AccessDenied',
    ]);
    const noFile = form(fields);
    delete (noFile as { file?: unknown }).file;
    expect(refusal(() => checkForm(noFile, 'bucket', credentials))).toEqual([400, 'InvalidArgument']);
  });
});
