import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  EmptyState,
  Group,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCategory, IconPencil, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Category } from '@dentflow/domain';
import { currentLanguage } from '../../../lib/i18n';
import { errorMessage, showError, showSuccess } from '../../../lib/notify';
import { useCategories } from '../../products/api/list-categories';
import { useSetCategory } from '../../products/api/set-category';
import { CategoryDialog } from './category-dialog';

/** Settings, section product categories: names in the three languages, active flag. */
export function CategoriesSection() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const categories = useCategories();
  const setCategory = useSetCategory();
  const [editing, setEditing] = useState<'new' | Category | null>(null);
  const [toggling, setToggling] = useState<number | null>(null);

  const toggle = (category: Category, active: boolean) => {
    setToggling(category.id);
    setCategory.mutate(
      { id: category.id, body: { name: category.name, active } },
      {
        onSuccess: () =>
          showSuccess(
            t(active ? 'admin:categories.activated' : 'admin:categories.deactivated', {
              name: category.name[language],
            }),
          ),
        onError: showError,
        onSettled: () => setToggling(null),
      },
    );
  };

  let content: React.ReactNode;
  if (categories.isLoading) {
    content = (
      <Stack gap="xs" aria-busy="true">
        <Skeleton h={40} />
        <Skeleton h={40} />
        <Skeleton h={40} />
      </Stack>
    );
  } else if (categories.isError) {
    content = <Alert color="red">{errorMessage(categories.error)}</Alert>;
  } else if (!categories.data?.length) {
    content = (
      <EmptyState
        icon={<IconCategory size={28} />}
        title={t('admin:categories.emptyTitle')}
        description={t('admin:categories.emptyBody')}
        py="xl"
      />
    );
  } else {
    content = (
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="xs" aria-label={t('admin:categories.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin:categories.columns.id')}</Table.Th>
              {LANGUAGES.map((lang) => (
                <Table.Th key={lang}>{t(`admin:categories.columns.${lang}`)}</Table.Th>
              ))}
              <Table.Th>{t('admin:categories.columns.active')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('admin:categories.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {categories.data.map((category) => {
              const name = category.name[language];
              return (
                <Table.Tr key={category.id} data-testid={`category-row-${category.id}`}>
                  <Table.Td>{category.id}</Table.Td>
                  {LANGUAGES.map((lang) => (
                    <Table.Td key={lang}>{category.name[lang]}</Table.Td>
                  ))}
                  <Table.Td>
                    <Switch
                      checked={category.active}
                      disabled={toggling === category.id}
                      aria-label={t('admin:categories.activeLabel', { name })}
                      onChange={(event) => toggle(category, event.currentTarget.checked)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label={t('admin:categories.edit')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('admin:categories.editLabel', { name })}
                        onClick={() => setEditing(category)}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h3">
            {t('admin:categories.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('admin:categories.description')}
          </Text>
        </Stack>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {t('admin:categories.new')}
        </Button>
      </Group>
      {content}
      <CategoryDialog editing={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
