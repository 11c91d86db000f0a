import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMyPartnerLinks } from '../api/my-partner-links';

/**
 * The clinic–partner links the user is on: a clinic sees its partners, a partner the clinics it
 * works with. Admins make and end links on the partners page.
 */
export function MyPartnerLinksCard({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { data: links, isPending } = useMyPartnerLinks();
  const title = t('admin:connections.partners.title');

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {isPending ? (
        <Skeleton h={40} />
      ) : !links?.length ? (
        <Text c="dimmed">{t('admin:connections.partners.none')}</Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {links.map((link) => {
            // The other side of the link is the one worth naming.
            const asClinic = link.clinic.id === userId;
            const other = asClinic ? link.partner : link.clinic;
            return (
              <li key={link.id}>
                <Text fw={500}>{other.displayName}</Text>
                <Text size="sm" c="dimmed">
                  {asClinic
                    ? t('admin:connections.partners.yourPartner')
                    : t('admin:connections.partners.yourClinic')}
                  {' · '}
                  {other.email}
                </Text>
              </li>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}
