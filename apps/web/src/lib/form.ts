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

/** Server validation errors (`fields`) shown on the matching inputs; already translated. */
export function serverFieldErrors(error: unknown): FormErrors {
  return error instanceof ApiError ? error.fields : {};
}
