import { Button, Group, Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { languageTag } from '@dentflow/domain';
import { currentLanguage } from '../../../lib/i18n';

/** The terms are read in an embedded frame before they can be accepted. */
export function TermsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const section = `#${currentLanguage()}`;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('auth.register.termsTitle')}
      size="lg"
      centered
    >
      <iframe
        src={`/terms.html${section}`}
        title={t('auth.register.termsTitle')}
        lang={languageTag(currentLanguage())}
        style={{
          width: '100%',
          height: '60vh',
          border: '1px solid var(--mantine-color-gray-3)',
          borderRadius: 8,
        }}
      />
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>{t('auth.register.termsClose')}</Button>
      </Group>
    </Modal>
  );
}
