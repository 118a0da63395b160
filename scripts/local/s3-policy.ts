// The local S3's front door: s3rver serves S3's API but does not enforce presigned POST policies.
// This proxy checks every browser-form upload (POST to a bucket with multipart/form-data) the way
// S3 does before it reaches s3rver: the policy's signature (AWS Signature Version 4), its
// expiration, every condition (exact matches, starts-with, content-length-range) against the form
// fields and the file, every form field covered by a condition, and the file's MD5 when the form
// carries Content-MD5. A form that fails is refused with S3's error (403 AccessDenied, 400
// EntityTooSmall / EntityTooLarge / BadDigest) and never stored. Every other request passes through
// unchanged. Used by scripts/local/stack.ts (npm start, npm test).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import Busboy from '@fastify/busboy';

/** Largest form accepted (the largest presigned upload is 512 MiB, plus the form's fields). */
const MAX_FORM_BYTES = 513 * 1024 * 1024;
/** Form fields a policy need not name (S3: "except x-amz-signature, file, policy, and x-ignore-*"). */
const EXEMPT = new Set(['x-amz-signature', 'file', 'policy']);

export class PolicyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Form {
  fields: Map<string, string>;
  file?: { content: Buffer; name: string };
}

function readForm(body: Buffer, contentType: string): Promise<Form> {
  return new Promise((resolve, reject) => {
    const form: Form = { fields: new Map() };
    const parser = Busboy({
      headers: { 'content-type': contentType },
      limits: { fileSize: MAX_FORM_BYTES, fields: 100, fieldSize: 1024 * 1024 },
    });
    parser.on('field', (name, value) => form.fields.set(name.toLowerCase(), value));
    parser.on('file', (name, stream, filename) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', reject);
      stream.on('end', () => {
        if (name.toLowerCase() === 'file') form.file = { content: Buffer.concat(chunks), name: filename ?? '' };
      });
    });
    parser.on('error', reject);
    parser.on('finish', () => resolve(form));
    parser.end(body);
  });
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** The SigV4 signature of a POST policy (the base64 policy is the string to sign). */
export function policySignature(secret: string, date: string, region: string, policyBase64: string): string {
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(policyBase64).digest('hex');
}

const refuse = (condition: unknown) =>
  new PolicyError(
    403,
    'AccessDenied',
    `Invalid according to Policy: Policy Condition failed: ${JSON.stringify(condition)}`,
  );

/** Checks a form against its policy as S3 does; throws a PolicyError when it fails. */
export function checkForm(
  form: Form,
  bucket: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  now = Date.now(),
): void {
  const field = (name: string) => (name.toLowerCase() === 'bucket' ? bucket : form.fields.get(name.toLowerCase()));
  const policyBase64 = form.fields.get('policy');
  if (!policyBase64) throw new PolicyError(403, 'AccessDenied', 'Bucket POST must contain a field named policy');
  if (!form.file) throw new PolicyError(400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
  if (field('x-amz-algorithm') !== 'AWS4-HMAC-SHA256')
    throw new PolicyError(400, 'InvalidArgument', 'x-amz-algorithm must be AWS4-HMAC-SHA256');
  const [accessKey, date, region, service, terminal] = (field('x-amz-credential') ?? '').split('/');
  if (accessKey !== credentials.accessKeyId || !date || !region || service !== 's3' || terminal !== 'aws4_request') {
    throw new PolicyError(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
    );
  }
  const expected = Buffer.from(policySignature(credentials.secretAccessKey, date, region, policyBase64), 'hex');
  const given = Buffer.from(field('x-amz-signature') ?? '', 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new PolicyError(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided.',
    );
  }
  let policy: { expiration?: string; conditions?: unknown[] };
  try {
    policy = JSON.parse(Buffer.from(policyBase64, 'base64').toString('utf8'));
  } catch {
    throw new PolicyError(400, 'InvalidPolicyDocument', 'Invalid Policy: Invalid JSON.');
  }
  if (!policy.expiration || !(Date.parse(policy.expiration) > now))
    throw new PolicyError(403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
  const covered = new Set<string>();
  for (const condition of policy.conditions ?? []) {
    if (Array.isArray(condition)) {
      const [operator, name, value] = condition as [string, unknown, unknown];
      if (String(operator).toLowerCase() === 'content-length-range') {
        const size = form.file.content.length;
        if (size < Number(name))
          throw new PolicyError(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');
        if (size > Number(value))
          throw new PolicyError(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
        continue;
      }
      const fieldName = String(name).replace(/^\$/, '').toLowerCase();
      covered.add(fieldName);
      const actual = field(fieldName) ?? '';
      const ok =
        operator === 'eq'
          ? actual === String(value)
          : operator === 'starts-with'
            ? actual.startsWith(String(value))
            : false;
      if (!ok) throw refuse(condition);
    } else if (condition && typeof condition === 'object') {
      for (const [name, value] of Object.entries(condition)) {
        covered.add(name.toLowerCase());
        if (field(name) !== String(value)) throw refuse(condition);
      }
    }
  }
  for (const name of form.fields.keys()) {
    if (!EXEMPT.has(name) && !name.startsWith('x-ignore-') && !covered.has(name)) {
      throw new PolicyError(403, 'AccessDenied', `Invalid according to Policy: Extra input fields: ${name}`);
    }
  }
  const md5 = form.fields.get('content-md5');
  if (md5 !== undefined && createHash('md5').update(form.file.content).digest('base64') !== md5) {
    throw new PolicyError(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
  }
}

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Starts the proxy on `port`, in front of s3rver on `upstreamPort`. */
export function startPolicyProxy(options: {
  host: string;
  port: number;
  upstreamPort: number;
  credentials: { accessKeyId: string; secretAccessKey: string };
}): Promise<Server> {
  const forward = (req: IncomingMessage, res: ServerResponse, body?: Buffer) => {
    const upstream = request(
      { host: options.host, port: options.upstreamPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(error.message);
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const bucket = url.pathname.split('/').filter(Boolean);
    const isForm =
      req.method === 'POST' && bucket.length === 1 && /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');
    if (!isForm) return forward(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) chunks.push(chunk);
    });
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      try {
        if (size > MAX_FORM_BYTES)
          throw new PolicyError(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
        checkForm(await readForm(body, req.headers['content-type'] ?? ''), bucket[0]!, options.credentials);
      } catch (error) {
        const refusal =
          error instanceof PolicyError
            ? error
            : new PolicyError(
                400,
                'MalformedPOSTRequest',
                'The body of your POST request is not well-formed multipart/form-data.',
              );
        res.writeHead(refusal.status, { 'content-type': 'application/xml', 'access-control-allow-origin': '*' });
        res.end(
          `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${xmlEscape(refusal.message)}</Message></Error>`,
        );
        return;
      }
      forward(req, res, body);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve(server));
  });
}
