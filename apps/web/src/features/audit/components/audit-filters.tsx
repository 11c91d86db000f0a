import { useRef, useState } from 'react';
import { Autocomplete, Button, Group, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useActorSearch } from '../api/search-actors';
import { useDebouncedUrlUpdate } from '../../../lib/use-debounced-url-update';
import { DateField } from '../../../lib/ui/date-field';

/** What the audit rows record changes of (suggestions; any entity may be typed). */
export const AUDIT_ENTITIES = [
  'user',
  'case',
  'transaction',
  'coupon',
  'product',
  'settings',
  'announcement',
] as const;

export interface AuditFilterValues {
  actor: string;
  entity: string;
  entityId: string;
  from: string;
  to: string;
}

/** How long typing pauses before a text filter applies. */
export const AUDIT_FILTER_DEBOUNCE_MS = 350;

/**
 * The audit filters: the actor by name (the users picker) or by a plain id, the entity, the
 * record's id and a date range. Text filters apply after typing pauses.
 */
export function AuditFilters({
  values,
  onChange,
}: {
  values: AuditFilterValues;
  onChange: (change: Partial<AuditFilterValues>) => void;
}) {
  const { t } = useTranslation();
  const [actorSearch, setActorSearch] = useState('');
  const [entity, setEntity] = useState(values.entity);
  const [entityId, setEntityId] = useState(values.entityId);
  const picks = useActorSearch(actorSearch);
  // Text changes gather while typing pauses, so a quick edit of two fields keeps both.
  const pending = useRef<Partial<AuditFilterValues>>({});
  const flush = useDebouncedUrlUpdate(() => {
    const change = pending.current;
    pending.current = {};
    onChange(change);
  }, AUDIT_FILTER_DEBOUNCE_MS);
  const applyText = (change: Partial<AuditFilterValues>) => {
    pending.current = { ...pending.current, ...change };
    flush();
  };

  const typedId = /^\d{1,10}$/.test(actorSearch.trim()) ? actorSearch.trim() : null;
  const options = (picks.data ?? []).map((user) => ({
    value: String(user.id),
    label: `${user.displayName} (#${user.id})`,
  }));
  if (typedId && !options.some((option) => option.value === typedId)) {
    options.unshift({ value: typedId, label: t('admin:audit.filters.userId', { id: typedId }) });
  }
  if (values.actor && !options.some((option) => option.value === values.actor)) {
    options.push({
      value: values.actor,
      label: t('admin:audit.filters.userId', { id: values.actor }),
    });
  }

  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label={t('admin:audit.filters.actor')}
        placeholder={t('admin:audit.filters.actorPlaceholder')}
        searchable
        clearable
        data={options}
        value={values.actor || null}
        searchValue={actorSearch}
        onSearchChange={setActorSearch}
        onChange={(value) => onChange({ actor: value ?? '' })}
        nothingFoundMessage={
          actorSearch.trim().length >= 2 && !picks.isFetching
            ? t('admin:audit.filters.noUser')
            : undefined
        }
        filter={({ options: all }) => all}
        miw={240}
      />
      <Autocomplete
        label={t('admin:audit.filters.entity')}
        data={[...AUDIT_ENTITIES]}
        value={entity}
        onChange={(value) => {
          setEntity(value);
          applyText({ entity: value });
        }}
        maxLength={100}
        w={160}
      />
      <TextInput
        label={t('admin:audit.filters.entityId')}
        value={entityId}
        onChange={(event) => {
          setEntityId(event.currentTarget.value);
          applyText({ entityId: event.currentTarget.value });
        }}
        maxLength={100}
        w={120}
      />
      <DateField
        label={t('admin:audit.filters.from')}
        value={values.from}
        max={values.to}
        onChange={(from) => onChange({ from })}
      />
      <DateField
        label={t('admin:audit.filters.to')}
        value={values.to}
        min={values.from}
        onChange={(to) => onChange({ to })}
      />
      <Button
        variant="default"
        onClick={() => {
          setActorSearch('');
          setEntity('');
          setEntityId('');
          onChange({ actor: '', entity: '', entityId: '', from: '', to: '' });
        }}
      >
        {t('admin:audit.filters.clear')}
      </Button>
    </Group>
  );
}
