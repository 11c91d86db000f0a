import { schemaResolver, type FormErrors } from '@mantine/form';
import { translateErrorKey } from './i18n';
import { ApiError } from './api-client';

/** Any Standard Schema (zod 4 schemas from @dentflow/domain are). */
type Schema = Parameters<typeof schemaResolver>[0];

/**
 * Adapter from the domain's zod schemas to @mantine/form: zod messages are keys of the `errors`
 * catalogue (`validation.required`), translated here when the form validates.
 */
export function schemaValidator<Values>(schema: Schema): (values: Values) => FormErrors {
  const resolve = schemaResolver(schema, { sync: true });
  return (values) => translateErrors(resolve(values));
}

/** One field checked by one schema: for `validate: { email: fieldRule(emailSchema) }`. */
export function fieldRule(schema: Schema): (value: unknown) => string | null {
  return (value) => {
    const result = schema['~standard'].validate(value);
    if (result instanceof Promise) throw new Error('fieldRule needs a synchronous schema');
    const first = result.issues?.[0];
    return first ? translateErrorKey(first.message) : null;
  };
}

export function translateErrors(errors: FormErrors): FormErrors {
  return Object.fromEntries(
    Object.entries(errors).map(([path, message]) => [
      path,
      typeof message === 'string' ? translateErrorKey(message) : message,
    ]),
  );
}

/**
 * Server validation errors (`fields`, already translated) for the matching inputs. A form that
 * sends one part of a body (`{dataInfo: {...}}`) passes that part's name: the server reports
 * `dataInfo.document`, the form's field is `document`.
 */
export function serverFieldErrors(error: unknown, part?: string): FormErrors {
  if (!(error instanceof ApiError)) return {};
  if (!part) return error.fields;
  const prefix = `${part}.`;
  return Object.fromEntries(
    Object.entries(error.fields)
      .filter(([path]) => path.startsWith(prefix))
      .map(([path, message]) => [path.slice(prefix.length), message]),
  );
}
