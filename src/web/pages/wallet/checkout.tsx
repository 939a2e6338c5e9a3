import { useParams } from '@tanstack/react-router';
import { SandboxCheckout } from '@web/features/wallet';

/** /checkout/{id}: the built-in test-mode checkout of a deposit (its own h1 is inside). */
export default function CheckoutPage() {
  const { id } = useParams({ from: '/chrome/site/user-site/checkout/$id' });
  return (
    <div className="px-4 py-8 sm:py-12">
      <SandboxCheckout depositId={id ?? ''} />
    </div>
  );
}
