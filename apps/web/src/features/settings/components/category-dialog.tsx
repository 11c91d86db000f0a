import {
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  categoryFormSchema,
  LANGUAGES,
  type Category,
  type CategoryForm,
  type Language,
} from '@dentflow/domain';
import { currentLanguage } from '../../../lib/i18n';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { errorMessage, showError, showSuccess } from '../../../lib/notify';
import { useCategory } from '../../products/api/get-category';
import { useSetCategory } from '../../products/api/set-category';

const EMPTY: CategoryForm = { name: { ptBR: '', en: '', es: '' }, active: true };

function CategoryFormBody(props: { category: Category | null; onClose: () => void }) {
  const { category, onClose } = props;
  const { t } = useTranslation();
  const setCategory = useSetCategory();
  const form = useForm<CategoryForm>({
    initialValues: category ? { name: { ...category.name }, active: category.active } : EMPTY,
    validate: schemaValidator(categoryFormSchema),
  });

  const submit = form.onSubmit((values) => {
    const body = categoryFormSchema.parse(values);
    setCategory.mutate(
      { id: category?.id ?? 0, body },
      {
        onSuccess: () => {
          showSuccess(t('admin:categories.saved'));
          onClose();
        },
        onError: (error) => {
          const errors: FormErrors = serverFieldErrors(error);
          form.setErrors(errors);
          showError(error);
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {LANGUAGES.map((language: Language) => (
          <TextInput
            key={language}
            label={t(`admin:categories.columns.${language}`)}
            required
            maxLength={120}
            data-autofocus={language === 'ptBR' ? true : undefined}
            {...form.getInputProps(`name.${language}`)}
          />
        ))}
        <Switch
          label={t('admin:categories.active')}
          description={t('admin:categories.activeHint')}
          {...form.getInputProps('active', { type: 'checkbox' })}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={setCategory.isPending}>
            {t('admin:categories.cancel')}
          </Button>
          <Button type="submit" loading={setCategory.isPending}>
            {t('admin:categories.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The category being edited, read fresh first; a new category starts empty and active. */
function CategoryEditor(props: { id: number | null; onClose: () => void }) {
  const category = useCategory(props.id);
  if (props.id !== null) {
    if (category.isError) return <Text c="red">{errorMessage(category.error)}</Text>;
    if (!category.data) {
      return (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      );
    }
  }
  return <CategoryFormBody category={category.data ?? null} onClose={props.onClose} />;
}

/** Create (`editing` = 'new') or edit a product category: the three names and the active flag. */
export function CategoryDialog(props: { editing: 'new' | Category | null; onClose: () => void }) {
  const { editing, onClose } = props;
  const { t } = useTranslation();
  const title =
    editing === null || editing === 'new'
      ? t('admin:categories.createTitle')
      : t('admin:categories.editTitle', { name: editing.name[currentLanguage()] });
  return (
    <Modal opened={editing !== null} onClose={onClose} title={title} centered>
      {editing !== null && (
        <CategoryEditor
          key={editing === 'new' ? 'new' : editing.id}
          id={editing === 'new' ? null : editing.id}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}
