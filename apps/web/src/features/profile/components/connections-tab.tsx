import { Stack } from '@mantine/core';
import type { UserProfile } from '@dentflow/domain';
import { MyPartnerLinksCard } from '../../partners/components/my-partner-links-card';
import { MyInstructorCard } from '../../students/components/my-instructor-card';
import { ReceivedInvitationsCard } from '../../students/components/received-invitations-card';

/** The Connections tab: the user's instructor, invitations waiting, and clinic–partner links. */
export function ConnectionsTab({ profile }: { profile: UserProfile }) {
  return (
    <Stack>
      <MyInstructorCard />
      <ReceivedInvitationsCard />
      <MyPartnerLinksCard userId={profile.id} />
    </Stack>
  );
}
