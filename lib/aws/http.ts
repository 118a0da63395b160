// How long an AWS call may wait. A call that gets no answer (a connection that went stale, a
// service that stalls) fails after these limits and is retried by the SDK's standard retry
// strategy (timeouts are transient errors), instead of holding the function until its own
// timeout. Every client of lib/aws uses them.
export const AWS_REQUEST_HANDLER = {
  /** Establishing a connection. */
  connectionTimeout: 2_000,
  /** Without a byte of the answer once the request is sent (socket idle: a large body that keeps flowing is not cut). */
  requestTimeout: 5_000,
} as const;
