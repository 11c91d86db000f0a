import { useQuery } from '@tanstack/react-query';
import { certificateCheckSchema, type CertificateCheck } from '@dentflow/domain';
import { api, ApiError } from '../../../lib/api-client';

/**
 * The public check of a certificate code: the match (its date and the files' SHA-256), or null
 * when no stored approval has this code. Any other failure is an error to show.
 */
export async function checkCertificate(code: string): Promise<CertificateCheck | null> {
  try {
    return certificateCheckSchema.parse(
      await api.get<unknown>(`/certificate/${encodeURIComponent(code)}`),
    );
  } catch (error) {
    if (error instanceof ApiError && error.code === 'CERTIFICATE_NOT_FOUND') return null;
    throw error;
  }
}

export const useCertificateCheck = (code: string | null) =>
  useQuery({
    queryKey: ['certificate', code],
    queryFn: () => checkCertificate(code!),
    enabled: code !== null,
    retry: false,
  });
