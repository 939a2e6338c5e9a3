import { useParams } from '@tanstack/react-router';
import { renderCard } from '@web/features/catalog/card-view';
import { SharedPullView } from '@web/features/pulls/shared-pull';

/** /pulls/$id — one pull's public page; the server puts its link-preview tags in the HTML. */
export default function PullPage() {
  const { id = '' } = useParams({ strict: false }) as { id?: string };
  return <SharedPullView id={id} renderCard={(look) => renderCard(look, { size: 'lg' })} />;
}
