import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  emailsSettingsViewSchema,
  paymentsSettingsViewSchema,
  serviceMetadataSettingsViewSchema,
  shippingSettingsSchema,
  sleevesSettingsViewSchema,
  treatmentPurposesSettingsViewSchema,
  type EmailsSettings,
  type PaymentsSettings,
  type PaymentsSettingsView,
  type ServiceMetadataSettings,
  type ServiceMetadataSettingsView,
  type SettingsSection,
  type ShippingSettings,
  type SleevesSettings,
  type SleevesSettingsView,
  type TreatmentPurposesSettings,
} from '@dentflow/domain';
import { api } from '../../../lib/api-client';
import { kitsQueryOptions } from '../../metadata/api/get-kits';
import { settingsKeys } from './settings-keys';

/** Per section: what `POST /settings/{section}` takes and what GET (and the POST) answers. */
interface SectionTypes {
  payments: { body: PaymentsSettings; view: PaymentsSettingsView };
  emails: { body: EmailsSettings; view: EmailsSettings };
  serviceMetadata: { body: ServiceMetadataSettings; view: ServiceMetadataSettingsView };
  treatmentPurposes: { body: TreatmentPurposesSettings; view: TreatmentPurposesSettings };
  sleeves: { body: SleevesSettings; view: SleevesSettingsView };
  shipping: { body: ShippingSettings; view: ShippingSettings };
}
type View<S extends SettingsSection> = SectionTypes[S]['view'];
type Body<S extends SettingsSection> = SectionTypes[S]['body'];

// Answers are read with the domain's schemas so a contract drift fails loudly, not on screen.
const VIEW_SCHEMAS: { [S in SettingsSection]: { parse: (value: unknown) => View<S> } } = {
  payments: paymentsSettingsViewSchema,
  emails: emailsSettingsViewSchema,
  serviceMetadata: serviceMetadataSettingsViewSchema,
  treatmentPurposes: treatmentPurposesSettingsViewSchema,
  sleeves: sleevesSettingsViewSchema,
  shipping: shippingSettingsSchema,
};

export const fetchSettings = async <S extends SettingsSection>(section: S): Promise<View<S>> =>
  VIEW_SCHEMAS[section].parse(await api.get<unknown>(`/settings/${section}`));

export const saveSettings = async <S extends SettingsSection>(
  section: S,
  body: Body<S>,
): Promise<View<S>> =>
  VIEW_SCHEMAS[section].parse(await api.post<unknown>(`/settings/${section}`, body));

export const useSettings = <S extends SettingsSection>(section: S) =>
  useQuery({ queryKey: settingsKeys.section(section), queryFn: () => fetchSettings(section) });

/** The sections whose saves change what the service data form offers (the metadata query). */
const SERVICE_DATA_SECTIONS: readonly SettingsSection[] = ['serviceMetadata', 'treatmentPurposes'];

/**
 * Saves a section; its answer is what GET would answer now, so it replaces the cached copy. A
 * save of kits or purpose names also refetches the metadata, so this session's forms show it.
 */
export function useSaveSettings<S extends SettingsSection>(section: S) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<S>) => saveSettings(section, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.section(section), saved);
      if (SERVICE_DATA_SECTIONS.includes(section)) {
        void queryClient.invalidateQueries({ queryKey: kitsQueryOptions().queryKey });
      }
    },
  });
}
