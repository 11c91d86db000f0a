import { Stack } from '@mantine/core';
import type { CaseDetail } from '@dentflow/domain';
import { DispatchForm } from './dispatch-form';
import { ProductionSheet } from './production-sheet';

/**
 * The case's Production tab (planners, printers, staff: `productionSheet`): the dispatch form
 * while the order may leave, then the printable sheet. Loaded only when opened.
 */
export function CaseProductionTab({ detail }: { detail: CaseDetail }) {
  return (
    <Stack>
      {detail.productionActions.includes('dispatch') && <DispatchForm detail={detail} />}
      <ProductionSheet detail={detail} />
    </Stack>
  );
}
