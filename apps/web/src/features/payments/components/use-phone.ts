import { useMatches } from '@mantine/core';

/** Under the `sm` breakpoint dialogs take the whole screen, like the app's other forms. */
export const usePhone = () => useMatches({ base: true, sm: false });
