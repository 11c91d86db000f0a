import { Link, Navigate, useParams } from 'react-router';
import { Card, Grid, NavLink, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AdminOnly } from '../../../app/guards/role-only';
import { AnnouncementsSection } from '../components/announcements-section';
import { CategoriesSection } from '../components/categories-section';
import { EmailsSection } from '../components/emails-section';
import { KitManufacturersSection } from '../components/kit-manufacturers-section';
import { PaymentsSection } from '../components/payments-section';
import { ShippingSection } from '../components/shipping-section';
import { SleevesSection } from '../components/sleeves-section';

/** Settings sections, in the spec's order: URL segment → catalogue key. */
export const SETTINGS_SECTIONS = [
  { slug: 'categories', key: 'categories' },
  { slug: 'payments', key: 'payments' },
  { slug: 'announcements', key: 'announcements' },
  { slug: 'emails', key: 'emails' },
  { slug: 'service-metadata', key: 'serviceMetadata' },
  { slug: 'manufacturer', key: 'manufacturer' },
  { slug: 'shipment', key: 'shipment' },
] as const;

type SectionKey = (typeof SETTINGS_SECTIONS)[number]['key'];

const SECTION_CONTENT: Record<SectionKey, () => React.ReactNode> = {
  categories: CategoriesSection,
  payments: PaymentsSection,
  announcements: AnnouncementsSection,
  emails: EmailsSection,
  serviceMetadata: KitManufacturersSection,
  manufacturer: SleevesSection,
  shipment: ShippingSection,
};

function Settings() {
  const { t } = useTranslation();
  const { section = SETTINGS_SECTIONS[0].slug } = useParams();
  const current = SETTINGS_SECTIONS.find((candidate) => candidate.slug === section);
  if (!current) return <Navigate to="/settings" replace />;
  const Content = SECTION_CONTENT[current.key];

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin:settings.title')}
      </Title>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Card withBorder radius="md" padding={4}>
            <nav aria-label={t('admin:settings.sectionsLabel')}>
              {SETTINGS_SECTIONS.map(({ slug, key }) => (
                <NavLink
                  key={slug}
                  component={Link}
                  to={`/settings/${slug}`}
                  label={t(`admin:settings.sections.${key}`)}
                  active={slug === current.slug}
                  aria-current={slug === current.slug ? 'page' : undefined}
                />
              ))}
            </nav>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }} style={{ minWidth: 0 }}>
          <Content key={current.key} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** /settings/{section} — general settings (admin only). */
export function SettingsPage() {
  return (
    <AdminOnly>
      <Settings />
    </AdminOnly>
  );
}
