// lib/aws/s3.ts ifPresent: only S3's "no such object" reads as absent; an unreachable S3 is an error.
import { describe, expect, it } from 'vitest';
import { ifPresent } from '../../lib/aws/s3';

const failure = (name: string, status?: number) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });

describe('ifPresent', () => {
  it('answers the object, or undefined when S3 says it does not exist', async () => {
    await expect(ifPresent(Promise.resolve('object'))).resolves.toBe('object');
    await expect(ifPresent(Promise.reject(failure('NoSuchKey', 404)))).resolves.toBeUndefined();
    await expect(ifPresent(Promise.reject(failure('NotFound', 404)))).resolves.toBeUndefined();
  });

  it('lets every other failure through (S3 unreachable, throttled, denied)', async () => {
    await expect(
      ifPresent(Promise.reject(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))),
    ).rejects.toThrow('socket hang up');
    await expect(ifPresent(Promise.reject(failure('SlowDown', 503)))).rejects.toThrow('SlowDown');
    await expect(ifPresent(Promise.reject(failure('AccessDenied', 403)))).rejects.toThrow('AccessDenied');
  });
});
