/** Shipping (issue 15): addresses, shipping vault cards, the shipments' life, the back office. */
export { AddressesPanel, AddressDialog } from './addresses-panel';
export { ShipmentsPanel, ShipmentDetail } from './shipments-panel';
export { ShipCardsButton } from './ship-button';
export { useShippingLiveUpdates } from './api';
export { AdminShippingQueue } from './admin-queue';
export { AdminShipmentScreen } from './admin-shipment';
export { AdminPickList } from './admin-pick-list';
export { AdminOrigins, AdminOriginScreen, AdminShippingSettings } from './admin-origins';
export { AdminUserShipping } from './admin-user-shipping';
