import { Button, Group, Modal, Stack, Tabs, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  ANNOUNCEMENT_BODY_MAX,
  ANNOUNCEMENT_TITLE_MAX,
  announcementSaveSchema,
  announcementTextFor,
  LANGUAGES,
  type AdminAnnouncement,
  type AnnouncementSave,
  type Language,
} from '@dentflow/domain';
import { currentLanguage } from '../../../lib/i18n';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { useTabStrip } from '../../../lib/ui/tab-strip';
import { useSaveAnnouncement } from '../api/announcements';

type AnnouncementFormValues = Pick<AnnouncementSave, 'texts'>;

const EMPTY_TEXTS: AnnouncementFormValues['texts'] = {
  ptBR: { title: '', body: '' },
  en: { title: '', body: '' },
  es: { title: '', body: '' },
};

/** The languages whose tab holds a field with an error (`texts.en.title` → en). */
const languagesWithErrors = (errors: Record<string, unknown>) =>
  new Set(
    Object.keys(errors)
      .map((path) => path.split('.')[1])
      .filter((language): language is Language => LANGUAGES.includes(language as Language)),
  );

function AnnouncementForm(props: { announcement: AdminAnnouncement | null; onClose: () => void }) {
  const { announcement, onClose } = props;
  const { t } = useTranslation();
  const tabStrip = useTabStrip();
  const save = useSaveAnnouncement();
  const validateSave = schemaValidator<AnnouncementSave>(announcementSaveSchema);
  // Editing keeps the active flag as it is; activation goes through the list's confirm.
  const active = announcement?.active ?? false;
  const form = useForm<AnnouncementFormValues>({
    initialValues: {
      texts: announcement
        ? {
            ptBR: { ...announcement.texts.ptBR },
            en: { ...announcement.texts.en },
            es: { ...announcement.texts.es },
          }
        : EMPTY_TEXTS,
    },
    validate: (values) => validateSave({ active, texts: values.texts }),
  });

  const submit = form.onSubmit(
    (values) => {
      const body = announcementSaveSchema.parse({
        ...(announcement ? { id: announcement.id } : {}),
        active,
        texts: values.texts,
      });
      save.mutate(body, {
        onSuccess: () => {
          showSuccess(t('admin:settings.announcements.saved'));
          onClose();
        },
        onError: (error) => {
          form.setErrors(serverFieldErrors(error));
          showError(error);
        },
      });
    },
    () => showError(new Error(t('admin:settings.common.fixErrors'))),
  );

  const withErrors = languagesWithErrors(form.errors);

  return (
    <form onSubmit={submit} noValidate data-testid="announcement-form">
      <Stack gap="md">
        <Tabs defaultValue={currentLanguage()} keepMounted>
          <Tabs.List {...tabStrip}>
            {LANGUAGES.map((language) => (
              <Tabs.Tab
                key={language}
                value={language}
                c={withErrors.has(language) ? 'red' : undefined}
                data-testid={`announcement-tab-${language}`}
              >
                {t(`domain:languages.${language}`)}
                {withErrors.has(language) && (
                  <Text span size="xs" ml={4}>
                    ({t('admin:settings.announcements.tabHasErrors')})
                  </Text>
                )}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {LANGUAGES.map((language) => (
            <Tabs.Panel key={language} value={language} pt="sm">
              <Stack gap="sm">
                <TextInput
                  label={t('admin:settings.announcements.titleLabel')}
                  maxLength={ANNOUNCEMENT_TITLE_MAX}
                  data-testid={`announcement-title-${language}`}
                  {...form.getInputProps(`texts.${language}.title`)}
                />
                <Textarea
                  label={t('admin:settings.announcements.bodyLabel')}
                  autosize
                  minRows={4}
                  maxRows={12}
                  maxLength={ANNOUNCEMENT_BODY_MAX}
                  data-testid={`announcement-body-${language}`}
                  {...form.getInputProps(`texts.${language}.body`)}
                />
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            {t('admin:settings.common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="announcement-save">
            {t('admin:settings.announcements.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The title an admin recognises an announcement by, in the interface language (with fallback). */
export function announcementTitle(announcement: AdminAnnouncement): string {
  return announcementTextFor(announcement.texts, currentLanguage()).title;
}

/** Create (`editing` = 'new') or edit an announcement: title and body in each language. */
export function AnnouncementDialog(props: {
  editing: 'new' | AdminAnnouncement | null;
  onClose: () => void;
}) {
  const { editing, onClose } = props;
  const { t } = useTranslation();
  const title =
    editing === null || editing === 'new'
      ? t('admin:settings.announcements.createTitle')
      : t('admin:settings.announcements.editTitle', { title: announcementTitle(editing) });
  return (
    <Modal opened={editing !== null} onClose={onClose} title={title} centered size="lg">
      {editing !== null && (
        <AnnouncementForm
          key={editing === 'new' ? 'new' : editing.id}
          announcement={editing === 'new' ? null : editing}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}
