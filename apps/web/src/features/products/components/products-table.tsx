import {
  ActionIcon,
  Badge,
  Center,
  Group,
  Image,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconPencil, IconPhotoOff, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  formatMoney,
  isCombo,
  isPlanningKind,
  LANGUAGES,
  productName,
  type AdminProduct,
  type Category,
} from '@dentflow/domain';
import { currentLanguage } from '../../../lib/i18n';

/** Products table: scrolls inside its own box on a phone. */
export function ProductsTable(props: {
  products: AdminProduct[];
  categories: Category[];
  onEdit: (product: AdminProduct) => void;
  onDelete: (product: AdminProduct) => void;
}) {
  const { products, categories, onEdit, onDelete } = props;
  const { t } = useTranslation();
  const language = currentLanguage();
  const categoryNames = new Map(categories.map((c) => [c.id, c.name[language]]));

  return (
    <Table.ScrollContainer minWidth={980}>
      <Table
        verticalSpacing="xs"
        highlightOnHover
        aria-label={t('admin:products.tableLabel')}
        data-testid="products-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin:products.columns.code')}</Table.Th>
            <Table.Th>{t('admin:products.columns.image')}</Table.Th>
            <Table.Th>{t('admin:products.columns.name')}</Table.Th>
            <Table.Th>{t('admin:products.columns.category')}</Table.Th>
            <Table.Th>{t('admin:products.columns.type')}</Table.Th>
            <Table.Th>{t('admin:products.columns.kind')}</Table.Th>
            <Table.Th ta="right">{t('admin:products.columns.priceBRL')}</Table.Th>
            <Table.Th ta="right">{t('admin:products.columns.priceUSD')}</Table.Th>
            <Table.Th>{t('admin:products.columns.languages')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('admin:products.columns.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {products.map((product) => {
            const name = productName(product, language) || t('admin:products.unnamed');
            const published = LANGUAGES.filter((lang) => product.texts[lang].publish);
            return (
              <Table.Tr
                key={product.id}
                data-testid={`product-row-${product.id}`}
                c={product.deletedAt ? 'dimmed' : undefined}
              >
                <Table.Td>
                  <Text size="sm" ff="monospace">
                    {product.code}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {product.imageUrl ? (
                    <Image
                      src={product.imageUrl}
                      alt={t('admin:products.imageOf', { name })}
                      w={40}
                      h={40}
                      radius="sm"
                      fit="cover"
                    />
                  ) : (
                    <Center w={40} h={40} c="dimmed" title={t('admin:products.noImage')}>
                      <IconPhotoOff size={18} aria-hidden />
                      <VisuallyHidden>{t('admin:products.noImage')}</VisuallyHidden>
                    </Center>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text size="sm" fw={500}>
                      {name}
                    </Text>
                    {product.deletedAt && (
                      <Badge color="red" variant="light" size="sm">
                        {t('admin:products.deleted')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{categoryNames.get(product.productCategory) ?? '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {isCombo(product)
                      ? t('productTypes.combo', { ns: 'domain' })
                      : t('productTypes.single', { ns: 'domain' })}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {isPlanningKind(product.productKind)
                      ? t('productKinds.planning', { ns: 'domain' })
                      : t('productKinds.manufacturing', { ns: 'domain' })}
                  </Text>
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(product.texts.ptBR.price, 'BRL')}
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMoney(product.texts.en.price, 'USD')}
                </Table.Td>
                <Table.Td>
                  {published.length > 0 ? (
                    <Group gap={4} wrap="nowrap">
                      {published.map((lang) => (
                        <Tooltip key={lang} label={t(`languages.${lang}`, { ns: 'domain' })}>
                          {/* Filled dark grey with white text: the outlined primary green was too pale to read. */}
                          <Badge size="sm" variant="filled" color="dark.5" tt="none">
                            {lang}
                          </Badge>
                        </Tooltip>
                      ))}
                    </Group>
                  ) : (
                    <Text size="xs" c="dimmed">
                      {t('admin:products.notPublished')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <Tooltip label={t('admin:products.edit')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('admin:products.editLabel', { code: product.code })}
                        onClick={() => onEdit(product)}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                    </Tooltip>
                    {!product.deletedAt && (
                      <Tooltip label={t('admin:products.delete')}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('admin:products.deleteLabel', { code: product.code })}
                          onClick={() => onDelete(product)}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
