import { useState } from 'react';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  EMPTY_ADDRESS,
  INVOICE_DOCUMENT_TYPES,
  MESSAGE,
  invoiceCustomerFormSchema,
  isValidDocument,
  maskDocument,
  type Address,
  type InvoiceCustomerForm,
  type InvoiceDocumentType,
  type InvoiceView,
  type UserProfile,
} from '@dentflow/domain';
import { serverFieldErrors } from '../../../lib/form';
import { translateErrorKey } from '../../../lib/i18n';
import { errorMessage } from '../../../lib/notify';
import { useProfile } from '../../profile/api/get-profile';
import { AddressFields } from '../../profile/components/address-fields';
import { usePhone } from './use-phone';

export interface InvoiceFormValues {
  customerName: string;
  email: string;
  documentType: InvoiceDocumentType;
  document: string;
  address: Address;
}

const addressOf = (address: Partial<Address> | null | undefined): Address => ({
  ...EMPTY_ADDRESS,
  ...Object.fromEntries(Object.entries(address ?? {}).map(([key, value]) => [key, value ?? ''])),
});

/** The stored invoice, else the caller's own profile (name, email, document, address). */
export function initialInvoiceValues(
  invoice: InvoiceView | null,
  profile: UserProfile | undefined,
): InvoiceFormValues {
  if (invoice) {
    return {
      customerName: invoice.customerName,
      email: invoice.email,
      documentType: invoice.documentType,
      document: maskDocument(invoice.documentType, invoice.document),
      address: addressOf(invoice.address),
    };
  }
  const general = profile?.dataGeneral;
  const info = profile?.dataInfo;
  const profileType = info?.typeOfDocument;
  const documentType: InvoiceDocumentType =
    profileType === 'CPF' || profileType === 'CNPJ' ? profileType : info?.document ? 'id' : 'CPF';
  return {
    customerName: [general?.fname, general?.lname].filter(Boolean).join(' '),
    email: general?.email ?? '',
    documentType,
    document: maskDocument(documentType, info?.document ?? ''),
    address: addressOf(profile?.dataAddress),
  };
}

function InvoiceForm(props: {
  initial: InvoiceFormValues;
  loading: boolean;
  error: unknown;
  onSubmit: (body: InvoiceCustomerForm) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState(props.initial);
  const [documentTouched, setDocumentTouched] = useState(false);
  const parsed = invoiceCustomerFormSchema.safeParse(values);
  const serverErrors = serverFieldErrors(props.error);
  const set = <K extends keyof InvoiceFormValues>(key: K, value: InvoiceFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const documentError =
    (documentTouched &&
      values.document.trim() !== '' &&
      !isValidDocument(values.documentType, values.document) &&
      translateErrorKey(MESSAGE.invalidDocument)) ||
    serverErrors.document;
  const addressErrors = Object.fromEntries(
    Object.entries(serverErrors)
      .filter(([path]) => path.startsWith('address.'))
      .map(([path, message]) => [path.slice('address.'.length), message]),
  );

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (parsed.success) props.onSubmit(parsed.data);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('payments:invoice.customerName')}
          value={values.customerName}
          onChange={(event) => set('customerName', event.currentTarget.value)}
          maxLength={120}
          required
          autoComplete="name"
          error={serverErrors.customerName}
          data-autofocus
        />
        <TextInput
          label={t('payments:invoice.email')}
          type="email"
          value={values.email}
          onChange={(event) => set('email', event.currentTarget.value)}
          maxLength={254}
          autoComplete="email"
          error={serverErrors.email}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('payments:invoice.documentType')}
            data={INVOICE_DOCUMENT_TYPES.map((type) => ({
              value: type,
              label: t(`domain:documentTypes.${type}`),
            }))}
            value={values.documentType}
            onChange={(type) => {
              if (!type) return;
              const documentType = type as InvoiceDocumentType;
              setValues((current) => ({
                ...current,
                documentType,
                document: maskDocument(documentType, current.document),
              }));
            }}
            allowDeselect={false}
            required
            comboboxProps={{ withinPortal: false }}
          />
          <TextInput
            label={t('payments:invoice.document')}
            value={values.document}
            onChange={(event) =>
              set('document', maskDocument(values.documentType, event.currentTarget.value))
            }
            onBlur={() => setDocumentTouched(true)}
            inputMode={values.documentType === 'id' ? 'text' : 'numeric'}
            required
            error={documentError || undefined}
            data-testid="invoice-document"
          />
        </SimpleGrid>
        <Title order={3} size="h5">
          {t('payments:invoice.address')}
        </Title>
        <AddressFields
          value={values.address}
          onChange={(address) => set('address', address)}
          errors={addressErrors}
        />
        {props.error ? (
          <Alert color="red" title={t('feedback.error')} role="alert">
            {errorMessage(props.error)}
          </Alert>
        ) : null}
        {!parsed.success && (
          <Text size="xs" c="dimmed">
            {t('payments:invoice.incomplete')}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose} disabled={props.loading}>
            {t('cases:dialogs.cancel')}
          </Button>
          <Button
            type="submit"
            disabled={!parsed.success}
            loading={props.loading}
            data-testid="invoice-save"
          >
            {t('payments:invoice.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function InvoiceDialogBody(props: {
  invoice: InvoiceView | null;
  loading: boolean;
  error: unknown;
  onSubmit: (body: InvoiceCustomerForm) => void;
  onClose: () => void;
}) {
  const profile = useProfile();
  // Without an invoice the form starts from the profile: wait for it (briefly) once.
  if (!props.invoice && profile.isLoading && !profile.data) {
    return (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  }
  return <InvoiceForm initial={initialInvoiceValues(props.invoice, profile.data)} {...props} />;
}

/**
 * Invoice dialog: who the invoice is made out to. CPF/CNPJ masked with check digits,
 * the shared address fields; Save disabled until the domain's schema passes.
 */
export function InvoiceDialog(props: {
  opened: boolean;
  invoice: InvoiceView | null;
  loading?: boolean;
  error?: unknown;
  onSubmit: (body: InvoiceCustomerForm) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = usePhone();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('payments:invoice.title')}
      size="lg"
      fullScreen={phone}
      centered
    >
      {props.opened && (
        <InvoiceDialogBody
          invoice={props.invoice}
          loading={props.loading ?? false}
          error={props.error ?? null}
          onSubmit={props.onSubmit}
          onClose={props.onClose}
        />
      )}
    </Modal>
  );
}
