import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  Button,
  Card,
  Collapse,
  Grid,
  Group,
  Stack,
  Stepper,
  Text,
  Title,
  UnstyledButton,
  useMatches,
} from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CheckoutStep } from '@dentflow/domain';

/**
 * The checkout's frame: title, stepper, the step, and the order summary beside it (wide screens)
 * or above it, folded until the payment step (narrow screens).
 */
export function CheckoutLayout({
  steps,
  active,
  onStepClick,
  summary,
  total,
  children,
}: {
  steps: readonly CheckoutStep[];
  active: number;
  onStepClick: (index: number) => void;
  summary: ReactNode;
  /** The quoted total, shown on the folded summary (null before the first quote). */
  total: string | null;
  /** The step and its navigation. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const wide = useMatches({ base: false, md: true });
  const [summaryToggle, setSummaryToggle] = useState<boolean | null>(null);
  const summaryOpen = summaryToggle ?? steps[active] === 'payment';
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('shop:checkout.title')}
      </Title>
      <Stepper active={active} onStepClick={onStepClick} allowNextStepsSelect={false} size="sm">
        {steps.map((name) => (
          <Stepper.Step key={name} label={t(`checkoutSteps.${name}`, { ns: 'domain' })} />
        ))}
      </Stepper>
      <Grid gap="md">
        {!wide && (
          <Grid.Col span={12}>
            <Card withBorder radius="md" padding="sm">
              <UnstyledButton
                onClick={() => setSummaryToggle(!summaryOpen)}
                aria-expanded={summaryOpen}
                aria-controls="checkout-summary"
                w="100%"
              >
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={600}>
                    {summaryOpen ? t('shop:summary.hide') : t('shop:summary.show')}
                  </Text>
                  <Group gap={6} wrap="nowrap">
                    {total !== null && <Text fw={700}>{total}</Text>}
                    {summaryOpen ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
                  </Group>
                </Group>
              </UnstyledButton>
              <Collapse expanded={summaryOpen} id="checkout-summary">
                <Stack pt="sm">{summary}</Stack>
              </Collapse>
            </Card>
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">{children}</Stack>
        </Grid.Col>
        {wide && (
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Card withBorder radius="md" padding="md" pos="sticky" top={90} id="checkout-summary">
              {summary}
            </Card>
          </Grid.Col>
        )}
      </Grid>
    </Stack>
  );
}

/** Below the step: back (or on shopping), and next (or place the order on the last step). */
export function CheckoutNavigation({
  first,
  last,
  onBack,
  onNext,
  onPlaceOrder,
  placing,
  canPlace,
}: {
  first: boolean;
  last: boolean;
  onBack: () => void;
  onNext: () => void;
  onPlaceOrder: () => void;
  placing: boolean;
  canPlace: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between">
      {first ? (
        <Button component={Link} to="/shop" variant="subtle">
          {t('shop:checkout.continueShopping')}
        </Button>
      ) : (
        <Button variant="default" onClick={onBack}>
          {t('shop:checkout.back')}
        </Button>
      )}
      {last ? (
        <Button onClick={onPlaceOrder} loading={placing} disabled={placing || !canPlace}>
          {t('shop:checkout.placeOrder')}
        </Button>
      ) : (
        <Button onClick={onNext}>{t('shop:checkout.next')}</Button>
      )}
    </Group>
  );
}
