import { AspectRatio, Center, Image } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';

/** A product's picture, or a neutral placeholder when it has none (or it fails to load). */
export function ProductImage({
  url,
  name,
  ratio = 4 / 3,
}: {
  url: string | null;
  name: string;
  ratio?: number;
}) {
  return (
    <AspectRatio ratio={ratio} bg="gray.1">
      {url ? (
        <Image src={url} alt={name} fit="cover" loading="lazy" />
      ) : (
        <Center c="gray.5" aria-hidden="true">
          <IconPhoto size={48} stroke={1.2} />
        </Center>
      )}
    </AspectRatio>
  );
}
