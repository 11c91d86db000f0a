import { Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  emailsSettingsSchema,
  NOTIFICATION_TYPES,
  SENDER_NAME_MAX,
  SUPPORT_EMAIL_MAX,
  type EmailsSettings,
  type NotificationTypeKey,
} from '@dentflow/domain';
import { schemaValidator, serverFieldErrors } from '../../../lib/form';
import { showError, showSuccess } from '../../../lib/notify';
import { useSaveSettings, useSettings } from '../api/settings-sections';
import { QueryContent, SectionHeader } from './section-frame';

const TYPE_KEYS = Object.keys(NOTIFICATION_TYPES) as NotificationTypeKey[];

/** The checkbox group works on strings; the document holds notification type ids. */
interface EmailsFormValues {
  senderName: string;
  supportEmail: string;
  defaultEvents: string[];
}

const formValues = (settings: EmailsSettings): EmailsFormValues => ({
  senderName: settings.senderName,
  supportEmail: settings.supportEmail,
  defaultEvents: settings.defaultEvents.map(String),
});
const documentOf = (values: EmailsFormValues) => ({
  senderName: values.senderName,
  supportEmail: values.supportEmail,
  defaultEvents: values.defaultEvents.map(Number),
});

function EmailsForm(props: { settings: EmailsSettings }) {
  const { t } = useTranslation();
  const save = useSaveSettings('emails');
  const validate = schemaValidator<ReturnType<typeof documentOf>>(emailsSettingsSchema);
  const form = useForm<EmailsFormValues>({
    initialValues: formValues(props.settings),
    validate: (values) => validate(documentOf(values)),
  });

  const submit = form.onSubmit(
    (values) =>
      save.mutate(emailsSettingsSchema.parse(documentOf(values)), {
        onSuccess: (saved) => {
          form.setValues(formValues(saved));
          showSuccess(t('admin:settings.emails.saved'));
        },
        onError: (error) => {
          form.setErrors(serverFieldErrors(error));
          showError(error);
        },
      }),
    () => showError(new Error(t('admin:settings.common.fixErrors'))),
  );

  return (
    <form onSubmit={submit} noValidate data-testid="emails-settings-form">
      <Stack gap="md" maw={560}>
        <TextInput
          label={t('admin:settings.emails.senderName')}
          description={t('admin:settings.emails.senderNameHint', { max: SENDER_NAME_MAX })}
          required
          maxLength={SENDER_NAME_MAX}
          {...form.getInputProps('senderName')}
        />
        <TextInput
          type="email"
          label={t('admin:settings.emails.supportEmail')}
          description={t('admin:settings.emails.supportEmailHint')}
          maxLength={SUPPORT_EMAIL_MAX}
          autoComplete="off"
          {...form.getInputProps('supportEmail')}
        />
        <Checkbox.Group
          label={t('admin:settings.emails.defaultEvents')}
          description={t('admin:settings.emails.defaultEventsHint')}
          {...form.getInputProps('defaultEvents')}
        >
          <Stack gap="xs" mt="sm">
            {TYPE_KEYS.map((key) => (
              <Checkbox
                key={key}
                value={String(NOTIFICATION_TYPES[key])}
                label={t(`domain:notificationTypes.${key}`)}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} data-testid="emails-settings-save">
            {t('admin:settings.emails.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Settings › Emails: the sender name and the events mailed to users who have not chosen. */
export function EmailsSection() {
  const { t } = useTranslation();
  const settings = useSettings('emails');
  return (
    <Stack gap="md">
      <SectionHeader
        title={t('admin:settings.emails.title')}
        description={t('admin:settings.emails.description')}
      />
      <QueryContent query={settings}>{(emails) => <EmailsForm settings={emails} />}</QueryContent>
    </Stack>
  );
}
