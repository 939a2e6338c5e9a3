import { Outlet } from '@tanstack/react-router';
import { HEADER_CLASSES, LAYOUT_CLASSES } from '@shared/site-shell';
import { SiteFooter, SiteHeader } from './site-chrome';

/**
 * The header and footer of the shop and the profile area. Both areas sit under this one route, so
 * moving between them keeps the header mounted: an open inbox or menu is not closed, and its
 * state not lost, when the next area's code arrives.
 */
export function ChromeLayout() {
  return (
    <div className={HEADER_CLASSES.frame}>
      <SiteHeader />
      {/*
        At least a screen tall below the header (h-16), so the footer always starts below the
        first screen: a page's loading state and its final content differ in height (three pack
        skeletons, then "no packs yet"), and a footer inside the screen moved with them, a layout
        shift of 0.13 on /open-pack at 412 x 823.
      */}
      <div className={LAYOUT_CLASSES.below}>
        <Outlet />
      </div>
      <SiteFooter />
    </div>
  );
}

/** The public shop: the page, under the header. */
export function SiteLayout() {
  return (
    <main id="main" tabIndex={-1} className={LAYOUT_CLASSES.main}>
      <Outlet />
    </main>
  );
}
