import { defineConfig } from 'vitest/config';

const env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', SURCO_LOG_LEVEL: 'silent' };

export default defineConfig({
  test: {
    // Two projects: `unit` runs in seconds without anything else (npx vitest run --project unit);
    // `stack` talks to one local stack (DynamoDB Local, S3, SQS, serverless-offline) for the run.
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          sequence: { groupOrder: 0 },
          testTimeout: 20_000,
          env,
        },
      },
      {
        test: {
          name: 'stack',
          sequence: { groupOrder: 1 },
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/unit/**'],
          globalSetup: ['tests/setup/stack.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          // Black-box tests write under their own users and ids, so files run in parallel.
          fileParallelism: true,
          maxWorkers: 4,
          env,
        },
      },
    ],
  },
});
