import type { FastifyRequest } from 'fastify';
import { isLanguage, languageFromAcceptLanguage, type Language } from '@dentflow/domain';

/** The caller's language: the profile language, else Accept-Language by the spec's rule, else en. */
export function requestLanguage(request: FastifyRequest): Language {
  const profileLanguage = request.auth?.language;
  if (isLanguage(profileLanguage)) return profileLanguage;
  const header = request.headers['accept-language'];
  return languageFromAcceptLanguage(Array.isArray(header) ? header[0] : header);
}
