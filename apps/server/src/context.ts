import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '@dentflow/domain';
import type { MailSender } from './adapters/mail/mail-sender';
import type { ZipLookup } from './adapters/zip-lookup/zip-lookup';
import type { Config } from './config';
import type { Db } from './db/client';
import type { AccessTokens } from './security/tokens';

/** What services depend on, built once by buildApp(). */
export interface AppContext {
  config: Config;
  db: Db;
  mail: MailSender;
  accessTokens: AccessTokens;
  zipLookup: ZipLookup;
  log: FastifyBaseLogger;
}

/** Who is asking, for audit rows and messages. */
export interface RequestMeta {
  ip: string;
  /** The language detected for this request (profile, else Accept-Language, else en). */
  language: Language;
}
