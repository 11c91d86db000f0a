import { z } from 'zod';
import { isBrazilianZipCode } from '@dentflow/domain';
import type { ZipLookup, ZipLookupResult } from './zip-lookup';

const viaCepAnswer = z.union([
  z.object({ erro: z.union([z.literal(true), z.literal('true')]) }),
  z.object({
    cep: z.string(),
    logradouro: z.string().default(''),
    complemento: z.string().default(''),
    bairro: z.string().default(''),
    localidade: z.string(),
    uf: z.string(),
  }),
]);

/** ViaCEP-style provider: GET `${baseUrl}/${digits}/json/`. */
export function createViaCepZipLookup(baseUrl: string, timeoutMs: number): ZipLookup {
  return {
    provider: 'viacep',
    async lookup(zipCode): Promise<ZipLookupResult> {
      if (!isBrazilianZipCode(zipCode)) return { status: 'invalid' };
      const digits = zipCode.trim().replace('-', '');
      let response: Response;
      try {
        response = await fetch(`${baseUrl}/${digits}/json/`, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        return { status: 'unavailable', reason: `request failed: ${String(error)}` };
      }
      if (response.status === 400) return { status: 'invalid' };
      if (response.status === 404) return { status: 'not_found' };
      if (!response.ok) return { status: 'unavailable', reason: `HTTP ${response.status}` };
      let parsed: z.infer<typeof viaCepAnswer>;
      try {
        parsed = viaCepAnswer.parse(await response.json());
      } catch (error) {
        return { status: 'unavailable', reason: `unexpected answer: ${String(error)}` };
      }
      if ('erro' in parsed) return { status: 'not_found' };
      return {
        status: 'found',
        address: {
          zipCode: parsed.cep,
          country: 'Brasil',
          state: parsed.uf,
          city: parsed.localidade,
          address: [parsed.logradouro, parsed.bairro].filter(Boolean).join(', '),
          complement: parsed.complemento,
        },
      };
    },
  };
}
