import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // One local stack (DynamoDB Local, S3, SQS, serverless-offline) for the whole run.
    globalSetup: ['tests/setup/stack.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Black-box tests write under their own users and ids, so files run in parallel.
    fileParallelism: true,
    maxWorkers: 4,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', SURCO_LOG_LEVEL: 'silent' },
  },
});
