import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { ImagePlus, Layers } from 'lucide-react';
import { UPLOAD_ACCEPT, UPLOAD_MAX_BYTES } from '@shared/contracts/catalog-look';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { productPatchSchema, type ProductStatus, type ProductSummary } from '@shared/contracts/shop';
import { formatMoney, parseMoney } from '@shared/money';
import { Button, buttonClasses, Checkbox, ConfirmDialog, FileButton, FormField, Input, Money, Notice, Panel, Select, Textarea, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { convertingResolver } from '@web/lib/form-resolver';
import { toLocalInput } from '@web/lib/datetime-local';
import { PackArt } from '../pack-art';
import { HouseEdge } from './house-edge';
import { houseEdgeBp } from './pack-math';
import { uploadImage, useDeleteProduct, useUpdateProduct } from './admin-api';
import { plural } from '@web/lib/format';

/** The fields as the inputs show them (the price in dollars, numbers as text, a local time), under the contract's names. */
export interface ProductFormValues {
  name: string;
  description: string;
  imageKey: string | null;
  priceCents: string;
  status: ProductStatus;
  releaseAt: string;
  purchaseLimitPerUser: string;
  featured: boolean;
  sortOrder: string;
}
const FIELDS = ['name', 'description', 'imageKey', 'priceCents', 'status', 'releaseAt', 'purchaseLimitPerUser', 'featured', 'sortOrder'] as const;
export type ProductPatch = z.output<typeof productPatchSchema>;

export function productToForm(p: ProductSummary): ProductFormValues {
  return {
    name: p.name,
    description: p.description,
    imageKey: p.imageKey,
    priceCents: (p.priceCents / 100).toFixed(2),
    status: p.status,
    releaseAt: toLocalInput(p.releaseAt),
    purchaseLimitPerUser: p.purchaseLimitPerUser ? String(p.purchaseLimitPerUser) : '',
    featured: p.featured,
    sortOrder: String(p.sortOrder),
  };
}

/** Converts every field (the whole listing is sent), then the PATCH contract decides. */
export const productResolver = convertingResolver<ProductFormValues, ProductPatch>({
  fields: FIELDS,
  schema: productPatchSchema,
  toInput: (v, bad) => {
    const priceCents = parseMoney(v.priceCents);
    if (priceCents === null || priceCents < 1) bad('priceCents', 'Enter a price such as 9.99.');
    const limit = v.purchaseLimitPerUser.trim() ? Number(v.purchaseLimitPerUser) : null;
    if (limit !== null && (!Number.isInteger(limit) || limit < 1)) bad('purchaseLimitPerUser', 'A whole number of packs (1 or more), or empty for no limit.');
    const order = Number(v.sortOrder);
    if (!Number.isInteger(order) || order < 0) bad('sortOrder', 'A whole number, 0 or more.');
    let releaseAt: string | null = null;
    if (v.releaseAt) {
      const d = new Date(v.releaseAt);
      if (Number.isNaN(d.getTime())) bad('releaseAt', 'Use a date and time.');
      else releaseAt = d.toISOString();
    }
    return {
      name: v.name,
      description: v.description,
      imageKey: v.imageKey,
      priceCents,
      status: v.status,
      releaseAt,
      purchaseLimitPerUser: limit,
      featured: v.featured,
      sortOrder: order,
    };
  },
});

/** Edits one product: listing, image, price, status, release, limit, featured, order. */
export function ProductForm({ product }: { product: ProductSummary }) {
  const navigate = useNavigate();
  const update = useUpdateProduct(product.id);
  const del = useDeleteProduct(product.id);
  const { register, handleSubmit, formState, setError, clearErrors, setValue, control } = useForm<ProductFormValues, unknown, ProductPatch>({
    resolver: productResolver,
    defaultValues: productToForm(product),
  });
  const errors = formState.errors;
  const [name, price, imageKey] = useWatch({ control, name: ['name', 'priceCents', 'imageKey'] });
  const [uploading, setUploading] = useState(false);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > UPLOAD_MAX_BYTES) {
      setError('imageKey', { type: 'upload', message: 'The image is larger than 5 MB; pick a smaller one.' });
      return;
    }
    setUploading(true);
    try {
      const up = await uploadImage(file);
      setValue('imageKey', up.key, { shouldDirty: true });
      clearErrors('imageKey');
    } catch (err) {
      setError('imageKey', {
        type: 'upload',
        message: err instanceof ApiClientError ? (err.fields?.file?.[0] ?? err.message) : 'The upload failed; try again.',
      });
    } finally {
      setUploading(false);
    }
  };

  const submit = handleSubmit(async (patch) => {
    try {
      await update.mutateAsync(patch);
      toast.success('Product saved');
    } catch (err) {
      if (applyServerFields(err, setError, FIELDS)) return;
      setError('root', { type: 'server', message: err instanceof ApiClientError ? errorText(err) : 'Not saved; try again.' });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
      <div className="space-y-6">
        {errors.root?.message ? <Notice tone="danger">{errors.root.message}</Notice> : null}
        <Panel id="product-listing" title="Listing">
          <div className="space-y-4">
            <FormField label="Name" required error={errors.name?.message}>
              <Input {...register('name')} maxLength={80} />
            </FormField>
            <FormField label="Description" hint="Shown on the product page." error={errors.description?.message}>
              <Textarea {...register('description')} rows={5} maxLength={4000} />
            </FormField>
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField label="Price" required hint={`Per pack, e.g. 9.99 (${formatMoney(parseMoney(price) ?? 0)})`} error={errors.priceCents?.message}>
                <Input {...register('priceCents')} inputMode="decimal" />
              </FormField>
              <FormField label="Status" error={errors.status?.message} hint="Only live products are in the shop.">
                <Select {...register('status')}>
                  <option value="draft">Draft</option>
                  <option value="live">Live</option>
                  <option value="archived">Archived</option>
                </Select>
              </FormField>
              <FormField label="Release time" hint="Optional. Before it, the pack shows as coming soon and cannot be bought." error={errors.releaseAt?.message}>
                <Input type="datetime-local" {...register('releaseAt')} />
              </FormField>
              <FormField label="Purchase limit per user" hint="Packs one person may buy, ever. Empty = no limit." error={errors.purchaseLimitPerUser?.message}>
                <Input {...register('purchaseLimitPerUser')} inputMode="numeric" />
              </FormField>
              <FormField label="Order" hint="Lower comes first in the shop (featured packs lead)." error={errors.sortOrder?.message}>
                <Input {...register('sortOrder')} inputMode="numeric" />
              </FormField>
              <FormField label="Featured on the front page and first in the shop" inline error={errors.featured?.message}>
                <Checkbox {...register('featured')} />
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
        <PackArt seed={product.id} name={name || product.name} imageKey={imageKey} caption={plural(product.cardsPerPack, 'card')} />
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
            <Button type="button" variant="ghost" size="sm" onClick={() => setValue('imageKey', null, { shouldDirty: true })}>
              Use generated design
            </Button>
          ) : null}
        </div>
        <p className="text-xs text-zinc-400">PNG, JPEG or WebP up to 5 MB, ideally 5:7 portrait. Without one the shop draws a foil pack design.</p>
        {errors.imageKey?.message ? (
          <p role="alert" className="text-sm text-red-300">
            {errors.imageKey.message}
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
