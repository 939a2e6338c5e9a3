import { and, eq } from 'drizzle-orm';
import { shippingOrigins } from '../db/schema/shipping.ts';
import { seedShippingSettings } from '../modules/shipping/settings.ts';
import type { SeedStep } from './index.ts';

/**
 * The default origin gets a real-looking address (migration 0011 creates it with a placeholder,
 * which is only replaced while it is still the placeholder), and the fee settings are stored.
 */
export const shippingSeedStep: SeedStep = {
  name: 'shipping: default origin and settings',
  async run(deps) {
    await deps.db
      .update(shippingOrigins)
      .set({ name: 'Packvault vault, San Francisco', line1: '500 Howard Street', line2: 'Suite 300', city: 'San Francisco', region: 'CA', postalCode: '94105', phone: '+1 415 555 0100', updatedAt: new Date() })
      .where(and(eq(shippingOrigins.isDefault, true), eq(shippingOrigins.line1, 'Address to be set')));
    await seedShippingSettings(deps.db);
  },
};
