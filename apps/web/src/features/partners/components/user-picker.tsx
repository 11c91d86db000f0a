import { useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { UserPick } from '@dentflow/domain';
import { useUserSearch } from '../api/search-users';

/** How long typing pauses before the search runs. */
export const USER_SEARCH_DEBOUNCE_MS = 300;

/**
 * A searchable picker of users by name, showing only those with `role` (the server refuses the
 * others anyway). `value` is the chosen user's id as a string.
 */
export function UserPicker(props: {
  label: string;
  role: 'clinic' | 'partner';
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, USER_SEARCH_DEBOUNCE_MS);
  const found = useUserSearch(debounced);
  // The chosen user stays an option while the next search runs.
  const [chosen, setChosen] = useState<UserPick | null>(null);
  const matches = (found.data ?? []).filter((user) => user.roles.includes(props.role));
  const users = chosen && !matches.some((u) => u.id === chosen.id) ? [chosen, ...matches] : matches;
  const data = users.map((user) => ({
    value: String(user.id),
    label: `${user.displayName} (${user.email})`,
  }));

  return (
    <Select
      label={props.label}
      placeholder={t('admin:partners.searchHint')}
      searchable
      clearable
      required
      data={data}
      value={props.value}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={
        debounced.trim().length >= 2 && !found.isFetching ? t('admin:partners.nothingFound') : null
      }
      onChange={(value) => {
        setChosen(users.find((user) => String(user.id) === value) ?? null);
        props.onChange(value);
      }}
    />
  );
}
