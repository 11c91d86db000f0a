import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import {
  DEFAULT_UPLOAD_PART_BYTES,
  PARALLEL_UPLOAD_PARTS,
  partUrlPool,
  planUploadParts,
  remainingUploadParts,
  uploadPartRange,
  type PartUrl,
  type UploadPartPlan,
} from '@dentflow/domain';

/**
 * The upload bench's side of the browser: the resumable protocol exactly as
 * apps/web/src/features/attachments/resumable-sender.ts runs it (start, then the parts,
 * PARALLEL_UPLOAD_PARTS at a time, their URLs asked ahead through partUrlPool, then complete,
 * which confirms).
 * Parts are streamed from the file, as the browser sends a Blob slice.
 */
export interface UploadSession {
  base: string;
  token: string;
}

const MIB = 1024 * 1024;
const agent = new Agent({ keepAlive: true, maxSockets: PARALLEL_UPLOAD_PARTS * 2 });

interface Answer {
  status: number;
  body: string;
  etag: string | undefined;
}

function call(
  url: string,
  method: 'POST' | 'PUT',
  headers: Record<string, string | number>,
  body: string | { file: string; start: number; end: number },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          etag: res.headers.etag,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (typeof body === 'string') req.end(body);
    else {
      // 1 MiB reads: the default 64 KiB would spend the shared cores on syscalls, not bytes.
      createReadStream(body.file, {
        start: body.start,
        end: body.end - 1,
        highWaterMark: MIB,
      }).pipe(req);
    }
  });
}

async function api<T>(session: UploadSession, path: string, payload: unknown): Promise<T> {
  const answer = await call(
    `${session.base}/api/v1${path}`,
    'POST',
    { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
    JSON.stringify(payload),
  );
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
  return (JSON.parse(answer.body) as { obj: T }).obj;
}

/** A new case of the signed-in doctor. */
export async function createBenchCase(session: UploadSession): Promise<number> {
  const created = await api<{ id: number }>(session, '/case/new', {
    patient: { fname: 'Bench', lname: 'Upload' },
  });
  return created.id;
}

/**
 * Uploads the first `size` bytes of `file` as a CT exam (`cbct.zip`) of `caseId`; answers the
 * plan and the confirmed attachment's status.
 */
export async function uploadExam(
  session: UploadSession,
  caseId: number,
  file: string,
  size: number,
): Promise<{ plan: UploadPartPlan; status: string }> {
  const { attachment, upload: plan } = await api<{
    attachment: { id: number };
    upload: UploadPartPlan;
  }>(session, `/attachment/resumable/${caseId}`, {
    filename: 'cbct.zip',
    filesize: size,
    attachment_name: 'exams.dicom',
  });
  const etags: Record<number, string> = {};
  const queue = remainingUploadParts(plan, []);
  const urls = partUrlPool(async (partNumbers) => {
    const { parts } = await api<{ parts: PartUrl[] }>(
      session,
      `/attachment/resumable/${attachment.id}/partUrls`,
      { partNumbers },
    );
    return parts;
  });
  const sendOne = async (part: number) => {
    const url = await urls.take(part, queue);
    const range = uploadPartRange(plan, size, part)!;
    const answer = await call(
      url.startsWith('/') ? `${session.base}${url}` : url,
      'PUT',
      { 'content-type': 'application/octet-stream', 'content-length': range.size },
      { file, start: range.start, end: range.end },
    );
    if (answer.status !== 200 || !answer.etag) {
      throw new Error(`part ${part}: ${answer.status} ${answer.body}`);
    }
    etags[part] = answer.etag;
  };
  const worker = async () => {
    for (let part = queue.shift(); part !== undefined; part = queue.shift()) await sendOne(part);
  };
  await Promise.all(Array.from({ length: PARALLEL_UPLOAD_PARTS }, worker));
  const done = await api<{ attachment: { status: string } }>(
    session,
    `/attachment/resumable/${attachment.id}/complete`,
    { parts: Object.entries(etags).map(([part, etag]) => ({ partNumber: Number(part), etag })) },
  );
  return { plan, status: done.attachment.status };
}

/**
 * The same file's first `size` bytes, in the same parts and with the same parts in flight, to the
 * bare receiver (bare-upload-server.ts): no start, part URL or completion calls.
 */
export async function uploadBare(base: string, file: string, size: number): Promise<void> {
  const plan = planUploadParts(size, DEFAULT_UPLOAD_PART_BYTES);
  const queue = remainingUploadParts(plan, []);
  const sendOne = async (part: number) => {
    const range = uploadPartRange(plan, size, part)!;
    const answer = await call(
      `${base}/part?start=${range.start}`,
      'PUT',
      { 'content-type': 'application/octet-stream', 'content-length': range.size },
      { file, start: range.start, end: range.end },
    );
    if (answer.status !== 200 || !answer.etag) {
      throw new Error(`bare part ${part}: ${answer.status} ${answer.body}`);
    }
  };
  const worker = async () => {
    for (let part = queue.shift(); part !== undefined; part = queue.shift()) await sendOne(part);
  };
  await Promise.all(Array.from({ length: PARALLEL_UPLOAD_PARTS }, worker));
}

/**
 * The file's first `size` bytes over raw TCP to the bare receiver's socket port, split into
 * PARALLEL_UPLOAD_PARTS connections of one contiguous share each, read as the parts are: the
 * floor of a Node.js receiver on this machine, with no HTTP around the bytes.
 */
export async function uploadOverSocket(port: number, file: string, size: number): Promise<void> {
  const share = Math.ceil(size / PARALLEL_UPLOAD_PARTS / MIB) * MIB;
  const sendShare = (start: number, end: number) =>
    new Promise<void>((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      const head = Buffer.alloc(8);
      head.writeDoubleBE(start);
      socket.write(head);
      createReadStream(file, { start, end: end - 1, highWaterMark: MIB }).pipe(socket);
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('end', () =>
        answer === 'ok' ? resolve() : reject(new Error(`socket share at ${start}: ${answer}`)),
      );
      socket.on('error', reject);
    });
  const starts = [];
  for (let start = 0; start < size; start += share) starts.push(start);
  await Promise.all(starts.map((start) => sendShare(start, Math.min(start + share, size))));
}

const KIB = 1024;

/** A process's resident set now and its peak (kB fields of /proc/<pid>/status), in bytes. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: field('VmRSS') * KIB, hwm: field('VmHWM') * KIB };
}

export interface RssWindow {
  baseline: number;
  peak: number;
  growth: number;
}

/**
 * Watches a process's resident set over one upload: the baseline is the median of a second of
 * samples before it; the peak the larger of what 20 ms samples saw and the kernel's own peak
 * (VmHWM, reset first through clear_refs, so a spike between samples counts too).
 */
export async function watchRss<T>(pid: number, run: () => Promise<T>) {
  const before: number[] = [];
  for (let i = 0; i < 20; i++) {
    before.push(memoryOf(pid).rss);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  before.sort((a, b) => a - b);
  const baseline = before[before.length >> 1]!;
  let kernelPeak = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    kernelPeak = false; // not allowed here: the samples alone
  }
  let sampled = memoryOf(pid).rss;
  const timer = setInterval(() => {
    sampled = Math.max(sampled, memoryOf(pid).rss);
  }, 20);
  try {
    const result = await run();
    const peak = Math.max(sampled, kernelPeak ? memoryOf(pid).hwm : 0);
    return { result, rss: { baseline, peak, growth: Math.max(0, peak - baseline) } };
  } finally {
    clearInterval(timer);
  }
}
