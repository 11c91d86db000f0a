import { Suspense } from 'react';
import { Outlet, Link } from 'react-router';
import { Anchor, Box, Center, Container, Group, Loader, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '../components/language-switcher';
import { BrandMark } from '../components/brand-mark';

/** The layout of the pages used before logging in; kept light (login bundle budget). */
export function PublicLayout() {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="gray.0" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="space-between" px="md" py="sm" component="header">
        <Anchor component={Link} to="/login" underline="never" aria-label={t('app.home')}>
          <BrandMark />
        </Anchor>
        <LanguageSwitcher />
      </Group>
      <Container size={480} w="100%" py="xl" style={{ flex: 1 }} component="main">
        <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="lg">
          <Suspense
            fallback={
              <Center py="xl">
                <Loader />
              </Center>
            }
          >
            <Outlet />
          </Suspense>
        </Paper>
      </Container>
      <Text component="footer" c="dimmed" size="xs" ta="center" py="md">
        {t('app.footer', { year: new Date().getFullYear() })}
      </Text>
    </Box>
  );
}
