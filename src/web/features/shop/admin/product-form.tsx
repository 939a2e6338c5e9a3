import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { ImagePlus, Layers } from 'lucide-react';
import { UPLOAD_ACCEPT, UPLOAD_MAX_BYTES } from '@shared/contracts/catalog-look';
import type { ProductInput, ProductStatus, ProductSummary } from '@shared/contracts/shop';
import { formatMoney, parseMoney } from '@shared/money';
import { Button, buttonClasses, Checkbox, ConfirmDialog, FileButton, FormField, Input, Money, Notice, Panel, Select, Textarea, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { PackArt } from '../pack-art';
import { HouseEdge } from './house-edge';
import { houseEdgeBp } from './pack-math';
import { uploadImage, useDeleteProduct, useUpdateProduct } from './admin-api';

/** ISO → the value of a datetime-local input (local time). */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

type Errors = Partial<Record<keyof ProductInput | 'form', string>>;

/** Edits one product: listing, image, price, status, release, limit, featured, order. */
export function ProductForm({ product }: { product: ProductSummary }) {
  const navigate = useNavigate();
  const update = useUpdateProduct(product.id);
  const del = useDeleteProduct(product.id);
  const [name, setName] = useState(product.name);
  const [description, setDescription] = useState(product.description);
  const [imageKey, setImageKey] = useState<string | null>(product.imageKey);
  const [price, setPrice] = useState((product.priceCents / 100).toFixed(2));
  const [status, setStatus] = useState<ProductStatus>(product.status);
  const [releaseAt, setReleaseAt] = useState(toLocalInput(product.releaseAt));
  const [limit, setLimit] = useState(product.purchaseLimitPerUser ? String(product.purchaseLimitPerUser) : '');
  const [featured, setFeatured] = useState(product.featured);
  const [sortOrder, setSortOrder] = useState(String(product.sortOrder));
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<Errors>({});

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > UPLOAD_MAX_BYTES) {
      setErrors((e) => ({ ...e, imageKey: 'The image is larger than 5 MB; pick a smaller one.' }));
      return;
    }
    setUploading(true);
    try {
      const up = await uploadImage(file);
      setImageKey(up.key);
      setErrors((e) => ({ ...e, imageKey: undefined }));
    } catch (err) {
      setErrors((e) => ({
        ...e,
        imageKey: err instanceof ApiClientError ? (err.fields?.file?.[0] ?? err.message) : 'The upload failed; try again.',
      }));
    } finally {
      setUploading(false);
    }
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const next: Errors = {};
    const priceCents = parseMoney(price);
    if (!name.trim()) next.name = 'Name is required.';
    if (priceCents === null || priceCents < 1) next.priceCents = 'Enter a price such as 9.99.';
    const lim = limit.trim() ? Number(limit) : null;
    if (lim !== null && (!Number.isInteger(lim) || lim < 1)) next.purchaseLimitPerUser = 'A whole number of packs (1 or more), or empty for no limit.';
    const order = Number(sortOrder);
    if (!Number.isInteger(order) || order < 0) next.sortOrder = 'A whole number, 0 or more.';
    let release: string | null = null;
    if (releaseAt) {
      const d = new Date(releaseAt);
      if (Number.isNaN(d.getTime())) next.releaseAt = 'Use a date and time.';
      else release = d.toISOString();
    }
    setErrors(next);
    if (Object.keys(next).length) return;
    update.mutate(
      {
        name: name.trim(),
        description,
        imageKey,
        priceCents: priceCents!,
        status,
        releaseAt: release,
        purchaseLimitPerUser: lim,
        featured,
        sortOrder: order,
      },
      {
        onSuccess: () => toast.success('Product saved'),
        onError: (err) => {
          if (err instanceof ApiClientError) {
            const f: Errors = { form: err.message };
            for (const [k, v] of Object.entries(err.fields ?? {})) f[k as keyof ProductInput] = v[0];
            setErrors(f);
          } else setErrors({ form: 'Not saved; try again.' });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="space-y-6">
        {errors.form ? <Notice tone="danger">{errors.form}</Notice> : null}
        <Panel id="product-listing" title="Listing">
          <div className="space-y-4">
            <FormField label="Name" required error={errors.name}>
              <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={80} />
            </FormField>
            <FormField label="Description" hint="Shown on the product page." error={errors.description}>
              <Textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={5} maxLength={4000} />
            </FormField>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label="Price" required hint={`Per pack, e.g. 9.99 (${formatMoney(parseMoney(price) ?? 0)})`} error={errors.priceCents}>
                <Input value={price} onChange={(e) => setPrice(e.target.value)} inputMode="decimal" />
              </FormField>
              <FormField label="Status" error={errors.status} hint="Only live products are in the shop.">
                <Select value={status} onChange={(e) => setStatus(e.target.value as ProductStatus)}>
                  <option value="draft">Draft</option>
                  <option value="live">Live</option>
                  <option value="archived">Archived</option>
                </Select>
              </FormField>
              <FormField label="Release time" hint="Optional. Before it, the pack shows as coming soon and cannot be bought." error={errors.releaseAt}>
                <Input type="datetime-local" value={releaseAt} onChange={(e) => setReleaseAt(e.target.value)} />
              </FormField>
              <FormField label="Purchase limit per user" hint="Packs one person may buy, ever. Empty = no limit." error={errors.purchaseLimitPerUser}>
                <Input value={limit} onChange={(e) => setLimit(e.target.value)} inputMode="numeric" />
              </FormField>
              <FormField label="Order" hint="Lower comes first in the shop (featured packs lead)." error={errors.sortOrder}>
                <Input value={sortOrder} onChange={(e) => setSortOrder(e.target.value)} inputMode="numeric" />
              </FormField>
              <FormField label="Featured on the front page and first in the shop" inline error={errors.featured}>
                <Checkbox checked={featured} onChange={(e) => setFeatured(e.target.checked)} />
              </FormField>
            </div>
          </div>
        </Panel>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" loading={update.isPending}>
            Save product
          </Button>
          <Link to="/admin/packs/$id" params={{ id: product.packId }} className={buttonClasses({ variant: 'secondary' })}>
            <Layers aria-hidden="true" className="size-4" /> Edit the pack&apos;s odds
          </Link>
          <ConfirmDialog
            title={`Delete ${product.name}?`}
            description="Only a product that never sold can be deleted. Archive it instead to take it off the shop."
            confirmLabel="Delete"
            variant="danger"
            onConfirm={async () => {
              try {
                await del.mutateAsync();
                toast.success('Product deleted');
                void navigate({ to: '/admin/products' });
              } catch (err) {
                toast.error('Not deleted', err instanceof ApiClientError ? err.message : 'Try again.');
                throw err;
              }
            }}
            trigger={
              <Button type="button" variant="ghost" className="text-red-300">
                Delete
              </Button>
            }
          />
        </div>
      </div>
      <div className="space-y-3">
        <ProductValue product={product} priceCents={parseMoney(price)} />
        <label htmlFor="product-image" className="block text-sm font-medium text-zinc-200">
          Product image
        </label>
        <PackArt seed={product.id} name={name || product.name} imageKey={imageKey} caption={`${product.cardsPerPack} cards`} />
        <div className="flex flex-wrap gap-2">
          <FileButton
            id="product-image"
            accept={UPLOAD_ACCEPT}
            onFile={(f) => void onFile(f)}
            loading={uploading}
            buttonLabel={`${imageKey ? 'Replace image' : 'Upload image'} of the product`}
            invalid={Boolean(errors.imageKey)}
          >
            <ImagePlus aria-hidden="true" className="size-4" /> {imageKey ? 'Replace image' : 'Upload image'}
          </FileButton>
          {imageKey ? (
            <Button type="button" variant="ghost" size="sm" onClick={() => setImageKey(null)}>
              Use generated design
            </Button>
          ) : null}
        </div>
        <p className="text-xs text-zinc-400">PNG, JPEG or WebP up to 5 MB, ideally 5:7 portrait. Without one the shop draws a foil pack design.</p>
        {errors.imageKey ? (
          <p role="alert" className="text-sm text-red-300">
            {errors.imageKey}
          </p>
        ) : null}
      </div>
    </form>
  );
}

/** The pack's expected value against the price being typed, so a negative edge shows before saving. */
export function ProductValue({ product, priceCents }: { product: ProductSummary; priceCents: number | null }) {
  const edge = houseEdgeBp(priceCents, product.expectedValueCents);
  return (
    <div className="rounded-xl border border-white/10 bg-white/[0.02] p-4" data-testid="product-value">
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <dt className="text-zinc-400">Expected value</dt>
        <dd className="text-right font-semibold text-white">
          <Money cents={product.expectedValueCents} />
        </dd>
        <dt className="text-zinc-400">House edge</dt>
        <dd className="text-right font-semibold">
          <HouseEdge bp={edge} />
        </dd>
      </dl>
      {edge !== null && edge < 0 ? (
        <p className="mt-2 text-xs text-red-300">Negative edge: at this price the pack pays out more than it costs on average. Raise the price or change the odds.</p>
      ) : null}
    </div>
  );
}
