import { Group, Select, SimpleGrid, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import {
  CURRENCIES,
  DEFAULT_LANGUAGE,
  DOCUMENT_TYPES,
  FREE_DOCUMENT_MAX_LENGTH,
  GENDERS,
  LANGUAGES,
  currencyForLanguage,
  dataInfoUpdateSchema,
  isLanguage,
  maskDocument,
  maskPhone,
  type Currency,
  type DataInfo,
  type DataInfoUpdate,
  type DocumentType,
  type Language,
} from '@dentflow/domain';
import { schemaValidator } from '../../../lib/form';
import { DateField } from '../../../lib/ui/date-field';

export interface InfoFormValues {
  language: Language;
  currency: Currency;
  typeOfDocument: DocumentType;
  document: string;
  mobile: { number: string; whatsapp: boolean };
  birthDate: string;
  specialization: string;
  gender: string;
  bio: string;
}

const infoUpdateValidator = schemaValidator<DataInfoUpdate>(dataInfoUpdateSchema);

/** What the form sends as `dataInfo`: trimmed texts, an empty birth date as null. */
export function infoPayload(values: InfoFormValues): DataInfoUpdate {
  return {
    language: values.language,
    currency: values.currency,
    typeOfDocument: values.typeOfDocument,
    document: values.document.trim(),
    mobile: { number: values.mobile.number.trim(), whatsapp: values.mobile.whatsapp },
    birthDate: values.birthDate || null,
    specialization: values.specialization.trim(),
    gender: values.gender,
    bio: values.bio.trim(),
  };
}

/**
 * The info form's rules are the domain's `dataInfoUpdateSchema` (the one the server applies):
 * limits, phone format, CPF/CNPJ check digits against the document type, ISO birth date.
 */
export function validateInfo(values: InfoFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [path, message] of Object.entries(infoUpdateValidator(infoPayload(values))))
    if (typeof message === 'string') errors[path] = message;
  return errors;
}

/** The info form over a stored `dataInfo`, masked as typed, validated by `validateInfo`. */
export function useInfoForm(info: DataInfo) {
  return useForm<InfoFormValues>({
    initialValues: {
      language: isLanguage(info.language) ? info.language : DEFAULT_LANGUAGE,
      currency: info.currency ?? currencyForLanguage(info.language),
      typeOfDocument: info.typeOfDocument ?? 'none',
      document: maskDocument(info.typeOfDocument ?? 'none', info.document ?? ''),
      mobile: {
        number: maskPhone(info.mobile?.number ?? ''),
        whatsapp: info.mobile?.whatsapp ?? false,
      },
      birthDate: info.birthDate ?? '',
      specialization: info.specialization ?? '',
      gender: info.gender ?? '',
      bio: info.bio ?? '',
    },
    validate: validateInfo,
  });
}

/**
 * Info fields (the profile's Info tab, an admin editing a user): the document is masked
 * by its type and the phone as a Brazilian number while typing.
 */
export function InfoFields({
  form,
  ownData = false,
}: {
  form: UseFormReturnType<InfoFormValues>;
  /** The signed-in user's own data: the browser may fill the phone in; not someone else's. */
  ownData?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('profile.info.language')}
          data={LANGUAGES.map((language) => ({
            value: language,
            label: t(`language.names.${language}`),
          }))}
          allowDeselect={false}
          {...form.getInputProps('language')}
        />
        <Select
          label={t('profile.info.currency')}
          data={CURRENCIES.map((currency) => ({
            value: currency,
            label: t(`profile.info.currencies.${currency}`),
          }))}
          allowDeselect={false}
          {...form.getInputProps('currency')}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('profile.info.typeOfDocument')}
          data={DOCUMENT_TYPES.map((type) => ({
            value: type,
            label: t(`profile.info.documentTypes.${type}`),
          }))}
          allowDeselect={false}
          {...form.getInputProps('typeOfDocument')}
          onChange={(value) => {
            const type = (value ?? 'none') as DocumentType;
            form.setFieldValue('typeOfDocument', type);
            form.setFieldValue('document', maskDocument(type, form.values.document));
          }}
        />
        <TextInput
          label={t('profile.info.document')}
          placeholder={t(`profile.info.documentPlaceholders.${form.values.typeOfDocument}`)}
          inputMode={form.values.typeOfDocument === 'none' ? 'text' : 'numeric'}
          maxLength={FREE_DOCUMENT_MAX_LENGTH}
          {...form.getInputProps('document')}
          onChange={(event: React.ChangeEvent<HTMLInputElement>) =>
            form.setFieldValue(
              'document',
              maskDocument(form.values.typeOfDocument, event.currentTarget.value),
            )
          }
        />
      </SimpleGrid>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          style={{ flex: 1, minWidth: 220 }}
          label={t('profile.info.phone')}
          placeholder="(11) 91234-5678"
          type="tel"
          inputMode="tel"
          autoComplete={ownData ? 'tel-national' : undefined}
          {...form.getInputProps('mobile.number')}
          onChange={(event: React.ChangeEvent<HTMLInputElement>) =>
            form.setFieldValue('mobile.number', maskPhone(event.currentTarget.value))
          }
        />
        <Switch
          mb={8}
          label={t('profile.info.whatsapp')}
          {...form.getInputProps('mobile.whatsapp', { type: 'checkbox' })}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <DateField label={t('profile.info.birthDate')} {...form.getInputProps('birthDate')} />
        <Select
          label={t('profile.info.gender')}
          data={GENDERS.map((gender) => ({
            value: gender,
            label: t(`profile.info.genders.${gender}`),
          }))}
          clearable
          {...form.getInputProps('gender')}
          // No gender is '' in the profile; for the select it is "nothing chosen".
          value={form.values.gender || null}
          onChange={(value) => form.setFieldValue('gender', value ?? '')}
        />
      </SimpleGrid>
      <TextInput
        label={t('profile.info.specialization')}
        {...form.getInputProps('specialization')}
      />
      <Textarea
        label={t('profile.info.bio')}
        autosize
        minRows={3}
        maxRows={8}
        {...form.getInputProps('bio')}
      />
    </Stack>
  );
}
