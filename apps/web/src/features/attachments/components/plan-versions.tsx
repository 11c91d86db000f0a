import { useState } from 'react';
import { Button, Modal, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { planVersionChains, type PlanChain } from '@dentflow/domain';
import type { CaseAttachment } from '../api/list-case-attachments';
import { AttachmentCard } from './attachment-card';

/**
 * The planning files as version chains (docs/decisions/028): each chain's current version (and a
 * next one not published yet), with its earlier versions one click away, read-only.
 */
export function PlanningChains(props: {
  items: CaseAttachment[];
  readOnly: boolean;
  onOpen: (item: CaseAttachment) => void;
  /** Opens the compare viewer from this file, when it has another version to compare with. */
  compareFrom?: (item: CaseAttachment) => (() => void) | undefined;
  onChanged: () => void;
}) {
  const chains = planVersionChains(props.items);
  return (
    <>
      {chains.map((chain) => (
        <Stack key={chain.chainId} gap={6} data-testid="plan-chain" data-chain-id={chain.chainId}>
          {[chain.current, chain.draft]
            .filter((item): item is CaseAttachment => item !== null)
            .map((item) => (
              <AttachmentCard
                key={item.id}
                item={item}
                readOnly={props.readOnly}
                onOpen={props.onOpen}
                onCompare={props.compareFrom?.(item)}
                onChanged={props.onChanged}
              />
            ))}
          {chain.history.length > 0 && <ChainHistory chain={chain} onOpen={props.onOpen} />}
        </Stack>
      ))}
    </>
  );
}

function ChainHistory(props: {
  chain: PlanChain<CaseAttachment>;
  onOpen: (item: CaseAttachment) => void;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const count = props.chain.history.length;
  return (
    <>
      <Button
        variant="subtle"
        size="xs"
        leftSection={<IconHistory size={14} />}
        onClick={() => setOpened(true)}
      >
        {t('files:versions.history', { count })}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={t('files:versions.historyTitle')}
        size="xl"
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('files:versions.readOnly')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {props.chain.history.map((item) => (
              <AttachmentCard
                key={item.id}
                item={item}
                readOnly
                onOpen={(file) => {
                  setOpened(false);
                  props.onOpen(file);
                }}
                onChanged={() => undefined}
              />
            ))}
          </SimpleGrid>
        </Stack>
      </Modal>
    </>
  );
}

const NEW_FILE = 'new';

/**
 * Where the planner's next upload goes while a change is requested: the next version of the
 * chain awaiting it (one: said; several: chosen), or a new file.
 */
export function NewVersionTarget(props: {
  chains: PlanChain<CaseAttachment>[];
  value: number | null;
  onChange: (replacesId: number | null) => void;
}) {
  const { t } = useTranslation();
  const nameOf = (chain: PlanChain<CaseAttachment>) =>
    chain.current?.filename ?? `#${chain.chainId}`;
  if (props.chains.length === 1) {
    const chain = props.chains[0]!;
    return (
      <Text size="sm" fw={500} data-testid="new-version-of">
        {t('files:versions.newVersionOf', { name: nameOf(chain) })}
      </Text>
    );
  }
  return (
    <Select
      label={t('files:versions.newVersionChoice')}
      data={[
        ...props.chains.map((chain) => ({
          value: String(chain.current!.id),
          label: t('files:versions.newVersionOf', { name: nameOf(chain) }),
        })),
        { value: NEW_FILE, label: t('files:versions.newFile') },
      ]}
      value={props.value === null ? NEW_FILE : String(props.value)}
      onChange={(value) => props.onChange(!value || value === NEW_FILE ? null : Number(value))}
      allowDeselect={false}
    />
  );
}
