import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error';

/**
 * The refusal of a multipart body the parser could not read. Busboy throws plain errors for a
 * body that breaks the format (no boundary, a part cut short, a bad part header): the request is
 * wrong, not the server, so they are a 400. The plugin's own limits (too many parts or files, a
 * file past its size) keep their 413; `fileField` names the file's field in that answer.
 */
export function multipartRefusal(error: unknown, fileField?: string): AppError {
  if (error instanceof AppError) return error;
  const { code, statusCode } = error as { code?: string; statusCode?: number };
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return fileField
      ? new AppError(413, 'FILE_TOO_LARGE', { [fileField]: 'validation.max' })
      : new AppError(413, 'FILE_TOO_LARGE');
  }
  if (statusCode === 413) return new AppError(413, 'PAYLOAD_TOO_LARGE');
  return new AppError(400, 'BAD_REQUEST');
}

/**
 * The parts of a multipart request, like `request.parts()`, except that a body the parser cannot
 * read is refused with `multipartRefusal`; errors of the caller's own work on a part pass as they
 * are.
 */
export async function* multipartParts(
  request: FastifyRequest,
  options?: Parameters<FastifyRequest['parts']>[0],
): AsyncGenerator<Multipart> {
  const parts = request.parts(options);
  for (;;) {
    let step: IteratorResult<Multipart>;
    try {
      step = await parts.next();
    } catch (error) {
      throw multipartRefusal(error);
    }
    if (step.done) return;
    yield step.value;
  }
}
