import { useTranslation } from 'react-i18next';
import { attachmentLabelKey } from '@dentflow/domain';

/**
 * The translated label of a file's slot: its kind, or the bucket's generic label. Light on
 * purpose: the case's General tab names missing slots without loading the attachments tab.
 */
export function useAttachmentLabel() {
  const { t, i18n } = useTranslation();
  return (item: { id: number; bucketName: string; attachmentType: string }) => {
    const key = `domain:attachments.${attachmentLabelKey(item)}`;
    return i18n.exists(key) ? t(key) : t(`domain:attachments.${item.bucketName}.generic`);
  };
}
