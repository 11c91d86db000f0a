// `npm run test:faults`: three instances of the built server behind HAProxy, on this test's OWN
// PostgreSQL and Redis (temporary, on free ports; the machine's shared ones are never touched),
// under steady mixed load while faults are injected:
//   (a) kill -9 of one instance, (b) a PostgreSQL restart, (c) Redis down and back.
// Every write carries a unique id, checked afterwards: an acknowledged write exists exactly once,
// an unacknowledged one once or not at all. Prints a table and exits non-zero on a lost or
// duplicated write, a recovery over 5 s, or a broken promise (slow or envelope-less 503s while the
// database is down, errors while Redis is down). docs/operations.md explains the numbers.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { io, type Socket } from 'socket.io-client';
import { CASE_LIST_FILTERS, cartItemFor, LIVE_SOCKET_PATH, type Product } from '@dentflow/domain';
import { startPagbankSandbox } from '@dentflow/payment-sandbox';
import {
  ensureBuild,
  ensureHaproxy,
  freePort,
  renderHaproxyConfig,
  sleep,
  startHaproxy,
  startInstance,
  startS3rver,
  waitForHttp,
} from '../cluster/stack.mjs';

const RECOVERY_LIMIT_MS = 5000;
/** A 503 while the database is down must come at least this fast ("fail fast"). */
const FAST_FAILURE_MS = 2000;
const PASSWORD = 'Dentflow123';
const PAGBANK_TOKEN = 'fault-test-pagbank-token';
/** The work folder (logs of every process) is kept with FAULTS_KEEP=1 and after a failure. */
let keepFiles = process.env.FAULTS_KEEP === '1';

type Phase = 'warm-up' | 'kill -9 instance' | 'PostgreSQL restart' | 'Redis down' | 'settle';
const PHASES: Phase[] = [
  'warm-up',
  'kill -9 instance',
  'PostgreSQL restart',
  'Redis down',
  'settle',
];
let phase: Phase = 'warm-up';

const started = Date.now();
const loadAtStart = loadavg()[0]!;
const log = (text: string) =>
  console.log(`[faults +${((Date.now() - started) / 1000).toFixed(1)}s] ${text}`);

// ───────────────────────────── processes ─────────────────────────────

const work = mkdtempSync(path.join(tmpdir(), 'dentflow-faults-'));
const cleanups: (() => unknown)[] = [];

function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = readdirSync(base)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(a) - Number(b));
  if (versions.length === 0) throw new Error(`no PostgreSQL binaries under ${base}`);
  return path.join(base, versions.at(-1)!, 'bin');
}

/** initdb refuses root: as root the cluster belongs to the `postgres` user. */
const asRoot = process.getuid?.() === 0;
function pgCommand(command: string, args: string[]) {
  const bin = path.join(postgresBin(), command);
  const result = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', bin, ...args], { encoding: 'utf8' })
    : spawnSync(bin, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')}: ${result.stderr || result.stdout}`);
  }
}

async function startOwnPostgres() {
  const port = await freePort();
  const dir = path.join(work, 'pg');
  mkdirSync(dir, { mode: 0o700 });
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chmodSync(work, 0o755);
    chownSync(dir, uid, gid);
  }
  pgCommand('initdb', ['-D', dir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const start = () =>
    pgCommand('pg_ctl', [
      '-D',
      dir,
      '-o',
      options,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      'start',
    ]);
  const stop = () => pgCommand('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop']);
  start();
  cleanups.push(() => {
    try {
      stop();
    } catch {
      // already stopped
    }
  });
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE dentflow');
  await admin.end();
  return { port, url: `postgres://postgres@127.0.0.1:${port}/dentflow`, start, stop };
}

async function startOwnRedis() {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { cwd: work, stdio: 'ignore' },
    );
    for (let i = 0; i < 50; i++) {
      if (spawnSync('redis-cli', ['-p', String(port), 'ping']).status === 0) return;
      await sleep(100);
    }
    throw new Error('the test Redis did not start');
  };
  const stop = async () => {
    const current = child;
    if (!current || current.exitCode !== null) return;
    const exited = new Promise((resolve) => current.on('exit', resolve));
    current.kill('SIGKILL');
    await exited;
  };
  await start();
  cleanups.push(stop);
  return { port, url: `redis://127.0.0.1:${port}`, start, stop };
}

interface Mail {
  to: string[];
  /** The Message-ID header: one mail sent again keeps it, so the receiver shows it once. */
  messageId: string;
  at: number;
}
async function startSmtpSink() {
  const port = await freePort();
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const head =
          Buffer.concat(chunks)
            .toString('utf8')
            .split(/\r?\n\r?\n/)[0] ?? '';
        const messageId = /^message-id:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? '';
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          messageId,
          at: Date.now(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `smtp://127.0.0.1:${port}`, mails };
}

// ───────────────────────────── HTTP and bookkeeping ─────────────────────────────

interface Answer {
  status: number;
  body: { obj?: unknown; error?: unknown; code?: unknown } | null;
  ms: number;
  startedAt: number;
}

interface RequestRecord {
  phase: Phase;
  /** Method and route, ids replaced by `:id`. */
  route: string;
  status: number;
  ms: number;
  startedAt: number;
  envelope: boolean;
}
const requests: RequestRecord[] = [];

let balancerUrl = '';
async function call(
  method: 'GET' | 'POST',
  url: string,
  options: {
    token?: string;
    body?: unknown;
    base?: string;
    timeoutMs?: number;
    record?: boolean;
  } = {},
): Promise<Answer> {
  const startedAt = Date.now();
  let status = 0;
  let body: Answer['body'] = null;
  try {
    const response = await fetch(`${options.base ?? balancerUrl}${url}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        'accept-language': 'en',
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    status = response.status;
    const text = await response.text();
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  } catch {
    status = 0; // no answer: refused, reset or timed out
  }
  const ms = Date.now() - startedAt;
  if (options.record !== false) {
    requests.push({
      phase,
      route: `${method} ${url.replace(/\/\d+/g, '/:id')}`,
      status,
      ms,
      startedAt,
      envelope: typeof body?.error === 'string' && typeof body?.code === 'string',
    });
  }
  return { status, body, ms, startedAt };
}

const acknowledged = (answer: Answer) => answer.status === 200 && answer.body?.obj !== undefined;

type WriteKind = 'chat' | 'checkout' | 'registration' | 'move';
interface WriteRecord {
  kind: WriteKind;
  /** The unique id the write carries (chat text, idempotency key, e-mail, move number). */
  key: string;
  phase: Phase;
  acked: boolean;
  /** Moves: the case it moved and whether an unacknowledged one was seen applied. */
  caseId?: number;
}
const writes: WriteRecord[] = [];

// ───────────────────────────── the run ─────────────────────────────

interface Instance {
  name: string;
  port: number;
  url: string;
  dataDir: string;
  env: Record<string, string>;
  proc: ReturnType<typeof startInstance>;
}

async function main() {
  const haproxy = ensureHaproxy(log);
  ensureBuild(log);

  log(`work folder ${work}`);
  const postgres = await startOwnPostgres();
  log(`own PostgreSQL on :${postgres.port}`);
  const redis = await startOwnRedis();
  log(`own Redis on :${redis.port}`);
  const smtp = await startSmtpSink();
  const pagbank = await startPagbankSandbox({
    token: PAGBANK_TOKEN,
    deliverNotifications: false,
    host: '127.0.0.1',
  });
  cleanups.push(() => pagbank.close());
  const lbPort = await freePort();
  balancerUrl = `http://127.0.0.1:${lbPort}`;
  const s3 = await startS3rver({
    port: await freePort(),
    directory: path.join(work, 's3'),
    origin: balancerUrl,
  });
  cleanups.push(() => s3.close());

  const sharedEnv: Record<string, string> = {
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    ...s3.env,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    PUBLIC_URL: balancerUrl,
    TRUST_PROXY: 'loopback',
    SEED_DEMO: 'true',
    SMTP_URL: smtp.url,
    PAGBANK_TOKEN,
    PAGBANK_API_URL: pagbank.url,
    SHUTDOWN_DRAIN_MS: '1000',
    LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'warn',
    // The load comes from one address and few accounts: the limits are not under test here.
    RATE_LIMIT_LOGIN_MAX: '100000',
    RATE_LIMIT_REGISTER_MAX: '100000',
    RATE_LIMIT_CASE_MOVE_MAX: '100000',
  };
  const instances: Instance[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const name = `app${i + 1}`;
    const dataDir = path.join(work, name);
    instances.push({
      name,
      port,
      url: `http://127.0.0.1:${port}`,
      dataDir,
      env: { ...sharedEnv, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
      proc: undefined as unknown as Instance['proc'],
    });
  }
  const launch = (instance: Instance) => {
    instance.proc = startInstance({
      env: instance.env,
      logFile: path.join(work, `${instance.name}.log`),
    });
    cleanups.push(() => instance.proc.stop('SIGKILL'));
  };
  // Together: the server migrates and seeds under a startup lock, so one of them does it.
  instances.forEach(launch);
  await Promise.all(
    instances.map((i) =>
      waitForHttp(`${i.url}/api/health`, { process: i.proc, timeoutMs: 180_000 }),
    ),
  );
  log('3 instances up');
  const balancer = startHaproxy({
    haproxy,
    config: renderHaproxyConfig({ bind: `127.0.0.1:${lbPort}`, instances }),
    dir: path.join(work, 'haproxy'),
  });
  cleanups.push(() => balancer.stop('SIGKILL'));
  await waitForHttp(`${balancerUrl}/api/health`, { process: balancer });
  log(`HAProxy on ${balancerUrl}`);

  const db = new pg.Pool({ connectionString: postgres.url, max: 2 });
  // The pool's idle clients see the PostgreSQL restart; a new query reconnects.
  db.on('error', () => undefined);

  // ── accounts, cases, cart ──
  const login = async (who: string) => {
    const answer = await call('POST', '/api/v1/auth/login', {
      body: { login: who, password: PASSWORD },
      record: false,
    });
    const token = (answer.body?.obj as { accessToken?: string } | undefined)?.accessToken;
    if (!token) throw new Error(`login ${who}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return token;
  };
  let doctorToken = await login('doctor');
  const { rows: doctorRows } = await db.query(
    `SELECT id FROM users WHERE email = 'doctor@dentflow.local'`,
  );
  const doctorId = doctorRows[0].id as number;
  const { rows: caseRows } = await db.query(
    `SELECT id FROM cases WHERE owner_id = $1 ORDER BY id LIMIT 10`,
    [doctorId],
  );
  const readCaseIds = caseRows.map((r) => r.id as number);
  const chatCaseId = readCaseIds[0]!;
  const channels = await call('GET', `/api/v1/case/${chatCaseId}/chat`, {
    token: doctorToken,
    record: false,
  });
  const channel = (channels.body?.obj as { channels: { channel: number }[] }).channels[0]!.channel;

  const newCase = async () => {
    const answer = await call('POST', '/api/v1/case/new', {
      token: doctorToken,
      body: { patient: { fname: 'Fault', lname: `Test ${randomUUID().slice(0, 8)}` } },
      record: false,
    });
    const id = (answer.body?.obj as { id?: number } | undefined)?.id;
    if (!id) throw new Error(`case/new: ${answer.status} ${JSON.stringify(answer.body)}`);
    return id;
  };
  const moveCaseId = await newCase();

  const productRow = async (code: string) => {
    const { rows } = await db.query(
      `SELECT id, product_type, product_kind, qtd_option, inner_products FROM products WHERE code = $1`,
      [code],
    );
    const row = rows[0];
    return {
      id: row.id,
      productType: row.product_type,
      productKind: row.product_kind,
      qtdOption: row.qtd_option,
      innerProducts: row.inner_products,
    } as Pick<Product, 'id' | 'productType' | 'productKind' | 'qtdOption' | 'innerProducts'>;
  };
  const guide = await productRow('PLAN-GUIDE');
  const inner = await Promise.all(
    (guide.innerProducts as number[]).map(async (id) => {
      const { rows } = await db.query(`SELECT code FROM products WHERE id = $1`, [id]);
      return productRow(rows[0].code);
    }),
  );
  const cart = [
    {
      ...cartItemFor(guide as Product, inner as Product[]),
      quantity: 1,
      planningExtraData: { patient: { fname: 'Fault', lname: 'Checkout' } },
    },
  ];
  const orderBody = (paymentMethod: string, idempotencyKey: string) => ({
    caseId: null,
    items: cart,
    shipment: null,
    coupon: null,
    paymentMethod,
    currency: 'BRL',
    idempotencyKey,
  });

  // ── live sockets through the balancer ──
  interface LiveClient {
    socket: Socket;
    lastEventAt: number;
    reconnects: number;
    disconnectedAt: number;
    reconnectedAt: number;
  }
  const openSocket = (base: string, caseId: number): Promise<LiveClient> =>
    new Promise((resolve, reject) => {
      const client: LiveClient = {
        socket: io(base, {
          path: LIVE_SOCKET_PATH,
          transports: ['websocket'],
          reconnectionDelay: 200,
          reconnectionDelayMax: 1000,
          auth: (cb) => cb({ token: doctorToken }),
        }),
        lastEventAt: 0,
        reconnects: 0,
        disconnectedAt: 0,
        reconnectedAt: 0,
      };
      client.socket.on('disconnect', () => {
        client.disconnectedAt = Date.now();
      });
      let first = true;
      client.socket.on('connect', () => {
        if (!first) {
          client.reconnects += 1;
          client.reconnectedAt = Date.now();
        }
        client.socket.emit('case:join', { caseId }, (answer: { ok: boolean }) => {
          if (first) {
            first = false;
            if (answer?.ok) resolve(client);
            else reject(new Error(`case:join refused: ${JSON.stringify(answer)}`));
          }
        });
      });
      client.socket.on('chat.message', () => {
        client.lastEventAt = Date.now();
      });
      cleanups.push(() => client.socket.close());
    });
  const sockets = await Promise.all(
    Array.from({ length: 6 }, () => openSocket(balancerUrl, chatCaseId)),
  );
  log(`${sockets.length} live sockets joined case ${chatCaseId} through the balancer`);

  // ── the load ──
  let loadRunning = true;
  const checkoutDeadline = { at: Infinity };
  const pause = () => sleep(40 + Math.random() * 60);

  async function readLoop() {
    while (loadRunning) {
      const id = readCaseIds[Math.floor(Math.random() * readCaseIds.length)]!;
      await call('GET', `/api/v1/case/${id}/get`, { token: doctorToken });
      await call('GET', `/api/v1/case/list/${CASE_LIST_FILTERS[0]}/0`, { token: doctorToken });
      await pause();
    }
  }
  async function loginLoop() {
    while (loadRunning) {
      const answer = await call('POST', '/api/v1/auth/login', {
        body: { login: 'doctor', password: PASSWORD },
      });
      const token = (answer.body?.obj as { accessToken?: string } | undefined)?.accessToken;
      if (token) doctorToken = token;
      await sleep(1000);
    }
  }
  async function chatLoop() {
    while (loadRunning) {
      const key = randomUUID();
      const record: WriteRecord = { kind: 'chat', key, phase, acked: false };
      writes.push(record);
      const answer = await call('POST', `/api/v1/case/${chatCaseId}/chat/${channel}`, {
        token: doctorToken,
        body: { text: `fault-test ${key}` },
      });
      record.acked = acknowledged(answer);
      await pause();
    }
  }
  async function checkoutLoop() {
    while (loadRunning) {
      const key = randomUUID();
      const record: WriteRecord = { kind: 'checkout', key, phase, acked: false };
      writes.push(record);
      // The client retries with the same key until it has an answer: the order exists once.
      while (Date.now() < checkoutDeadline.at) {
        const answer = await call('POST', '/api/v1/shop/checkout', {
          token: doctorToken,
          body: orderBody('pix', key),
        });
        if (acknowledged(answer)) {
          record.acked = true;
          break;
        }
        if (answer.status >= 400 && answer.status < 500) break;
        await sleep(200);
      }
      await sleep(300);
    }
  }
  async function registrationLoop() {
    while (loadRunning) {
      const key = `fault-${randomUUID()}@example.test`;
      const record: WriteRecord = { kind: 'registration', key, phase, acked: false };
      writes.push(record);
      const answer = await call('POST', '/api/v1/auth/register', {
        body: {
          email: key,
          password: 'Fault-Test-Passw0rd!',
          fname: 'Fault',
          lname: 'Test',
          nickName: `fault${randomBytes(6).toString('hex')}`,
          terms: true,
          language: 'en',
        },
      });
      record.acked = acknowledged(answer);
      await sleep(800);
    }
  }
  /** Moves one case back and forth; after an unanswered move the case is read to know where it is. */
  let movesApplied = 0;
  async function moveLoop() {
    let status = 'new';
    let n = 0;
    while (loadRunning) {
      const action = status === 'new' ? 'submit' : 'backToNew';
      const record: WriteRecord = {
        kind: 'move',
        key: `move ${++n}`,
        phase,
        acked: false,
        caseId: moveCaseId,
      };
      writes.push(record);
      const answer = await call('POST', `/api/v1/case/${moveCaseId}/move`, {
        token: doctorToken,
        body: { action },
      });
      if (acknowledged(answer)) {
        record.acked = true;
        movesApplied += 1;
        status = (answer.body?.obj as { caseStatus: string }).caseStatus;
      } else {
        // Where is it now? Read until an answer comes.
        for (;;) {
          const read = await call('GET', `/api/v1/case/${moveCaseId}/get`, { token: doctorToken });
          if (acknowledged(read)) {
            const now = (read.body?.obj as { caseStatus: string }).caseStatus;
            if (now !== status) movesApplied += 1; // the unanswered move happened
            status = now;
            break;
          }
          await sleep(200);
        }
      }
      await pause();
    }
  }

  const loops = [
    readLoop(),
    readLoop(),
    loginLoop(),
    chatLoop(),
    chatLoop(),
    checkoutLoop(),
    registrationLoop(),
    moveLoop(),
  ];
  const recovery = new Map<Phase, number>();
  const timeline: string[] = [];
  const notes: string[] = [];
  /** Every promise checked, passed or not: the closing line counts them. */
  const checks: { name: string; ok: boolean; detail: string }[] = [];
  const expect = (name: string, ok: boolean, detail = '') => checks.push({ name, ok, detail });

  await sleep(4000);

  // ── (a) kill -9 one instance ──
  phase = 'kill -9 instance';
  // A PagBank order paid before the kill; its notice is delivered (and retried) after.
  const pagbankOrder = await (async () => {
    const key = randomUUID();
    for (;;) {
      const placed = await call('POST', '/api/v1/shop/checkout', {
        token: doctorToken,
        body: orderBody('pagseguro', key),
        record: false,
      });
      if (acknowledged(placed)) {
        const { transactionId } = placed.body!.obj as { transactionId: number };
        const link = await call('GET', `/api/v1/case/transaction/${transactionId}/paymentLink`, {
          token: doctorToken,
          record: false,
        });
        if (!acknowledged(link)) throw new Error(`paymentLink: ${JSON.stringify(link.body)}`);
        const { rows } = await db.query(`SELECT gateway_code FROM transactions WHERE id = $1`, [
          transactionId,
        ]);
        const orderId = await pagbank.pay(rows[0].gateway_code, 'card');
        return { transactionId, orderId };
      }
      await sleep(200);
    }
  })();
  const victim = instances[1]!;
  const killedAt = Date.now();
  timeline.push(`kill +${fmtMs(killedAt - started)}`);
  process.kill(victim.proc.pid!, 'SIGKILL');
  log(`killed ${victim.name} (pid ${victim.proc.pid}) with SIGKILL`);
  // The notice, retried by the provider until one delivery is answered 200, then once more.
  const deliveries: (number | null)[] = [];
  for (let i = 0; i < 20; i++) {
    const [delivery] = await pagbank.notify(pagbankOrder.orderId);
    deliveries.push(delivery?.status ?? null);
    if (delivery?.status === 200) break;
    await sleep(250);
  }
  const [again] = await pagbank.notify(pagbankOrder.orderId);
  deliveries.push(again?.status ?? null);
  // Every socket hears a message posted after the kill.
  const socketDeadline = killedAt + 10_000;
  while (Date.now() < socketDeadline && sockets.some((s) => s.lastEventAt < killedAt + 300)) {
    await sleep(100);
  }
  const socketRecovery = Math.max(
    ...sockets.map((s) => (s.lastEventAt > killedAt ? s.lastEventAt - killedAt : Infinity)),
  );
  recovery.set('kill -9 instance', socketRecovery);
  const dropped = sockets.filter((s) => s.disconnectedAt >= killedAt);
  notes.push(
    `kill: ${dropped.length}/${sockets.length} sockets were on the killed instance; they noticed after ` +
      `${dropped.map((s) => fmtMs(s.disconnectedAt - killedAt)).join(', ') || '—'}, were connected again after ` +
      `${dropped.map((s) => (s.reconnectedAt > killedAt ? fmtMs(s.reconnectedAt - killedAt) : 'never')).join(', ') || '—'}; ` +
      `every socket heard a message posted after the kill within ${fmtMs(socketRecovery)}`,
  );
  notes.push(
    `kill: PagBank notice deliveries (HTTP status, none = unreachable): ${deliveries.map((d) => d ?? 'none').join(', ')}`,
  );
  const { rows: noticeRows } = await db.query(
    `SELECT outcome FROM payment_notices WHERE transaction_id = $1`,
    [pagbankOrder.transactionId],
  );
  const { rows: txRows } = await db.query(`SELECT payment_status FROM transactions WHERE id = $1`, [
    pagbankOrder.transactionId,
  ]);
  const appliedNotices = noticeRows.filter((r) => r.outcome === 'applied').length;
  notes.push(
    `kill: payment notice outcomes ${noticeRows.map((r) => r.outcome).join(', ') || 'none'}; transaction ${txRows[0]?.payment_status}`,
  );
  expect(
    'a payment notice retried after the kill applies once',
    appliedNotices === 1 && txRows[0]?.payment_status === 'paid',
    `applied ${appliedNotices} times, transaction ${txRows[0]?.payment_status}`,
  );
  // Back to three instances for the next faults.
  launch(victim);
  await waitForHttp(`${victim.url}/api/health`, { process: victim.proc, timeoutMs: 120_000 });
  log(`${victim.name} restarted`);
  await sleep(2500);

  // ── (b) PostgreSQL restart ──
  phase = 'PostgreSQL restart';
  await sleep(1000);
  postgres.stop();
  const pgDownAt = Date.now();
  log('PostgreSQL stopped (fast shutdown)');
  timeline.push(`PostgreSQL down +${fmtMs(pgDownAt - started)}`);
  await sleep(4000);
  const pgDownUntil = Date.now();
  postgres.start();
  const pgUpAt = Date.now();
  log('PostgreSQL started again');
  timeline.push(`up +${fmtMs(pgUpAt - started)}`);
  const readyAt = await Promise.all(
    instances.map(async (instance) => {
      const deadline = pgUpAt + 10_000;
      while (Date.now() < deadline) {
        const answer = await call('GET', '/api/ready', {
          base: instance.url,
          record: false,
          timeoutMs: 2000,
        });
        if (answer.status === 200) return Date.now();
        await sleep(100);
      }
      return Infinity;
    }),
  );
  const pgRecovery = Math.max(...readyAt.map((at) => at - pgUpAt));
  recovery.set('PostgreSQL restart', pgRecovery);
  // While it was down: 503 with the envelope, fast (requests sent after the stop, answered before the start).
  const whileDown = requests.filter(
    (r) => r.startedAt > pgDownAt + 200 && r.startedAt + r.ms < pgDownUntil,
  );
  const badDown = whileDown.filter((r) => !(r.status === 503 && r.envelope));
  const slowDown = whileDown.filter((r) => r.ms > FAST_FAILURE_MS);
  notes.push(
    `PostgreSQL down ${fmtMs(pgDownUntil - pgDownAt)}: ${whileDown.length} requests answered, ` +
      `${whileDown.filter((r) => r.status === 503 && r.envelope).length} with 503 + envelope, ` +
      `slowest ${fmtMs(Math.max(0, ...whileDown.map((r) => r.ms)))}; statuses ${histogram(whileDown)}; ` +
      `instances ready again after ${readyAt.map((at) => fmtMs(at - pgUpAt)).join(', ')}`,
  );
  expect(
    'PostgreSQL down: every answer is 503 with the error envelope',
    whileDown.length > 0 && badDown.length === 0,
    `${badDown.length} of ${whileDown.length} were not (${histogram(badDown)}; ${routes(badDown)})`,
  );
  expect(
    `PostgreSQL down: every answer within ${fmtMs(FAST_FAILURE_MS)}`,
    slowDown.length === 0,
    `${slowDown.length} slower`,
  );
  await sleep(2500);

  // ── (c) Redis down ──
  phase = 'Redis down';
  await sleep(500);
  // The probe: a socket on one instance hears a message posted through another only via Redis.
  const probeSocket = await openSocket(instances[0]!.url, chatCaseId);
  await redis.stop();
  const redisDownAt = Date.now();
  log('Redis killed');
  timeline.push(`Redis down +${fmtMs(redisDownAt - started)}`);
  await sleep(4000);
  const redisDownUntil = Date.now();
  await redis.start();
  const redisUpAt = Date.now();
  log('Redis started again');
  timeline.push(`up +${fmtMs(redisUpAt - started)}`);
  // Recovered: a message posted through one instance reaches the probe socket on another.
  let redisRecovery = Infinity;
  while (Date.now() < redisUpAt + 10_000) {
    const before = Date.now();
    await call('POST', `/api/v1/case/${chatCaseId}/chat/${channel}`, {
      base: instances[2]!.url,
      token: doctorToken,
      body: { text: `fault-test probe ${randomUUID()}` },
      record: false,
    });
    await sleep(150);
    if (probeSocket.lastEventAt >= before) {
      redisRecovery = probeSocket.lastEventAt - redisUpAt;
      break;
    }
  }
  recovery.set('Redis down', redisRecovery);
  const redisWindow = requests.filter(
    (r) => r.startedAt > redisDownAt && r.startedAt + r.ms < redisDownUntil,
  );
  const redisErrors = redisWindow.filter((r) => r.status === 0 || r.status >= 500);
  notes.push(
    `Redis down ${fmtMs(redisDownUntil - redisDownAt)}: ${redisWindow.length} requests, ${redisErrors.length} failed ` +
      `(${histogram(redisWindow)}); live events across instances again ${fmtMs(redisRecovery)} after its return`,
  );
  expect(
    'Redis down: the API keeps serving',
    redisWindow.length > 0 && redisErrors.length === 0,
    `${redisErrors.length} of ${redisWindow.length} failed (${routes(redisErrors)})`,
  );

  phase = 'settle';
  await sleep(2000);
  loadRunning = false;
  checkoutDeadline.at = Date.now() + 15_000;
  await Promise.all(loops);
  log('load stopped; checking every write');

  // ── verification ──
  const lost = new Map<Phase, number>();
  const duplicated = new Map<Phase, number>();
  const bump = (map: Map<Phase, number>, p: Phase) => map.set(p, (map.get(p) ?? 0) + 1);
  const judge = (record: WriteRecord, copies: number) => {
    if (copies > 1) bump(duplicated, record.phase);
    if (record.acked && copies === 0) bump(lost, record.phase);
  };

  const { rows: chatRows } = await db.query(
    `SELECT text, count(*)::int AS n FROM chat_messages WHERE case_id = $1 AND text LIKE 'fault-test %' GROUP BY text`,
    [chatCaseId],
  );
  const chatCopies = new Map(
    chatRows.map((r) => [String(r.text).slice('fault-test '.length), r.n as number]),
  );
  // A key is stored once (unique index) with the order it created; a second order for one key
  // would be a case of the checkout's patient that no key's answer names.
  const { rows: checkoutRows } = await db.query(
    `SELECT idempotency_key AS key, (response->>'caseId')::int AS case_id
       FROM checkout_requests WHERE user_id = $1`,
    [doctorId],
  );
  const checkoutCopies = new Map(checkoutRows.map((r) => [r.key as string, r.case_id ? 1 : 0]));
  const { rows: orphanRows } = await db.query(
    `SELECT count(*)::int AS n FROM cases c JOIN patients p ON p.id = c.patient_id
      WHERE p.fname = 'Fault' AND p.lname = 'Checkout'
        AND c.id NOT IN (SELECT (response->>'caseId')::int FROM checkout_requests
                          WHERE user_id = $1 AND response IS NOT NULL)`,
    [doctorId],
  );
  for (let i = 0; i < (orphanRows[0].n as number); i++) bump(duplicated, 'settle');
  const { rows: userRows } = await db.query(
    `SELECT email, count(*)::int AS n FROM users WHERE email LIKE 'fault-%@example.test' GROUP BY email`,
  );
  const userCopies = new Map(userRows.map((r) => [r.email as string, r.n as number]));
  for (const record of writes) {
    if (record.kind === 'chat') judge(record, chatCopies.get(record.key) ?? 0);
    if (record.kind === 'checkout') judge(record, checkoutCopies.get(record.key) ?? 0);
    if (record.kind === 'registration') judge(record, userCopies.get(record.key) ?? 0);
  }
  // Moves: the case's history has exactly the moves that happened (answered, or seen applied).
  const { rows: moveRows } = await db.query(
    `SELECT count(*)::int AS n FROM case_events WHERE case_id = $1 AND from_status IS NOT NULL AND to_status IS NOT NULL AND from_status <> to_status`,
    [moveCaseId],
  );
  const moveEvents = moveRows[0].n as number;
  if (moveEvents < movesApplied) bump(lost, 'settle');
  if (moveEvents > movesApplied) bump(duplicated, 'settle');
  notes.push(`moves: ${movesApplied} happened, the case history holds ${moveEvents}`);

  // Mail: the outbox resumes after the restart and sends each verification mail once.
  const mailDeadline = Date.now() + 45_000;
  let pending = -1;
  while (Date.now() < mailDeadline) {
    const { rows } = await db.query(
      `SELECT count(*)::int AS n FROM mail_outbox WHERE status = 'pending' AND recipient LIKE 'fault-%@example.test'`,
    );
    pending = rows[0].n;
    if (pending === 0) break;
    await sleep(500);
  }
  await sleep(500);
  // Per recipient: the distinct messages (Message-ID) and the deliveries.
  const received = new Map<string, Set<string>>();
  let mailDeliveries = 0;
  for (const mail of smtp.mails) {
    for (const to of mail.to) {
      if (!to.startsWith('fault-')) continue;
      mailDeliveries += 1;
      received.set(to, (received.get(to) ?? new Set()).add(mail.messageId || randomUUID()));
    }
  }
  let mailLost = 0;
  let mailDuplicated = 0;
  const duplicateMails: string[] = [];
  const registeredIn = new Map(
    writes.filter((w) => w.kind === 'registration').map((w) => [w.key, w.phase]),
  );
  for (const [email] of userCopies) {
    const n = received.get(email)?.size ?? 0;
    if (n === 0) mailLost += 1;
    if (n > 1) {
      mailDuplicated += 1;
      const times = smtp.mails
        .filter((m) => m.to.includes(email))
        .map((m) => fmtMs(m.at - started));
      duplicateMails.push(
        `registered during "${registeredIn.get(email)}", received at +${times.join(', +')}`,
      );
    }
  }
  notes.push(
    `mail: ${userCopies.size} registrations stored, ${[...userCopies.keys()].filter((e) => received.has(e)).length} ` +
      `verification mails received (${mailDeliveries} deliveries), ${mailLost} missing, ${mailDuplicated} received as two different messages; outbox rows still pending: ${pending}`,
  );
  expect('the outbox sends every mail', mailLost === 0, `${mailLost} never sent`);
  expect('the outbox sends each mail once', mailDuplicated === 0, duplicateMails.join('; '));

  // ── the table ──
  const rows = PHASES.map((p) => {
    const inPhase = requests.filter((r) => r.phase === p);
    const phaseWrites = writes.filter((w) => w.phase === p);
    return {
      fault: p,
      requests: inPhase.length,
      failed: inPhase.filter((r) => r.status === 0 || r.status >= 500).length,
      acked: phaseWrites.filter((w) => w.acked).length,
      unacked: phaseWrites.filter((w) => !w.acked).length,
      lost: lost.get(p) ?? 0,
      duplicated: duplicated.get(p) ?? 0,
      p95: fmtMs(
        percentile(
          inPhase.map((r) => r.ms),
          0.95,
        ),
      ),
      recovery: recovery.has(p) ? fmtMs(recovery.get(p)!) : '—',
    };
  });
  console.log('');
  console.log(
    '| fault | requests | failed (5xx/none) | p95 | acknowledged writes | unacknowledged | lost | duplicated | recovery |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.fault} | ${r.requests} | ${r.failed} | ${r.p95} | ${r.acked} | ${r.unacked} | ${r.lost} | ${r.duplicated} | ${r.recovery} |`,
    );
  }
  console.log('');
  for (const note of notes) console.log(`- ${note}`);
  console.log(`- timeline: ${timeline.join(', ')}`);
  console.log(
    `- machine load (1-minute average): ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end, on ${cpus().length} cores`,
  );

  // A refusal (4xx) means the load itself is wrong, not the cluster: the numbers would lie.
  const refused = requests.filter((r) => r.status >= 400 && r.status < 500);
  expect('the load is valid (no 4xx answer)', refused.length === 0, routes(refused));
  const crashed = instances.filter((i) => !i.proc.running);
  expect(
    'no instance exits by itself (only the one killed, started again)',
    crashed.length === 0,
    crashed.map((i) => `${i.name} exited, see its log`).join('; '),
  );
  for (const [p, ms] of recovery) {
    expect(`${p}: recovery within ${fmtMs(RECOVERY_LIMIT_MS)}`, ms <= RECOVERY_LIMIT_MS, fmtMs(ms));
  }
  for (const r of rows) {
    expect(`${r.fault}: no acknowledged write lost`, r.lost === 0, `${r.lost} lost`);
    expect(`${r.fault}: no write stored twice`, r.duplicated === 0, `${r.duplicated} duplicated`);
  }
  console.log('');
  for (const c of checks)
    console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}${c.ok ? '' : ` — ${c.detail}`}`);
  const passed = checks.filter((c) => c.ok).length;
  const failed = checks.length - passed;
  console.log(`fault test finished in ${fmtMs(Date.now() - started)}`);
  console.log(`faults: ${passed} passed, ${failed} failed`);
  if (process.env.FAULTS_REPORT) {
    // The shape scripts/test-summary.mjs reads (vitest's JSON report counts).
    writeFileSync(
      process.env.FAULTS_REPORT,
      JSON.stringify(
        { numPassedTests: passed, numFailedTests: failed, checks, table: rows },
        null,
        2,
      ),
    );
  }
  await db.end();
  return failed === 0 ? 0 : 1;
}

function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'never';
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** The routes among these records, with their counts. */
function routes(records: RequestRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) {
    const key = `${r.route} → ${r.status || 'no answer'}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${key} ×${n}`).join(', ') || 'none';
}

function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function histogram(records: RequestRecord[]): string {
  const counts = new Map<number, number>();
  for (const r of records) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${status || 'no answer'}×${n}`).join(' ') || 'none';
}

async function cleanup() {
  for (const step of cleanups.splice(0).reverse()) {
    try {
      await step();
    } catch {
      // best effort: the rest still stops
    }
  }
  if (!keepFiles) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}

// A crash or Ctrl-C still stops every process this test started.
process.on('uncaughtException', (error) => {
  console.error(error);
  keepFiles = true;
  void cleanup().finally(() => process.exit(1));
});
process.on('SIGINT', () => {
  void cleanup().finally(() => process.exit(130));
});

const hardLimit = setTimeout(() => {
  console.error('fault test: over 5 minutes, giving up');
  void cleanup().then(() => process.exit(2));
}, 300_000);

main()
  .then(async (code) => {
    clearTimeout(hardLimit);
    if (code !== 0) keepFiles = true;
    await cleanup();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    clearTimeout(hardLimit);
    console.error(error);
    keepFiles = true;
    await cleanup().catch(() => undefined);
    process.exit(1);
  });
