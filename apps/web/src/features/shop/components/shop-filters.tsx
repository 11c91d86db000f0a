import { Chip, Group, Skeleton, Stack, Switch, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Category, Language, ShopFilter, ShopFilterAction } from '@dentflow/domain';

/** The shop's filters; their interplay is the domain's `shopFilterReducer`. */
export function ShopFilters({
  filter,
  onChange,
  categories,
  categoriesLoading,
  language,
}: {
  filter: ShopFilter;
  onChange: (action: ShopFilterAction) => void;
  categories: readonly Category[];
  categoriesLoading: boolean;
  language: Language;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Group gap="md" align="flex-end" wrap="wrap">
        <TextInput
          value={filter.text}
          onChange={(event) => onChange({ type: 'setText', text: event.currentTarget.value })}
          leftSection={<IconSearch size={16} />}
          label={t('shop:list.search')}
          placeholder={t('shop:list.searchPlaceholder')}
          type="search"
          maxLength={120}
          style={{ flex: '1 1 240px' }}
        />
        <Switch
          checked={filter.mostOrdered}
          onChange={(event) =>
            onChange({ type: 'setMostOrdered', mostOrdered: event.currentTarget.checked })
          }
          label={t('shop:list.mostOrdered')}
          mb={8}
        />
      </Group>
      <div role="group" aria-label={t('shop:list.categories')}>
        {categoriesLoading ? (
          <Group gap="xs">
            {[0, 1, 2].map((n) => (
              <Skeleton key={n} h={28} w={110} radius="xl" />
            ))}
          </Group>
        ) : (
          <Chip.Group
            multiple
            value={filter.categories.map(String)}
            onChange={(values) =>
              onChange({ type: 'setCategories', categories: values.map(Number) })
            }
          >
            <Group gap="xs">
              {categories.map((category) => (
                <Chip key={category.id} value={String(category.id)} size="sm">
                  {category.name[language] || category.name.en}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        )}
      </div>
    </Stack>
  );
}
