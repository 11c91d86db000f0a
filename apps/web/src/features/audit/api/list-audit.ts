import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditPageSchema, type AuditPage } from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { auditKeys } from './audit-keys';

/** The screen's filters: days as `YYYY-MM-DD` in the browser's time zone. */
export interface AuditQuery {
  actor?: string | undefined;
  entity?: string | undefined;
  entityId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
}

/** The start of a local day, as the instant the server compares with. */
const startOfDay = (day: string, plusDays = 0) => {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date! + plusDays).toISOString();
};
const isDay = (value: string | undefined): value is string =>
  !!value && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The search's query string; `to` includes its whole day. */
export function auditSearchParams(query: AuditQuery): URLSearchParams {
  const params = new URLSearchParams({ page: String(query.page) });
  if (query.actor?.trim()) params.set('actor', query.actor.trim());
  if (query.entity?.trim()) params.set('entity', query.entity.trim());
  if (query.entityId?.trim()) params.set('entityId', query.entityId.trim());
  if (isDay(query.from)) params.set('from', startOfDay(query.from));
  if (isDay(query.to)) params.set('to', startOfDay(query.to, 1));
  return params;
}

export async function fetchAuditPage(query: AuditQuery): Promise<AuditPage> {
  return auditPageSchema.parse(await api.get<unknown>(`/audit?${auditSearchParams(query)}`));
}

export const useAuditList = (query: AuditQuery) =>
  useQuery({
    queryKey: [...auditKeys.lists(), auditSearchParams(query).toString()],
    queryFn: () => fetchAuditPage(query),
    placeholderData: keepPreviousData,
  });
