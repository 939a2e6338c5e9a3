import { useQueryClient } from '@tanstack/react-query';
import { Ticket } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { promoCodeText } from '@shared/contracts/wallet';
import { Button, FormField, Input, Notice, Panel } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { useIdempotent, walletApi, walletKeys } from './api';

/** Redeem a promo code: a credit lands at once, a deposit bonus waits for the next deposit. */
export function PromoRedeem() {
  const qc = useQueryClient();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [result, setResult] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const redeem = useIdempotent((c: string, key: string) => walletApi.redeemPromo(c, key));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    const parsed = promoCodeText.safeParse(code);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Check the code.');
      return;
    }
    setFieldError(null);
    setBusy(true);
    try {
      const r = await redeem(parsed.data.toUpperCase());
      setResult({ tone: 'success', text: r.message });
      setCode('');
      void qc.invalidateQueries({ queryKey: walletKeys.all });
    } catch (err) {
      if (err instanceof ApiClientError && err.fields?.code) setFieldError(err.fields.code[0] ?? err.message);
      else setResult({ tone: 'danger', text: err instanceof Error ? err.message : 'That did not work. Try again.' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Panel id="promo" title="Promo code" description="Got a code? Redeem it here. Each code works once per account.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <FormField label="Code" hint="Type the code from your email or offer; capitals or not, it does not matter." error={fieldError} className="flex-1">
            <Input
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setFieldError(null);
              }}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              placeholder="Promo code"
              className="font-mono uppercase"
            />
          </FormField>
          <Button type="submit" variant="secondary" loading={busy} loadingText="Redeeming…" className="sm:mt-7">
            <Ticket aria-hidden="true" className="size-4" />
            Redeem
          </Button>
        </div>
        {result ? <Notice tone={result.tone}>{result.text}</Notice> : null}
      </form>
    </Panel>
  );
}
