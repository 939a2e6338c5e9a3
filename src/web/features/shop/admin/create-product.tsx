import { useNavigate } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { productInputSchema, type ProductInput } from '@shared/contracts/shop';
import { parseMoney } from '@shared/money';
import { Button, Dialog, FormField, Input, Notice, toast } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { convertingResolver } from '@web/lib/form-resolver';
import { useCreateProduct } from './admin-api';

/** What the inputs show: the price in dollars, under the contract's name. */
interface CreateProductValues {
  name: string;
  priceCents: string;
}
const FIELDS = ['name', 'priceCents'] as const;

const resolver = convertingResolver<CreateProductValues, ProductInput>({
  fields: FIELDS,
  schema: productInputSchema,
  toInput: (v, bad) => {
    const cents = v.priceCents.trim() === '' ? null : parseMoney(v.priceCents);
    if (cents === null) bad('priceCents', 'Enter a price such as 9.99.');
    return { name: v.name, priceCents: cents, status: 'draft' };
  },
});

/** "New product": a draft with its own empty pack, then its editor. */
export function CreateProduct() {
  const navigate = useNavigate();
  const create = useCreateProduct();
  const [open, setOpen] = useState(false);
  const form = useForm<CreateProductValues, unknown, ProductInput>({ resolver, defaultValues: { name: '', priceCents: '' } });
  const e = form.formState.errors;
  const submit = form.handleSubmit(async (input) => {
    try {
      const r = await create.mutateAsync(input);
      toast.success('Product created', 'It is a draft with an empty pack: set its odds next.');
      setOpen(false);
      form.reset();
      void navigate({ to: '/admin/products/$id', params: { id: r.product.id } });
    } catch (err) {
      if (!applyServerFields(err, form.setError, FIELDS)) form.setError('root', { type: 'server', message: errorText(err) });
    }
  });
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="New product"
      description="It starts as a draft with its own empty pack; nothing shows in the shop until you make it live."
      trigger={
        <Button>
          <Plus aria-hidden="true" className="size-4" /> New product
        </Button>
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        {e.root?.message ? <Notice tone="danger">{e.root.message}</Notice> : null}
        <FormField label="Name" required error={e.name?.message}>
          <Input {...form.register('name')} maxLength={80} autoFocus />
        </FormField>
        <FormField label="Price" required hint="Per pack, e.g. 9.99" error={e.priceCents?.message}>
          <Input {...form.register('priceCents')} inputMode="decimal" />
        </FormField>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || form.formState.isSubmitting}>
            Create
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
