import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Ticket } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { redeemPromoSchema } from '@shared/contracts/wallet';
import { Button, FormField, Input, Notice, Panel } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { walletApi, walletKeys } from './api';

interface PromoValues {
  code: string;
}

/** Redeem a promo code: a credit lands at once, a deposit bonus waits for the next deposit. */
export function PromoRedeem() {
  const qc = useQueryClient();
  const [result, setResult] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const redeem = useMoneyAction((c: string, key: string) => walletApi.redeemPromo(c, key));
  const { register, handleSubmit, formState, setError, reset } = useForm<PromoValues>({
    resolver: zodResolver(redeemPromoSchema) as never,
    defaultValues: { code: '' },
  });

  const submit = handleSubmit(async ({ code }) => {
    setResult(null);
    try {
      const r = await redeem.run(code.toUpperCase());
      if (!r) return;
      setResult({ tone: 'success', text: r.message });
      reset({ code: '' });
      void qc.invalidateQueries({ queryKey: walletKeys.all });
    } catch (err) {
      if (!applyServerFields<PromoValues>(err, setError, ['code'])) setResult({ tone: 'danger', text: errorText(err) });
    }
  });

  return (
    <Panel id="promo" title="Promo code" description="Got a code? Redeem it here. Each code works once per account.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <FormField
            label="Code"
            hint="Type the code from your email or offer; capitals or not, it does not matter."
            error={formState.errors.code?.message}
            className="flex-1"
          >
            <Input
              {...register('code')}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="Promo code"
              className="font-mono uppercase"
            />
          </FormField>
          <Button type="submit" variant="secondary" loading={redeem.busy} loadingText="Redeeming…" onClick={redeem.guardClick} className="sm:mt-7">
            <Ticket aria-hidden="true" className="size-4" />
            Redeem
          </Button>
        </div>
        {result ? <Notice tone={result.tone}>{result.text}</Notice> : null}
      </form>
    </Panel>
  );
}
